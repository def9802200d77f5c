package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticStateTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("constants of value types, enum constants and instance fields are no state the groups could share")
    void constantsAreNoState() throws IOException {
        Path classes = compile("fencing.basics.Quorum", """
                package fencing.basics;
                public final class Quorum {
                    public static final long TIMEOUT_SECONDS = 5;
                    private static final String NAME = "quorum";
                    private static final java.time.Duration TTL = java.time.Duration.ofSeconds(1);
                    private long instanceCounter;
                    enum Verdict { ACCEPTED, REJECTED }
                    public static int size(int members) { assert members > 0; return members / 2 + 1; }
                }
                """);

        assertThat(StaticState.find(classes, List.of("fencing.basics.Quorum", "fencing.basics.Quorum$Verdict"), loader()))
                .as("static state of a class with only constants, an enum and an instance field").isEmpty();
    }

    @Test
    @DisplayName("a static counter, a static final mutable object and a static field of a nested class are state")
    void mutableStaticFieldsAreState() throws IOException {
        Path classes = compile("fencing.basics.Quorum", """
                package fencing.basics;
                public final class Quorum {
                    static final class Counter { static long next; }
                    private static final java.util.List<String> SEEN = new java.util.ArrayList<>();
                    public static int size(int members) { return members / 2 + 1; }
                }
                """);

        assertThat(StaticState.find(classes, List.of("fencing.basics.Quorum$Counter"), loader()))
                .as("static state of a nested class with a static long").contains("fencing.basics.Quorum$Counter.next");
        assertThat(StaticState.find(classes, List.of("fencing.basics.Quorum"), loader()))
                .as("static state of a class with a static final ArrayList").contains("fencing.basics.Quorum.SEEN");
    }

    @Test
    @DisplayName("the submission's class is read, not the kit's stub of the same name that comes first on the class path")
    void theSubmissionsClassIsRead() throws IOException {
        Path classes = compile("fencing.basics.LockService", """
                package fencing.basics;
                public final class LockService {
                    private static long last;
                }
                """);

        assertThat(StaticState.find(classes, List.of("fencing.basics.LockService"), loader()))
                .as("static state of a LockService with a static counter, over the kit's stub").contains("fencing.basics.LockService.last");
    }

    private Path compile(String className, String source) throws IOException {
        Path sources = dir.resolve("src");
        Path file = sources.resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-d", classes.toString(), file.toString());
        assertThat(status).as("javac on %s", className).isZero();
        return classes;
    }

    private static ClassLoader loader() {
        return StaticStateTests.class.getClassLoader();
    }
}
