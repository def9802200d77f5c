package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The partition case, run for real: A, never frozen, is cut off from etcd but not from the sink, and writes when its work is done. */
@Tag("etcd")
@Timeout(120)
class PartitionStudyTests {

    @Test
    @DisplayName("partition: A cut off from etcd runs on, its lease expires, B writes, and A's write is accepted by plain and rejected by fenced")
    void aHolderCutOffFromEtcdWritesLateAndFencingRejectsIt(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir, "--case", "partition");
        Evidence.Repeat repeat = run.repeat();

        assertThat(run.exitCode).as("the partition repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(repeat.trace().events()).as("A is never frozen nor resumed in this case")
                .noneMatch(e -> e.kind() == EventKind.FROZEN || e.kind() == EventKind.RESUMED);
        Evidence.Event cut = repeat.trace().events().stream().filter(e -> e.kind() == EventKind.CUT_OFF).findFirst().orElseThrow();
        Evidence.Event deleted = repeat.trace().events().stream().filter(e -> e.kind() == EventKind.KEY_DELETED).findFirst().orElseThrow();
        assertThat(cut.lane()).as("the cut is A's").isEqualTo(Evidence.Lane.A);
        assertThat(deleted.tMillis()).as("etcd deleted A's key after the cut, a TTL after the last keepalive it heard")
                .isGreaterThan(cut.tMillis());
        assertThat(repeat.trace().events()).as("no keepalive of A's was answered after the cut")
                .noneMatch(e -> e.kind() == EventKind.KEEPALIVE && e.tMillis() > cut.tMillis());
        assertThat(run.write("A", "fenced").sentAtMicros()).as("A wrote after B's write was answered")
                .isGreaterThan(run.write("B", "fenced").receivedAtMicros());
        assertThat(run.write("A", "plain").verdict()).as("the plain sink accepts the cut-off holder's write").isEqualTo("accepted");
        assertThat(run.write("A", "fenced").verdict()).as("the fenced sink rejects it: B's token is larger").isEqualTo("rejected");
        assertThat(run.write("A", "current-owner").verdict()).as("etcd, reached on the sink's own path, says B holds the lock")
                .isEqualTo("rejected");
        assertThat(repeat.modes().get("plain").finalValue()).as("the plain sink stores A's late write over B's").isEqualTo("A-late");
        assertThat(run.file("repeat-01/worker-A.log")).as("A's log says what A believed as it wrote")
                .contains("believes it holds the lock with token " + repeat.lock().a().token());
        assertThat(run.file("report.html")).as("report.html draws the cut on A's lane").contains("A cut off from etcd, its path to the sink open");
        assertThat(run.out).as("the console names the cut").contains("A cut off from etcd");
    }
}
