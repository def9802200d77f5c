package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The study runs on whatever implementation is on the class path, and says plainly when it is wrong or missing. */
@Tag("etcd")
@Timeout(120)
class OtherImplementationsTests {

    /** A FencedSink that forgets the comparison: it stores every write and its token. */
    private static final String ACCEPTS_EVERYTHING = String.join("\n",
            "package fencing.sink;",
            "import java.sql.Connection;",
            "import java.sql.PreparedStatement;",
            "import java.sql.ResultSet;",
            "import java.sql.SQLException;",
            "public final class FencedSink implements Sink {",
            "    private final ConnectionSource db;",
            "    public FencedSink(ConnectionSource db) { this.db = db; }",
            "    public WriteResult write(long token, String value) {",
            "        try (Connection c = db.open(); PreparedStatement u = c.prepareStatement(",
            "                \"UPDATE sink_state SET value = ?, high_water_mark = ? WHERE id = 1\")) {",
            "            u.setString(1, value); u.setLong(2, token); u.executeUpdate();",
            "            return new WriteResult(true, token, value);",
            "        } catch (SQLException e) { throw new SinkException(\"write failed\", e); }",
            "    }",
            "    public SinkState read() {",
            "        try (Connection c = db.open(); ResultSet r = c.createStatement().executeQuery(",
            "                \"SELECT value, high_water_mark FROM sink_state WHERE id = 1\")) {",
            "            r.next(); return new SinkState(r.getString(1), r.getLong(2));",
            "        } catch (SQLException e) { throw new SinkException(\"read failed\", e); }",
            "    }",
            "}",
            "");

    @Test
    @DisplayName("On a FencedSink that accepts every token, the study exits 1 and names what differed")
    void exitsWithOneNamingTheDifferenceWhenTheFencedSinkAcceptsEverything(@TempDir Path dir) throws Exception {
        Path classes = compile(dir, ACCEPTS_EVERYTHING);
        String classPath = classes + File.pathSeparator + System.getProperty("java.class.path");

        StudyRun run = StudyRun.of(dir.resolve("out"), "--child-class-path", classPath);
        long aToken = run.repeat().lock().a().token();

        assertThat(run.exitCode).as("a repeat that does not end as expected makes the study exit 1; it said:%n%s%s", run.out, run.err)
                .isEqualTo(LabSettings.EXIT_DIFFERED);
        assertThat(run.out).as("the study names what differed")
                .contains("fenced: A's late write with token " + aToken + " was accepted, expected rejected")
                .contains("fenced: ended at A-late, expected B-current");
        assertThat(run.repeat().judgement().pass()).as("the evidence records the repeat as failed").isFalse();
    }

    @Test
    @DisplayName("On the untouched stubs, the study exits 3 and says what is not implemented yet")
    void saysWhatIsNotImplementedYetWhenRunOnTheStubs(@TempDir Path dir) {
        List<String> entries = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> withoutSolutions = entries.stream()
                .filter(entry -> !entry.contains("fencing-solutions") && !entry.replace('\\', '/').contains("/solutions/target/"))
                .collect(Collectors.toList());
        assertThat(withoutSolutions).as("the test class path has the solutions on it, to leave out").hasSizeLessThan(entries.size());

        StudyRun run = StudyRun.of(dir.resolve("out"), "--child-class-path", String.join(File.pathSeparator, withoutSolutions));

        assertThat(run.exitCode).as("a study that cannot run exits 3; it said:%n%s%s", run.out, run.err).isEqualTo(LabSettings.EXIT_COULD_NOT_RUN);
        assertThat(run.err).as("the study says which method a student has yet to write").contains("Not implemented yet: EtcdLockService.tryAcquire");
    }

    private static Path compile(Path dir, String source) throws Exception {
        Path sources = Files.createDirectories(dir.resolve("src/fencing/sink"));
        Path file = Files.writeString(sources.resolve("FencedSink.java"), source);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("the tests run on a JDK, which has a compiler").isNotNull();
        int result = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"), file.toString());
        assertThat(result).as("the wrong FencedSink compiles against the contract").isZero();
        try (Stream<Path> compiled = Files.walk(classes)) {
            assertThat(compiled.anyMatch(p -> p.endsWith("FencedSink.class"))).as("javac wrote FencedSink.class").isTrue();
        }
        return classes;
    }
}
