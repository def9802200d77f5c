package fencing.grader.pipeline;

import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kit's stubs, put in place of the student files a submission does not hold, so that the rest of it is graded.
 *
 * <p>A stub's methods throw {@code UnsupportedOperationException("Not implemented yet: ...")}; the copy's messages
 * begin with {@value #NOT_SUBMITTED} and the file instead, so that every test that reaches it says which file was not
 * handed in.
 */
final class Stubs {

    /** How a stubbed file's failures begin. */
    static final String NOT_SUBMITTED = "not submitted: ";

    private static final String STUB_MESSAGE = "\"Not implemented yet: ";
    /** How the stub's own failure is described; the exception's name adds nothing for a student. */
    private static final String STUB_FAILURE = UnsupportedOperationException.class.getName() + ": " + NOT_SUBMITTED;
    private static final Pattern NAMED = Pattern.compile(Pattern.quote(NOT_SUBMITTED) + "(\\S+\\.java)");

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
        Optional<Path> stubs = KitLocations.findRoot().map(root -> KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT))
                .filter(Files::isDirectory);
        if (stubs.isEmpty()) {
            return Optional.of("student files are missing, and the kit's stubs to grade in their place are not here: "
                    + String.join(", ", missing));
        }
        write(stubs.get(), sources, missing);
        return Optional.empty();
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
     * Writes the stub of each of {@code missing} from {@code stubs} into {@code sources}, its messages naming the file. A
     * stub that throws no "Not implemented yet" failure ({@code Predictions} holds placeholders and no method) is written
     * as it is: its tests fail on its placeholders, and the grade's note lists the file as missing.
     */
    private static void write(Path stubs, Path sources, List<String> missing) throws IOException {
        for (String path : missing) {
            String text = Files.readString(stubs.resolve(path));
            Path copy = sources.resolve(path);
            Files.createDirectories(copy.getParent());
            Files.writeString(copy, text.replace(STUB_MESSAGE, "\"" + NOT_SUBMITTED + path + ", graded as the kit's stub: "));
        }
    }

    /**
     * Returns {@code message} so that it begins by naming the stubbed file its failure reached, found in the message
     * or the failure's {@code trace} (a test may wrap the stub's exception or replace its message); {@code message}
     * itself when the failure reached no stub.
     */
    static String named(String message, String trace) {
        if (message.startsWith(STUB_FAILURE)) {
            return message.substring(STUB_FAILURE.length() - NOT_SUBMITTED.length());
        }
        if (message.startsWith(NOT_SUBMITTED)) {
            return message;
        }
        Matcher named = NAMED.matcher(message + "\n" + (trace == null ? "" : trace));
        return named.find() ? NOT_SUBMITTED + named.group(1) + ": " + message : message;
    }
}
