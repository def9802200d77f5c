package fencing.grader.pipeline;

import static fencing.grader.pipeline.ClassShape.simple;

import fencing.grader.StudentFiles;
import fencing.grader.pipeline.ClassShape.Access;
import fencing.grader.pipeline.ClassShape.Member;
import fencing.grader.pipeline.ClassShape.Supertype;
import fencing.grader.pipeline.ClassShape.Thrown;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The contract each student file keeps: the API of the handout's stub of its class, which the kit's code (the provided
 * code, the lab, the public and the hidden tests) is written and compiled against. The handout says it as "keep the
 * names and signatures as they are".
 *
 * <p>What code outside the class can use counts: each member and nested class of the stub that is not private, with
 * its access, whether it is static, its parameter, return or field type and its checked exceptions, and the class's
 * kind, access and supertypes. What a student adds (a helper, a private field, a nested class) is free.
 *
 * <p>The stubs are read from the kit's class files, as the kit's code saw them when it was compiled; a student's class
 * from the submission's compilation. Both are turned into the same records ({@link ClassShape}), which are compared, so
 * the comparison holds no compiler state.
 */
final class Contract {

    private static final Map<List<Path>, Contract> READ = new ConcurrentHashMap<>();

    /** The stubs' shapes, by student file. */
    private final Map<String, ClassShape> stubs;

    Contract(Map<String, ClassShape> stubs) {
        this.stubs = Map.copyOf(stubs);
    }

    /**
     * Returns the contract of the stubs on {@code classPath}, where the kit's provided code holds them; read once per
     * class path, as every grade of a batch keeps the same one.
     *
     * @throws IllegalStateException if a stub is not there
     */
    static Contract ofStubs(List<Path> classPath) {
        return READ.computeIfAbsent(List.copyOf(classPath), Contract::read);
    }

