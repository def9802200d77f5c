package fencing.grader.pipeline;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * What code outside a class can see of it, as plain values: read from the compiler's model of a class, whether from a
 * class file (the kit's stub) or a source file (the student's), so that two can be compared ({@link Contract}) without
 * either compiler.
 *
 * @param name           its canonical name
 * @param kind           class, interface, enum, record or annotation
 * @param access         how far it can be seen
 * @param modifiers      which of {@code abstract}, {@code final} and {@code static} it has
 * @param supertypes     the supertypes it declares, without {@code java.lang.Object}
 * @param allSupertypes  the qualified names of every type it extends or implements
 * @param typeParameters how many type parameters it takes
 * @param members        its methods, constructors and fields, private ones included
 * @param nested         its nested classes
 * @param line           its line in its source file; 0 when read from a class file
 */
record ClassShape(String name, ElementKind kind, Access access, Set<Modifier> modifiers, List<Supertype> supertypes,
                  Set<String> allSupertypes, int typeParameters, List<Member> members, List<ClassShape> nested, long line) {

    /** How far a declaration can be seen, narrowest first. */
    enum Access {
        PRIVATE("private"), PACKAGE("package-private"), PROTECTED("protected"), PUBLIC("public");

        private final String words;

        Access(String words) {
            this.words = words;
        }

        /** Returns the access as a declaration says it, or {@code package-private}. */
        String words() {
            return words;
        }

        /** Returns how far {@code element} can be seen, as its modifiers say. */
        static Access of(Element element) {
            Set<Modifier> modifiers = element.getModifiers();
            return modifiers.contains(Modifier.PUBLIC) ? PUBLIC : modifiers.contains(Modifier.PROTECTED) ? PROTECTED
                    : modifiers.contains(Modifier.PRIVATE) ? PRIVATE : PACKAGE;
        }
    }

    /**
     * A type a method declares it throws.
     *
     * @param name       its qualified name
     * @param supertypes the qualified names of every type it extends
     */
    record Thrown(String name, Set<String> supertypes) {

        /** Whether it is {@code type} or extends it. */
        boolean is(String type) {
            return name.equals(type) || supertypes.contains(type);
        }

        /** Whether a caller must catch or declare it. */
        boolean checked() {
            return !is(RuntimeException.class.getName()) && !is(Error.class.getName());
        }
    }

    /**
     * A method, constructor or field.
     *
     * @param kind       {@code METHOD}, {@code CONSTRUCTOR}, {@code FIELD} or {@code ENUM_CONSTANT}
     * @param name       its simple name ({@code <init>} for a constructor)
     * @param erasure    its parameters' erased types, which tell overloads apart
     * @param parameters its parameters' types as declared
     * @param type       a method's return type, a field's type
     * @param access     how far it can be seen
     * @param modifiers  which of {@code static} and {@code final} it has
     * @param thrown     the types it declares it throws
     * @param line       its line in its source file; 0 when read from a class file
     */
    record Member(ElementKind kind, String name, List<String> erasure, List<String> parameters, String type, Access access,
                  Set<Modifier> modifiers, List<Thrown> thrown, long line) {

        /** Whether it belongs to the class rather than to an instance. */
        boolean isStatic() {
            return modifiers.contains(Modifier.STATIC);
        }

        /** Whether it is a field or an enum's constant. */
        boolean isField() {
            return kind == ElementKind.FIELD || kind == ElementKind.ENUM_CONSTANT;
        }

        /** Whether {@code other} is the same declaration as far as callers can tell one from another. */
        boolean sameSlot(Member other) {
            return isField() == other.isField() && (kind == ElementKind.CONSTRUCTOR) == (other.kind == ElementKind.CONSTRUCTOR)
                    && name.equals(other.name) && (isField() || erasure.equals(other.erasure));
        }
    }

    /**
     * A supertype a class declares.
     *
     * @param name        its qualified name, erased
     * @param isInterface whether the class implements it, rather than extends it
     */
    record Supertype(String name, boolean isInterface) {
    }

    private static final Set<Modifier> TYPE_MODIFIERS = Set.of(Modifier.ABSTRACT, Modifier.FINAL, Modifier.STATIC);
    private static final Set<Modifier> MEMBER_MODIFIERS = Set.of(Modifier.STATIC, Modifier.FINAL);
    /** A type annotation as the compiler writes a type: {@code @org.jspecify.annotations.Nullable}, with any arguments. */
    private static final Pattern TYPE_ANNOTATION = Pattern.compile("@[\\w.$]+(?:\\([^)]*\\))?\\s*");

    /** Returns what code outside {@code type} can see of it, each declaration's line given by {@code line}. */
    static ClassShape of(TypeElement type, Types types, ToLongFunction<Element> line) {
        List<Member> members = new ArrayList<>();
        List<ClassShape> nested = new ArrayList<>();
        for (Element element : type.getEnclosedElements()) {
            if (element instanceof TypeElement inner) {
                nested.add(of(inner, types, line));
            } else if (element instanceof ExecutableElement executable) {
                members.add(new Member(executable.getKind(), executable.getSimpleName().toString(),
                        executable.getParameters().stream().map(p -> name(types.erasure(p.asType()))).toList(),
                        executable.getParameters().stream().map(p -> name(p.asType())).toList(),
                        name(executable.getReturnType()), Access.of(executable), kept(executable, MEMBER_MODIFIERS),
                        executable.getThrownTypes().stream().map(thrown -> new Thrown(name(types.erasure(thrown)),
                                supertypes(thrown, types))).toList(), line.applyAsLong(executable)));
            } else if (element instanceof VariableElement field) {
                members.add(new Member(field.getKind(), field.getSimpleName().toString(), List.of(), List.of(),
                        name(field.asType()), Access.of(field), kept(field, MEMBER_MODIFIERS), List.of(),
                        line.applyAsLong(field)));
            }
        }
        List<Supertype> declared = new ArrayList<>();
        if (type.getSuperclass().getKind() == TypeKind.DECLARED
                && !name(types.erasure(type.getSuperclass())).equals(Object.class.getName())) {
            declared.add(new Supertype(name(types.erasure(type.getSuperclass())), false));
        }
        type.getInterfaces().forEach(face -> declared.add(new Supertype(name(types.erasure(face)), true)));
        return new ClassShape(type.getQualifiedName().toString(), type.getKind(), Access.of(type), kept(type, TYPE_MODIFIERS),
                declared, supertypes(type.asType(), types), type.getTypeParameters().size(), members, nested,
                line.applyAsLong(type));
    }

    /**
     * Returns how {@code type} is written, with its qualified names and without type annotations: an annotation such as
     * {@code @Nullable} on a parameter changes nothing a caller compiles against.
     */
    private static String name(TypeMirror type) {
        return TYPE_ANNOTATION.matcher(type.toString()).replaceAll("");
    }

    /** Returns {@code text} with every qualified name written as its simple name, as a student reads a signature. */
    static String simple(String text) {
        return text.replaceAll("\\b(?:[a-z_$][\\w$]*\\.)+(?=[A-Z_$])", "");
    }

    private static Set<Modifier> kept(Element element, Set<Modifier> which) {
        return element.getModifiers().stream().filter(which::contains).collect(Collectors.toUnmodifiableSet());
    }

    /** Returns the erased qualified names of every type {@code type} extends or implements, however far up. */
    private static Set<String> supertypes(TypeMirror type, Types types) {
        Set<String> names = new LinkedHashSet<>();
        Deque<TypeMirror> left = new ArrayDeque<>(types.directSupertypes(type));
        while (!left.isEmpty()) {
            TypeMirror next = left.pop();
            if (names.add(name(types.erasure(next)))) {
                left.addAll(types.directSupertypes(next));
            }
        }
        return Set.copyOf(names);
    }
}
