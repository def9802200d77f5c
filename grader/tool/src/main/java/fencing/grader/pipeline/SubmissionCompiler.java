package fencing.grader.pipeline;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import fencing.grader.StudentFiles;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a submission's student-owned files against the kit's provided code, file by file as far as grading goes: a
 * student file that does not compile, or that breaks the contract of its stub ({@link Contract}), is set aside and
 * graded as the kit's stub, and the rest compiled again ({@link Attribution} says which, {@link Stubs} writes them).
 * Only when no student file can be blamed, or the stubs in every place still do not compile, does the submission not
 * compile at all.
 */
final class SubmissionCompiler {

    /**
     * The result of compiling a submission.
     *
     * @param ok       whether the files compiled, those set aside as the kit's stubs
     * @param output   the diagnostics, empty when {@code ok}
     * @param foreign  compiled classes that are neither a student-owned class nor nested in one
     * @param classes  the binary names of every class compiled, nested ones included
     * @param setAside the student files graded as the kit's stubs, and why, in the order they were set aside
     */
    record Result(boolean ok, String output, List<String> foreign, List<String> classes, List<SetAside> setAside) {
    }

    /** What one compilation found: its errors, and the contract rules the files without errors of their own broke. */
    private record Pass(List<Attribution.CompileError> errors, Map<String, List<String>> breaks) {

        /** Whether the files compiled and kept their contracts. */
        boolean compiled() {
            return errors.isEmpty() && breaks.isEmpty();
        }
    }

    private SubmissionCompiler() {
    }

    /**
     * Compiles the student-owned files below {@code sources} (the grader's own copies of them) into {@code classes},
     * replacing in {@code sources} each file set aside by the kit's stub.
     *
     * @param sources  the copies' source root, laid out like {@code src/main/java}
     * @param taken    the student files there as the student wrote them, relative to {@code sources}
     * @param stubbed  the student files there that are the kit's stubs already (the submission lacks them)
     * @param contract the stubs' contract the files in {@code taken} must keep
     */
    static Result compile(Path sources, List<String> taken, List<String> stubbed, Path classes, List<Path> classPath,
                          Contract contract) throws IOException {
        Files.createDirectories(classes);
        List<String> files = Stream.concat(taken.stream(), stubbed.stream()).toList();
        if (files.isEmpty()) {
            return new Result(true, "", List.of(), List.of(), List.of());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("grading needs a JDK (javac), but this Java runtime has none: "
                    + System.getProperty("java.home"));
        }
        Set<String> written = new LinkedHashSet<>(taken);
        List<SetAside> setAside = new ArrayList<>();
        // Each round sets aside at least one written file, or ends.
        for (int round = 0; round <= taken.size(); round++) {
            Pass pass = pass(javac, sources, files, classes, classPath, contract, written);
            if (pass.compiled()) {
                return compiled(classes, setAside);
            }
            Attribution.Decision decision = Attribution.decide(pass.errors(), pass.breaks(), written, setAside);
            if (decision.fails()) {
                return new Result(false, format(setAside, pass.errors()), List.of(), List.of(), List.copyOf(setAside));
            }
            for (SetAside aside : decision.setAside()) {
                Stubs.setAside(sources, aside);
                written.remove(aside.path());
                setAside.add(aside);
            }
        }
        throw new IllegalStateException("the compile step set aside a file in every round, yet had more rounds than files");
    }

