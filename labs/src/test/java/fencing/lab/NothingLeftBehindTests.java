package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.ChildJvm;
import fencing.support.Etcd;
import fencing.support.ProcessLiveness;
import fencing.support.Supervised;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Whatever the study starts stops with it, even when the study itself is killed with SIGKILL while A is frozen. */
@Tag("etcd")
@Timeout(120)
class NothingLeftBehindTests {

    @Test
    @DisplayName("Killing the study with SIGKILL while A is frozen ends A, the sink server and the study's etcd")
    void killingTheStudyWhileAIsFrozenLeavesNoProcessBehind(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("study.log");
        List<String> command = new ArrayList<>();
        Etcd etcd = Etcd.shared();
        boolean ownEtcd = etcd.origin().startsWith("etcd binary");
        if (!ownEtcd) {
            // An existing cluster or a container: killing the study could not clean up a container it started, so share ours.
            command.addAll(List.of("env", "ETCD_ENDPOINTS=" + etcd.endpoints()));
        }
        command.addAll(ChildJvm.of(Study.class).args("--out", dir.resolve("out").toString(), "--repeats", "2").command());
        List<Long> family = new ArrayList<>();
        long frozenA;
        try (Supervised study = Supervised.start("study", command, log.toFile())) {
            frozenA = awaitFrozenA(log, study);
            // The supervisor's shell is this JVM's child; the study's JVM is the shell's java child (env execs it).
            ProcessHandle runner = ProcessHandle.current().descendants()
                    .filter(p -> p.info().command().orElse("").endsWith("java"))
                    .filter(p -> p.parent().flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L) == ProcessHandle.current().pid())
                    .findFirst().orElseThrow(() -> new AssertionError("the study's JVM is not among this JVM's descendants"));
            family.add(runner.pid());
            runner.descendants().forEach(p -> family.add(p.pid()));
            assertThat(family).as("A (pid %d) is one of the study's processes", frozenA).contains(frozenA);
            assertThat(ProcessLiveness.state(frozenA)).as("A is frozen (state T) when the study is killed").isIn('T', '?');
            if (ownEtcd) {
                assertThat(family.stream().map(pid -> ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElse("")))
                        .as("the study started an etcd of its own, which must stop with it too").anyMatch(line -> line.endsWith("etcd"));
            }

            runner.destroyForcibly();
            List<Long> left = Processes.awaitGone(family, Duration.ofSeconds(10));

            assertThat(left).as("no process the study started may outlive it; still running: %s",
                    left.stream().map(Processes::describe).toList()).isEmpty();
        }
    }

    private static long awaitFrozenA(Path log, Supervised study) throws Exception {
        Pattern pid = Pattern.compile("A \\(pid (\\d+)\\) took the lock");
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            String said = Files.exists(log) ? Files.readString(log) : "";
            Matcher found = pid.matcher(said);
            if (said.contains("A frozen with SIGSTOP") && found.find()) {
                return Long.parseLong(found.group(1));
            }
            assertThat(study.isAlive()).as("the study must still be running; it said:%n%s", said).isTrue();
            Thread.sleep(20);
        }
        throw new AssertionError("the study did not freeze A within 90 s; it said:\n" + Files.readString(log));
    }
}