    private static Contract read(List<Path> classPath) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("grading needs a JDK (javac), but this Java runtime has none: "
                    + System.getProperty("java.home"));
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            var task = (com.sun.source.util.JavacTask) javac.getTask(null, files, diagnostics, List.of("--release", "17",
                    "-proc:none", "-cp", classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator))),
                    null, null);
            Map<String, ClassShape> stubs = new LinkedHashMap<>();
            for (String path : StudentFiles.PATHS) {
                TypeElement stub = task.getElements().getTypeElement(className(path));
                if (stub == null) {
                    throw new IllegalStateException("the kit's stub of " + path + " is not on the grader's class path");
                }
                stubs.put(path, ClassShape.of(stub, task.getTypes(), element -> 0));
            }
            return new Contract(stubs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kit's stubs", e);
        }
    }

    /** Returns the qualified name of the class the student file {@code path} declares. */
    static String className(String path) {
        return path.replaceFirst("\\.java$", "").replace('/', '.');
    }

    /**
     * Returns each rule of the contract that {@code student}, the class of the student file {@code path}, breaks: one
     * sentence each, naming the member, the rule and the line of the student's file; none when it keeps the contract.
     *
     * @param student the class as the student's file declares it; null when the file does not declare it
     */
    List<String> breaks(String path, ClassShape student) {
        ClassShape stub = stubs.get(path);
        if (stub == null) {
            throw new IllegalArgumentException("not a student file: " + path);
        }
        if (student == null) {
            return List.of(SetAside.shown(path) + " must declare the class " + simple(stub.name())
                    + ", as the handout's stub does");
        }
        List<String> broken = new ArrayList<>();
        compare(stub, student, SetAside.shown(path), broken);
        return broken;
    }

    private static void compare(ClassShape stub, ClassShape student, String file, List<String> broken) {
        String type = simple(stub.name());
        String at = at(file, student.line());
        if (kind(stub.kind()) != kind(student.kind())) {
            broken.add(type + " must be " + kindWords(stub.kind()) + ", as the handout's stub is; yours is "
                    + kindWords(student.kind()) + at);
            return;
        }
        if (student.access().compareTo(stub.access()) < 0) {
            broken.add(type + " must be " + stub.access().words() + "; yours is " + student.access().words() + at);
        }
        for (Modifier modifier : List.of(Modifier.ABSTRACT, Modifier.FINAL)) {
            if (student.modifiers().contains(modifier) && !stub.modifiers().contains(modifier)) {
                broken.add(type + " must not be " + modifier + at);
            }
        }
        if (stub.modifiers().contains(Modifier.STATIC) != student.modifiers().contains(Modifier.STATIC)) {
            broken.add(type + (stub.modifiers().contains(Modifier.STATIC) ? " must be static" : " must not be static") + at);
        }
        for (Supertype supertype : stub.supertypes()) {
            if (!student.allSupertypes().contains(supertype.name())) {
                broken.add(type + " must " + (supertype.isInterface() ? "implement " : "extend ") + simple(supertype.name())
                        + at);
            }
        }
        if (stub.typeParameters() != student.typeParameters()) {
            broken.add(type + " must take " + stub.typeParameters() + " type parameter(s), as the handout's stub does;"
                    + " yours takes " + student.typeParameters() + at);
        }
        for (Member wanted : stub.members()) {
            if (wanted.access() == Access.PRIVATE) {
                continue;
            }
            Optional<Member> found = student.members().stream().filter(wanted::sameSlot).findFirst();
            if (found.isEmpty()) {
                broken.add(named(type, wanted) + " must stay as the handout's stub declares it, " + declaration(type, wanted)
                        + "; yours has no such " + (wanted.isField() ? "field" : wanted.kind() == ElementKind.CONSTRUCTOR
                        ? "constructor" : "method") + at);
            } else {
                compare(type, wanted, found.get(), file, broken);
            }
        }
        for (ClassShape wanted : stub.nested()) {
            if (wanted.access() == Access.PRIVATE) {
                continue;
            }
            Optional<ClassShape> found = student.nested().stream().filter(inner -> inner.name().equals(wanted.name())).findFirst();
            if (found.isEmpty()) {
                broken.add(simple(wanted.name()) + " must stay as the handout's stub declares it; yours has no such "
                        + kindWords(wanted.kind()).replaceFirst("^an? ", "") + at);
            } else {
                compare(wanted, found.get(), file, broken);
            }
        }
    }

    private static void compare(String type, Member wanted, Member found, String file, List<String> broken) {
        String member = named(type, wanted);
        String at = at(file, found.line());
        if (found.access().compareTo(wanted.access()) < 0) {
            broken.add(member + " must be " + wanted.access().words() + "; yours is " + found.access().words() + at);
        }
        if (wanted.isStatic() != found.isStatic()) {
            broken.add(member + (wanted.isStatic() ? " must be static" : " must not be static") + at);
        }
        if (!wanted.parameters().equals(found.parameters())) {
            broken.add(member + " must take (" + simple(String.join(", ", wanted.parameters())) + "); yours takes ("
                    + simple(String.join(", ", found.parameters())) + ")" + at);
        }
        if (!wanted.type().equals(found.type())) {
            broken.add(member + (wanted.isField() ? " must be of type " : " must return ") + simple(wanted.type())
                    + (wanted.isField() ? "; yours is of type " : "; yours returns ") + simple(found.type()) + at);
        }
        for (Thrown thrown : found.thrown()) {
            if (thrown.checked() && wanted.thrown().stream().noneMatch(declared -> thrown.is(declared.name()))) {
                broken.add(member + " must not declare throws " + simple(thrown.name()) + at);
            }
        }
        for (Thrown declared : wanted.thrown()) {
            if (declared.checked() && found.thrown().stream().noneMatch(thrown -> thrown.is(declared.name()))) {
                broken.add(member + " must declare throws " + simple(declared.name()) + ", as the handout's stub does"
                        + at);
            }
        }
    }

    /**
     * Returns how a student reads {@code member} of {@code type}: {@code Type.method(Param)}, {@code new Type(Param)},
     * {@code Type.FIELD}.
     */
    private static String named(String type, Member member) {
        if (member.isField()) {
            return type + "." + member.name();
        }
        String parameters = "(" + simple(String.join(", ", member.parameters())) + ")";
        return member.kind() == ElementKind.CONSTRUCTOR ? "new " + type + parameters : type + "." + member.name() + parameters;
    }

    /** Returns {@code member} as the stub declares it, e.g. {@code public Optional<Ownership> tryAcquire(String)}. */
    private static String declaration(String type, Member member) {
        StringBuilder text = new StringBuilder(member.access() == Access.PACKAGE ? "" : member.access().words() + " ");
        if (member.isStatic()) {
            text.append("static ");
        }
        if (member.isField()) {
            return text.append(member.modifiers().contains(Modifier.FINAL) ? "final " : "").append(simple(member.type()))
                    .append(' ').append(member.name()).toString();
        }
        if (member.kind() != ElementKind.CONSTRUCTOR) {
            text.append(simple(member.type())).append(' ');
        }
        text.append(member.kind() == ElementKind.CONSTRUCTOR ? type.substring(type.lastIndexOf('.') + 1) : member.name())
                .append('(').append(simple(String.join(", ", member.parameters()))).append(')');
        if (!member.thrown().isEmpty()) {
            text.append(" throws ").append(member.thrown().stream().map(thrown -> simple(thrown.name()))
                    .collect(Collectors.joining(", ")));
        }
        return text.toString();
    }

    private static String at(String file, long line) {
        return line > 0 ? " (" + file + ":" + line + ")" : " (" + file + ")";
    }

    /** A class and a record are one kind here: code that creates and calls one compiles against the other. */
    private static ElementKind kind(ElementKind kind) {
        return kind == ElementKind.RECORD ? ElementKind.CLASS : kind;
    }

    private static String kindWords(ElementKind kind) {
        return switch (kind) {
            case INTERFACE -> "an interface";
            case ENUM -> "an enum";
            case RECORD -> "a record";
            case ANNOTATION_TYPE -> "an annotation";
            default -> "a class";
        };
    }
}