    /**
     * Compiles {@code files} once, checks the contract of each written file without errors of its own, and writes the
     * classes when there are neither errors nor broken rules.
     */
    private static Pass pass(JavaCompiler javac, Path sources, List<String> files, Path classes, List<Path> classPath,
                             Contract contract, Set<String> written) throws IOException {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "--release", "17", "-encoding", "UTF-8", "-proc:none", "-nowarn", "-g",
                    "-implicit:none",
                    "-d", classes.toString(),
                    // Sources are looked up among the copies only: never on the class path, never in the submission.
                    "-sourcepath", sources.toString(),
                    "-cp", classPath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator)));
            JavacTask task = (JavacTask) javac.getTask(null, fileManager, diagnostics, options, null,
                    fileManager.getJavaFileObjectsFromPaths(files.stream().map(sources::resolve).toList()));
            task.parse();
            task.analyze();
            List<Attribution.CompileError> errors = errors(diagnostics, sources);
            Set<String> erring = errors.stream().map(Attribution.CompileError::path).collect(Collectors.toSet());
            Trees trees = Trees.instance(task);
            Map<String, List<String>> breaks = new LinkedHashMap<>();
            for (String path : written) {
                if (erring.contains(path)) {
                    continue;
                }
                TypeElement type = task.getElements().getTypeElement(Contract.className(path));
                // A class found elsewhere than in the student's file is the stub, on the class path.
                List<String> broken = contract.breaks(path, type == null || trees.getPath(type) == null ? null
                        : ClassShape.of(type, task.getTypes(), element -> line(trees, element)));
                if (!broken.isEmpty()) {
                    breaks.put(path, broken);
                }
            }
            if (errors.isEmpty() && breaks.isEmpty()) {
                // Classes are written only now, into an empty folder: no class of a file set aside since may stay.
                FileTrees.delete(classes);
                Files.createDirectories(classes);
                task.generate();
                errors = errors(diagnostics, sources);
            }
            return new Pass(errors, breaks);
        }
    }

    private static Result compiled(Path classes, List<SetAside> setAside) throws IOException {
        List<String> compiled = compiledFiles(classes);
        List<String> foreign = compiled.stream().filter(name -> {
            String outer = name.replaceFirst("\\$.*", "").replaceFirst("\\.class$", "") + ".java";
            return !StudentFiles.PATHS.contains(outer);
        }).toList();
        List<String> binaryNames = compiled.stream().map(name -> name.replaceFirst("\\.class$", "").replace('/', '.')).toList();
        return new Result(true, "", foreign, binaryNames, List.copyOf(setAside));
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

    /** Returns the compilation's errors, in the order the compiler reported them, each put down to its student file. */
    private static List<Attribution.CompileError> errors(DiagnosticCollector<JavaFileObject> diagnostics, Path sources) {
        List<Attribution.CompileError> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            String relative = diagnostic.getSource() == null ? null
                    : sources.toAbsolutePath().relativize(Path.of(diagnostic.getSource().toUri()).toAbsolutePath())
                    .toString().replace('\\', '/');
            String file = relative == null ? "?" : StudentFiles.SOURCE_ROOT + "/" + relative;
            errors.add(new Attribution.CompileError(StudentFiles.PATHS.contains(relative) ? relative : null, file,
                    Math.max(0, diagnostic.getLineNumber()), diagnostic.getMessage(Locale.ROOT)));
        }
        return errors;
    }

    /** Returns the files set aside so far and the errors that kept the rest from compiling, as javac writes them. */
    private static String format(List<SetAside> setAside, List<Attribution.CompileError> errors) {
        StringBuilder text = new StringBuilder();
        for (SetAside aside : setAside) {
            text.append(aside.note()).append('\n');
        }
        for (Attribution.CompileError error : errors) {
            text.append(error.file()).append(':').append(error.line()).append(": error: ").append(error.message()).append('\n');
        }
        return text.toString();
    }

    /**
     * Returns the line of the student's file that declares {@code element}: a method's or a field's is where its type or
     * name is, after any annotation; 0 when it is not in a source file.
     */
    private static long line(Trees trees, Element element) {
        TreePath path = trees.getPath(element);
        if (path == null) {
            return 0;
        }
        CompilationUnitTree unit = path.getCompilationUnit();
        Tree leaf = path.getLeaf();
        Tree at = leaf;
        if (leaf instanceof MethodTree method) {
            // A constructor has no return type: its first parameter, or its body, is on the line that names it.
            at = method.getReturnType() != null ? method.getReturnType() : !method.getParameters().isEmpty()
                    ? method.getParameters().get(0) : method.getBody() != null ? method.getBody() : leaf;
        } else if (leaf instanceof VariableTree variable && variable.getType() != null) {
            at = variable.getType();
        } else if (leaf instanceof ClassTree type) {
            long modifiersEnd = trees.getSourcePositions().getEndPosition(unit, type.getModifiers());
            if (modifiersEnd > 0) {
                return unit.getLineMap().getLineNumber(modifiersEnd);
            }
        }
        long position = trees.getSourcePositions().getStartPosition(unit, at);
        return position < 0 ? 0 : unit.getLineMap().getLineNumber(position);
    }
}
