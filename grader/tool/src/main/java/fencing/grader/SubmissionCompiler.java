package fencing.grader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles a submission's student-owned files against the kit's provided code. */
final class SubmissionCompiler {

    /**
     * The result of compiling a submission.
     *
     * @param ok      whether the files compiled and define only student-owned classes
     * @param output  the diagnostics, empty when {@code ok}
     * @param taken   the student-owned files found in the submission
     * @param missing the student-owned files the submission lacks (their stubs stay in place)
     */
    record Result(boolean ok, String output, List<String> taken, List<String> missing) {
    }

    private SubmissionCompiler() {
    }

    /**
     * Compiles the student-owned files of {@code submission} into {@code classes}.
     *
     * @throws IllegalArgumentException if {@code submission} is not a directory laid out like {@code exercises/}
     */
    static Result compile(Path submission, Path classes, List<Path> classPath) throws IOException {
        if (!Files.isDirectory(submission)) {
            throw new IllegalArgumentException("the submission must be a directory laid out like exercises/, got: " + submission);
        }
        Path sources = submission.resolve(StudentFiles.SOURCE_ROOT);
        if (!Files.isDirectory(sources)) {
            throw new IllegalArgumentException("the submission " + submission + " has no " + StudentFiles.SOURCE_ROOT
                    + "/: it must be laid out like exercises/ (src/main/java/fencing/...)");
        }
        List<String> taken = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (String path : StudentFiles.PATHS) {
            Path file = sources.resolve(path);
            if (Files.isRegularFile(file)) {
                taken.add(path);
                files.add(file);
            } else {
                missing.add(path);
            }
        }
        Files.createDirectories(classes);
        if (files.isEmpty()) {
            return new Result(true, "", taken, missing);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("grading needs a JDK (javac), but this Java runtime has none: " + System.getProperty("java.home"));
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "--release", "17", "-encoding", "UTF-8", "-proc:none", "-nowarn", "-g",
                    "-implicit:none",
                    "-d", classes.toString(),
                    "-cp", classPath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)));
            boolean ok = javac.getTask(null, fileManager, diagnostics, options, null,
                    fileManager.getJavaFileObjectsFromPaths(files)).call();
            if (!ok) {
                return new Result(false, format(diagnostics, submission), taken, missing);
            }
        }
        List<String> foreign = foreignClasses(classes);
        if (!foreign.isEmpty()) {
            return new Result(false, "A submission may define only the student-owned classes, but it also defines: "
                    + String.join(", ", foreign), taken, missing);
        }
        return new Result(true, "", taken, missing);
    }

    /** Lists compiled classes that are neither a student-owned class nor nested in one. */
    private static List<String> foreignClasses(Path classes) throws IOException {
        try (Stream<Path> paths = Files.walk(classes)) {
            return paths.filter(path -> path.toString().endsWith(".class"))
                    .map(path -> classes.relativize(path).toString().replace('\\', '/'))
                    .filter(name -> {
                        String outer = name.replaceFirst("\\$.*", "").replaceFirst("\\.class$", "") + ".java";
                        return !StudentFiles.PATHS.contains(outer);
                    })
                    .sorted()
                    .toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static String format(DiagnosticCollector<JavaFileObject> diagnostics, Path submission) {
        StringBuilder text = new StringBuilder();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            String file = diagnostic.getSource() == null ? "?"
                    : submission.toAbsolutePath().relativize(Path.of(diagnostic.getSource().toUri()).toAbsolutePath()).toString();
            text.append(file).append(':').append(diagnostic.getLineNumber()).append(": error: ")
                    .append(diagnostic.getMessage(Locale.ROOT)).append('\n');
        }
        return text.toString();
    }
}
