package fencing.grader.pipeline;

import fencing.grader.StudentFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Puts the errors of one compilation of a submission down to its student files, and decides which of them to set aside
 * as the kit's stubs before the next: a file with an error of its own did not compile; a file that breaks the contract
 * of its stub, or that the kit's stub of another file does not compile against, changed the contract.
 *
 * <p>An error in one student file can come from another: a call to a method that another file no longer has, or has
 * only in the student's version of it, set aside. So a file whose every error names another file set aside in the
 * same round waits for the next one, where it may compile; every round sets aside at least one file, so a submission
 * of n student files takes at most n + 1 compilations.
 */
final class Attribution {

    /**
     * One compiler error.
     *
     * @param path    the student file it is in, relative to {@code src/main/java}; null when it is in no student file
     * @param file    where it is, as a report shows it
     * @param line    its line, or 0 when it has none
     * @param message the compiler's message, as it wrote it
     */
    record CompileError(String path, String file, long line, String message) {

        /** Returns the error on one line, as the compiler would begin it: {@code file:line: message}. */
        String shown() {
            List<String> lines = message.lines().map(String::strip).filter(text -> !text.isEmpty()).toList();
            String text = lines.isEmpty() ? "" : lines.get(0)
                    + (lines.size() > 1 ? " (" + String.join(", ", lines.subList(1, lines.size())) + ")" : "");
            return file + (line > 0 ? ":" + line : "") + ": " + text;
        }
    }

    /**
     * What to do after a compilation that had errors or broke a contract.
     *
     * @param setAside     the files to set aside before compiling again
     * @param unattributed the errors no student file can be blamed for: when there are any, the submission does not
     *                     compile whatever is set aside
     */
    record Decision(List<SetAside> setAside, List<CompileError> unattributed) {

        /** Whether compiling again cannot help. */
        boolean fails() {
            return !unattributed.isEmpty() || setAside.isEmpty();
        }
    }

    private static final Map<String, Pattern> MENTIONS = StudentFiles.PATHS.stream().collect(Collectors.toUnmodifiableMap(
            path -> path, path -> {
                String qualified = Contract.className(path);
                String simple = qualified.substring(qualified.lastIndexOf('.') + 1);
                return Pattern.compile("(?<![\\w$.])(?:" + Pattern.quote(qualified) + "|" + Pattern.quote(simple) + ")(?![\\w$])");
            }));

    /** On a line of its own: the first line is the rule broken and where, short enough to read at a glance. */
    private static final String KEEP_THE_CONTRACT = "\nkeep the handout's names and signatures, which the kit's code is"
            + " written against";

    private Attribution() {
    }

    /**
     * Decides which files to set aside after one compilation.
     *
     * @param errors   the compilation's errors, in the order the compiler reported them
     * @param breaks   the rules of the contract each student file broke, by file; only files without errors of their own
     * @param written  the student files compiled as the student wrote them: neither missing nor set aside already
     * @param earlier  the files set aside by earlier rounds
     */
    static Decision decide(List<CompileError> errors, Map<String, List<String>> breaks, Set<String> written,
                           List<SetAside> earlier) {
        Map<String, SetAside> candidates = new LinkedHashMap<>();
        breaks.forEach((path, rules) -> candidates.put(path,
                new SetAside(path, SetAside.Cause.CONTRACT_CHANGED, String.join("; ", rules) + KEEP_THE_CONTRACT)));
        Map<String, List<CompileError>> own = new LinkedHashMap<>();
        List<CompileError> unattributed = new ArrayList<>();
        for (CompileError error : errors) {
            if (error.path() != null && written.contains(error.path())) {
                own.computeIfAbsent(error.path(), path -> new ArrayList<>()).add(error);
                continue;
            }
            // In a stub (of a missing or set-aside file) or in no student file: the kit's code, which compiles against
            // the stubs, so the student files it names changed what it relies on.
            List<String> blamed = error.path() == null ? List.of()
                    : mentioned(error).stream().filter(written::contains).toList();
            if (blamed.isEmpty()) {
                unattributed.add(error);
            }
            for (String path : blamed) {
                candidates.putIfAbsent(path, new SetAside(path, SetAside.Cause.CONTRACT_CHANGED, "the kit's stub of "
                        + SetAside.shown(error.path()) + " does not compile against it: " + error.shown() + KEEP_THE_CONTRACT));
            }
        }
        if (!unattributed.isEmpty()) {
            return new Decision(List.of(), unattributed);
        }
        own.forEach((path, mistakes) -> candidates.putIfAbsent(path,
                new SetAside(path, SetAside.Cause.DID_NOT_COMPILE, firstError(mistakes.get(0), earlier))));
        List<SetAside> now = candidates.values().stream().filter(aside -> !waits(aside.path(), own, candidates)).toList();
        return new Decision(now.isEmpty() ? List.copyOf(candidates.values()) : now, List.of());
    }

    /** Whether every error of {@code path}'s own names another file that is set aside in this round. */
    private static boolean waits(String path, Map<String, List<CompileError>> own, Map<String, SetAside> candidates) {
        List<CompileError> mistakes = own.getOrDefault(path, List.of());
        return !mistakes.isEmpty() && mistakes.stream().allMatch(error -> mentioned(error).stream()
                .anyMatch(other -> !other.equals(path) && candidates.containsKey(other)));
    }

    /** Returns the file's first error, saying so when it names a file set aside before, whose stub it compiled against. */
    private static String firstError(CompileError error, List<SetAside> earlier) {
        List<String> stubs = earlier.stream().map(SetAside::path).filter(mentioned(error)::contains).map(SetAside::shown).toList();
        return error.shown() + (stubs.isEmpty() ? ""
                : " (compiled against the kit's stub of " + String.join(" and ", stubs) + ", set aside)");
    }

    /** Returns the student files whose class {@code error}'s message names, other than the file it is in. */
    private static List<String> mentioned(CompileError error) {
        return StudentFiles.PATHS.stream().filter(path -> !path.equals(error.path()))
                .filter(path -> MENTIONS.get(path).matcher(error.message()).find()).toList();
    }
}
