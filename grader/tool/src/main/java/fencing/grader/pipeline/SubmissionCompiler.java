package fencing.grader.pipeline;

import fencing.grader.StudentFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
     * @param ok      whether the files compiled
     * @param output  the diagnostics, empty when {@code ok}
     * @param foreign compiled classes that are neither a student-owned class nor nested in one
     * @param classes the binary names of every class compiled, nested ones included
     */
    record Result(boolean ok, String output, List<String> foreign, List<String> classes) {
    }

    private SubmissionCompiler() {
    }

    /**
     * Compiles the student-owned files below {@code sources} (the grader's own copies of them) into {@code classes}.
     *
     * @param sources the copies' source root, laid out like {@code src/main/java}
     * @param files   the student-owned files there, relative to {@code sources}
     */
    static Result compile(Path sources, List<String> files, Path classes, List<Path> classPath) throws IOException {
        Files.createDirectories(classes);
        if (files.isEmpty()) {
            return new Result(true, "", List.of(), List.of());
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
                    // Sources are looked up among the copies only: never on the class path, never in the submission.
                    "-sourcepath", sources.toString(),
                    "-cp", classPath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)));
            boolean ok = javac.getTask(null, fileManager, diagnostics, options, null,
                    fileManager.getJavaFileObjectsFromPaths(files.stream().map(sources::resolve).toList())).call();
            if (!ok) {
                return new Result(false, format(diagnostics, sources), List.of(), List.of());
            }
        }
        List<String> compiled = compiledFiles(classes);
        List<String> foreign = compiled.stream().filter(name -> {
            String outer = name.replaceFirst("\\$.*", "").replaceFirst("\\.class$", "") + ".java";
            return !StudentFiles.PATHS.contains(outer);
        }).toList();
        List<String> binaryNames = compiled.stream().map(name -> name.replaceFirst("\\.class$", "").replace('/', '.')).toList();
        return new Result(true, "", foreign, binaryNames);
    }

    /** Lists the compiled class files below {@code classes}, relative to it, with {@code /} between folders. */
    private static List<String> compiledFiles(Path classes) throws IOException {
        try (Stream<Path> paths = Files.walk(classes)) {
            return paths.filter(path -> path.toString().endsWith(".class"))
                    .map(path -> classes.relativize(path).toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static String format(DiagnosticCollector<JavaFileObject> diagnostics, Path sources) {
        StringBuilder text = new StringBuilder();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            String file = diagnostic.getSource() == null ? "?"
                    : StudentFiles.SOURCE_ROOT + "/"
                    + sources.toAbsolutePath().relativize(Path.of(diagnostic.getSource().toUri()).toAbsolutePath());
            text.append(file).append(':').append(diagnostic.getLineNumber()).append(": error: ")
                    .append(diagnostic.getMessage(Locale.ROOT)).append('\n');
        }
        return text.toString();
    }
}
