package fencing.grader.classpage;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Disguises a Java source the way a student hiding a copy would: every method of a top-level class moved (their order
 * reversed), and every local variable, parameter and private field or method renamed; what the code does is unchanged.
 */
final class RenamedCopy {

    /** Identifiers, and the text a rename must leave alone: string and character literals, comments. */
    private static final Pattern LEXEME = Pattern.compile(
            "\"\"\"(?s:.*?)\"\"\"|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|//[^\\n]*|/\\*(?s:.*?)\\*/|(?<![\\w$])[A-Za-z_$][\\w$]*");

    private RenamedCopy() {
    }

    /** Returns {@code source} with its methods reordered and its own names renamed. */
    static String of(String source) {
        return renamed(reordered(source));
    }

    private static CompilationUnitTree parse(String source, JavacTask[] task) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        SimpleJavaFileObject file = new SimpleJavaFileObject(URI.create("string:///Source.java"), SimpleJavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        task[0] = (JavacTask) javac.getTask(null, null, null, List.of("-proc:none"), null, List.of(file));
        try {
            return task[0].parse().iterator().next();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reverses the order of the methods of each top-level class, each moved whole with its annotations. */
    private static String reordered(String source) {
        JavacTask[] task = new JavacTask[1];
        CompilationUnitTree unit = parse(source, task);
        SourcePositions positions = Trees.instance(task[0]).getSourcePositions();
        StringBuilder out = new StringBuilder(source);
        for (Tree type : unit.getTypeDecls()) {
            if (!(type instanceof ClassTree owner)) {
                continue;
            }
            List<long[]> spans = new ArrayList<>();
            for (Tree member : owner.getMembers()) {
                if (member instanceof MethodTree method && positions.getStartPosition(unit, method) >= 0
                        && !method.getName().contentEquals("<init>")) {
                    spans.add(new long[] {positions.getStartPosition(unit, method), positions.getEndPosition(unit, method)});
                }
            }
            // From the last span to the first, so that the earlier offsets still hold.
            for (int i = spans.size() - 1; i >= 0; i--) {
                long[] slot = spans.get(i);
                long[] moved = spans.get(spans.size() - 1 - i);
                out.replace((int) slot[0], (int) slot[1], source.substring((int) moved[0], (int) moved[1]));
            }
        }
        return out.toString();
    }

    /** Renames locals, parameters and private members, leaving alone every name another class could see or use. */
    private static String renamed(String source) {
        JavacTask[] task = new JavacTask[1];
        CompilationUnitTree unit = parse(source, task);
        Set<String> own = new HashSet<>();
        Set<String> visible = new HashSet<>();
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitVariable(VariableTree variable, Void unused) {
                boolean member = getCurrentPath().getParentPath().getLeaf() instanceof ClassTree;
                boolean hidden = !member || variable.getModifiers().getFlags().contains(Modifier.PRIVATE);
                (hidden ? own : visible).add(variable.getName().toString());
                return super.visitVariable(variable, unused);
            }

            @Override
            public Void visitMethod(MethodTree method, Void unused) {
                boolean hidden = method.getModifiers().getFlags().contains(Modifier.PRIVATE);
                (hidden ? own : visible).add(method.getName().toString());
                return super.visitMethod(method, unused);
            }

            @Override
            public Void visitClass(ClassTree type, Void unused) {
                visible.add(type.getSimpleName().toString());
                return super.visitClass(type, unused);
            }
        }.scan(unit, null);
        own.removeAll(visible);
        Map<String, String> names = new LinkedHashMap<>();
        own.forEach(name -> names.put(name, "the" + Character.toUpperCase(name.charAt(0)) + name.substring(1) + "X"));
        Matcher lexeme = LEXEME.matcher(source);
        StringBuilder out = new StringBuilder();
        int previousEnd = 0;
        String previous = "";
        while (lexeme.find()) {
            String text = lexeme.group();
            String between = source.substring(previousEnd, lexeme.start()).strip();
            // A name after a dot or :: is another object's member, unless it is this object's own.
            boolean selected = between.endsWith(".") && !previous.equals("this") || between.endsWith("::");
            lexeme.appendReplacement(out, Matcher.quoteReplacement(names.containsKey(text) && !selected ? names.get(text) : text));
            previousEnd = lexeme.end();
            previous = text;
        }
        lexeme.appendTail(out);
        return out.toString();
    }
}
