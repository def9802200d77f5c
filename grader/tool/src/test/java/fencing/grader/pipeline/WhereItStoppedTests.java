package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Where a test stopped for its limits was is read from a HotSpot thread dump, and the dump stays out of the output the
 * report shows. (A grade of the catalog's endless loop and deadlock, in {@code StarvationTests}, sends a real one.)
 */
class WhereItStoppedTests {

    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final Limits LIMITS = new Limits(Duration.ofSeconds(3), Duration.ofSeconds(7), Duration.ofSeconds(60));

    /** The shape of a JDK 17 dump, shortened: a student's loop under a hidden test, and a thread of the JVM's. */
    private static final String LOOP_DUMP = String.join("\n",
            "2026-12-06 02:44:03",
            "Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):",
            "",
            "\"Reference Handler\" #2 daemon prio=10 os_prio=0 cpu=0.1ms elapsed=2.0s tid=0x1 nid=0x2 waiting on condition",
            "   java.lang.Thread.State: RUNNABLE",
            "\tat java.lang.ref.Reference.waitForReferencePendingList(java.base@17.0.15/Native Method)",
            "",
            "\"tests \" #14 prio=5 os_prio=0 cpu=2001.3ms elapsed=2.0s tid=0x3 nid=0x4 runnable  [0x5]",
            "   java.lang.Thread.State: RUNNABLE",
            "\tat fencing.basics.Quorum.size(Quorum.java:13)",
            "\tat fencing.basics.QuorumGradedTests.oddSizes(QuorumGradedTests.java:40)",
            "\tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(java.base@17.0.15/Native Method)",
            "",
            "JNI global refs: 4, weak refs: 0",
            "",
            "Heap",
            " garbage-first heap   total 397312K, used 4347K",
            "");

    /** Two threads of the student's, each holding the lock the other waits for. */
    private static final String DEADLOCK_DUMP = String.join("\n",
            "Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):",
            "",
            "\"tests \" #14 prio=5 os_prio=0 cpu=80.0ms elapsed=7.0s tid=0x3 nid=0x4 waiting for monitor entry  [0x5]",
            "   java.lang.Thread.State: BLOCKED (on object monitor)",
            "\tat fencing.basics.Quorum.size(Quorum.java:27)",
            "\t- waiting to lock <0x1> (a java.lang.Object)",
            "\tat fencing.basics.QuorumGradedTests.oddSizes(QuorumGradedTests.java:40)",
            "",
            "\"Thread-3\" #21 prio=5 os_prio=0 cpu=0.2ms elapsed=7.0s tid=0x6 nid=0x7 waiting for monitor entry  [0x8]",
            "   java.lang.Thread.State: BLOCKED (on object monitor)",
            "\tat fencing.basics.Quorum.lambda$size$0(Quorum.java:18)",
            "\tat fencing.basics.Quorum$$Lambda$120/0x0000000800c0b6a8.run(Unknown Source)",
            "\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)",
            "",
            "JNI global refs: 4, weak refs: 0",
            "");

    @Test
    @DisplayName("an endless loop is placed at the top frame of a student's class on a running thread, not at the hidden test")
    void anEndlessLoopIsPlacedInTheStudentsClass() {
        assertThat(WhereItStopped.place(LOOP_DUMP, JvmWatch.Kind.OVER_BUDGET)).as("the place of a dump whose test thread spins in Quorum.size")
                .contains("Quorum.size (Quorum.java:13)");
    }

    @Test
    @DisplayName("a deadlock is placed where each of the student's waiting threads waits, a lambda's under its method")
    void aDeadlockIsPlacedWhereItsThreadsWait() {
        assertThat(WhereItStopped.place(DEADLOCK_DUMP, JvmWatch.Kind.BACKSTOP)).as("the place of a dump of two blocked threads in Quorum")
                .contains("Quorum.size (Quorum.java:27) and Quorum.size, in a lambda (Quorum.java:18)");
    }

    @Test
    @DisplayName("a dump with no frame of a student-owned class places nothing, and the message keeps its old words")
    void aDumpWithoutTheStudentsCodePlacesNothing() {
        String jvmOnly = LOOP_DUMP.replace("\tat fencing.basics.Quorum.size(Quorum.java:13)\n", "");
        Optional<String> place = WhereItStopped.place(jvmOnly, JvmWatch.Kind.OVER_BUDGET);
        JvmWatch.Ending ending = new JvmWatch.Ending(JvmWatch.Kind.OVER_BUDGET, "test", true, Duration.ofSeconds(3), null,
                Duration.ofSeconds(4));

        assertThat(place).as("the place of a dump whose only fencing frame is a hidden test's").isEmpty();
        assertThat(WhereItStopped.overBudget(LIMITS.test(), ending, place)).as("the message of a test over its budget, placed nowhere")
                .isEqualTo("used more than its budget of 3 CPU-seconds without finishing (an endless loop?): its JVM was stopped after 4 s");
    }

    @Test
    @DisplayName("a placed message says where first, with the CPU budget the limits give")
    void aPlacedMessageSaysWhereFirst() {
        JvmWatch.Ending ending = new JvmWatch.Ending(JvmWatch.Kind.OVER_BUDGET, "test", true, Duration.ofSeconds(3), null,
                Duration.ofSeconds(4));

        assertThat(WhereItStopped.overBudget(LIMITS.test(), ending, Optional.of("Quorum.size (Quorum.java:13)")))
                .as("the message of a test over a budget of 3 CPU-seconds, placed in Quorum.size")
                .startsWith("stopped after 3 CPU-seconds in Quorum.size (Quorum.java:13): an endless loop?");
    }

    @Test
    @DisplayName("the output the report shows keeps what was printed before a thread dump and leaves the dump out")
    void theDumpStaysOutOfTheOutput() throws Exception {
        PipedOutputStream jvm = new PipedOutputStream();
        OutputTail tail = new OutputTail(new PipedInputStream(jvm, 1 << 16), "test output");
        jvm.write("the student's last line\n".getBytes(StandardCharsets.UTF_8));

        Optional<String> dump = tail.awaitThreadDump(LIMIT, () -> write(jvm, LOOP_DUMP));
        jvm.close();
        tail.awaitEnd();

        assertThat(dump).as("the dump read after a line of the student's").hasValueSatisfying(text -> assertThat(text)
                .startsWith("Full thread dump").contains("Quorum.size"));
        assertThat(tail.text()).as("the output kept of a line of the student's and a dump").isEqualTo("the student's last line\n");
    }

    private static void write(PipedOutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
