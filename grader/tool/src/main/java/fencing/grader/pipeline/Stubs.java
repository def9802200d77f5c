package fencing.grader.pipeline;

import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kit's stubs, put in place of the student files a submission does not hold, or holds but cannot be graded as
 * written ({@link SetAside}), so that the rest of it is graded.
 *
 * <p>A stub's methods throw {@code UnsupportedOperationException("Not implemented yet: ...")}; the copy's messages
 * begin instead with why the stub is there ({@value #NOT_SUBMITTED} and the file, or the reason a file was set aside),
 * so that every test that reaches it says which file it stands for and why.
 */
final class Stubs {

    /** How a stubbed file's failures begin. */
    static final String NOT_SUBMITTED = "not submitted: ";

    private static final String STUB_MESSAGE = "\"Not implemented yet: ";
    /** What follows why a stub stands in a student file's place, before the stub's own message. */
    private static final String GRADED_AS_STUB = " graded as the kit's stub: ";
    /** How the stub's own failure begins; the exception's name adds nothing for a student. */
    private static final String STUB_FAILURE = UnsupportedOperationException.class.getName() + ": ";
    /** How each reason for a stub begins: the file was not submitted, or was set aside. */
    private static final List<String> WHY = Stream.concat(Stream.of(NOT_SUBMITTED),
            Arrays.stream(SetAside.Cause.values()).map(SetAside.Cause::words)).toList();
    /**
     * A stub's failure in a message or a trace: why it is there (its first line; a second, what to do about it, may
     * follow), up to the stub's own message.
     */
    private static final Pattern NAMED = Pattern.compile("((?:" + WHY.stream().map(Pattern::quote).collect(Collectors.joining("|"))
            + ")[^\\n]*?)(?:\\n[^\\n]*?)?[,;]" + Pattern.quote(GRADED_AS_STUB));

    private Stubs() {
    }

    /**
     * Writes the kit's stub ({@code exercises/src/main/java}) of each of {@code missing} into {@code sources}.
     *
     * @return why the submission cannot be graded when the kit's stubs are not here; empty when they were written
     */
    static Optional<String> fill(Path sources, List<String> missing) throws IOException {
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        Optional<Path> stubs = stubs();
        if (stubs.isEmpty()) {
            return Optional.of("student files are missing, and the kit's stubs to grade in their place are not here: "
                    + String.join(", ", missing));
        }
        for (String path : missing) {
            write(stubs.get(), sources, path, NOT_SUBMITTED + path + ",");
        }
        return Optional.empty();
    }

    /**
     * Writes the kit's stub of the file {@code aside} sets aside over the student's copy in {@code sources}, its messages
     * beginning with why.
     *
     * @throws IllegalStateException if the kit's stubs are not here: a failure of the grader's installation, not the
     *                               student's
     */
    static void setAside(Path sources, SetAside aside) throws IOException {
        Path stubs = stubs().orElseThrow(() -> new IllegalStateException("the student file " + aside.path()
                + " is to be graded as the kit's stub (" + aside.reason() + "), but the kit's stubs are not here"));
        write(stubs, sources, aside.path(), aside.reason() + ";");
    }

    private static Optional<Path> stubs() {
        return KitLocations.findRoot().map(root -> KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT))
                .filter(Files::isDirectory);
    }

    /**
     * Says which of {@code missing} a submission was expected to hold: the core's files, and the extension's when it
     * counts ({@code extensions}); empty when none.
     */
    static Optional<String> note(List<String> missing, boolean extensions) {
        List<String> absent = missing.stream().filter(StudentFiles.required(extensions)::contains).toList();
        return absent.isEmpty() ? Optional.empty() : Optional.of("Student files missing, graded as the kit's stubs (their"
                + " tests fail, saying \"" + NOT_SUBMITTED + "FILE\"): " + String.join(", ", absent));
    }

    /**
     * Writes the stub of {@code path} from {@code stubs} into {@code sources}, each of its messages beginning with
     * {@code why} (one line, ending in its separator from the stub's own message). A stub that throws no "Not implemented
     * yet" failure ({@code Predictions} holds placeholders and no method) is written as it is: its tests fail on its
     * placeholders, and the grade's note says why it is there.
     */
    private static void write(Path stubs, Path sources, String path, String why) throws IOException {
        String text = Files.readString(stubs.resolve(path));
        Path copy = sources.resolve(path);
        Files.createDirectories(copy.getParent());
        Files.writeString(copy, text.replace(STUB_MESSAGE, "\"" + literal(why + GRADED_AS_STUB)));
    }

    /**
     * Returns {@code text} as the inside of a Java string literal: a reason quotes the compiler, which quotes the
     * student's code, so a quote, a backslash or a control character in it must not end or bend the literal.
     */
    static String literal(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.chars().forEach(c -> {
            if (c == '\\' || c == '"') {
                out.append('\\').append((char) c);
            } else if (c < 0x20 || c == 0x7F) {
                out.append(String.format(Locale.ROOT, "\\%03o", c));
            } else {
                out.append((char) c);
            }
        });
        return out.toString();
    }

    /**
     * Returns {@code message} so that it begins by saying which stubbed file its failure reached and why the stub is
     * there, found in the message or the failure's {@code trace} (a test may wrap the stub's exception or replace its
     * message); {@code message} itself when the failure reached no stub.
     */
    static String named(String message, String trace) {
        if (message.startsWith(STUB_FAILURE) && WHY.stream().anyMatch(message.substring(STUB_FAILURE.length())::startsWith)) {
            return message.substring(STUB_FAILURE.length());
        }
        if (WHY.stream().anyMatch(message::startsWith)) {
            return message;
        }
        Matcher named = NAMED.matcher(message + "\n" + (trace == null ? "" : trace));
        return named.find() ? named.group(1) + ": " + message : message;
    }
}
