package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.ProcessLiveness;
import fencing.support.evidence.Evidence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default case, run once for real: worker A frozen with SIGSTOP until etcd expires its lease, B's write, A's late write.
 *
 * <p>The tests share that one run and check its outcome, its evidence and its reports; {@link ReportPageTests} checks
 * the page in a browser.
 */
@Tag("etcd")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class LateWriteStudyTests {

    private StudyRun run;

    @BeforeAll
    void runTheDefaultCaseOnce(@TempDir Path dir) {
        run = StudyRun.of(dir);
    }

    @Test
    @DisplayName("The plain sink ends at A-late; the fenced sink rejects A and stays at B-current")
    void plainSinkTakesTheLateWriteAndFencedSinkRejectsIt() {
        Map<String, Evidence.ModeOutcome> modes = run.repeat().modes();
        long aToken = run.repeat().lock().a().token();
        long bToken = run.repeat().lock().b().token();

        assertThat(run.exitCode).as("the study exits 0 when the repeat ends as expected; it said:%n%s%s", run.out, run.err).isZero();
        assertThat(run.write("A", "fenced").verdict())
                .as("a write with token %d after token %d must be rejected: the resource has seen a newer owner", aToken, bToken)
                .isEqualTo("rejected");
        assertThat(modes.get("fenced").finalValue()).as("the fenced sink keeps B's write after A's late one").isEqualTo("B-current");
        assertThat(modes.get("fenced").finalHighWaterMark()).as("the fenced sink's mark is B's token %d", bToken).isEqualTo(bToken);
        assertThat(run.write("A", "plain").verdict())
                .as("the plain sink never consults a token, so it takes A's late write with token %d", aToken).isEqualTo("accepted");
        assertThat(modes.get("plain").finalValue()).as("the plain sink ends at A's late value: B's write is lost").isEqualTo("A-late");
        assertThat(run.write("A", "current-owner").verdict())
                .as("the current-owner sink asks etcd, which says B holds the lock, so it rejects A's token %d", aToken).isEqualTo("rejected");
        assertThat(modes.get("current-owner").finalValue()).as("the current-owner sink keeps B's write").isEqualTo("B-current");
        assertThat(run.repeat().judgement().pass()).as("the evidence records the repeat as passed").isTrue();
    }

    @Test
    @DisplayName("B's token is larger than A's, and neither is a lease ID")
    void bsTokenIsLargerThanAsAndNeitherIsALeaseId() {
        Evidence.Holder a = run.repeat().lock().a();
        Evidence.Holder b = run.repeat().lock().b();

        assertThat(b.token()).as("a later owner gets a larger token: A %d, B %d", a.token(), b.token())
                .isGreaterThan(a.token());
        assertThat(a.token()).as("A's token is the key's create_revision, not its lease ID %s", a.leaseIdHex())
                .isNotEqualTo(a.leaseId());
        assertThat(b.leaseId()).as("B was granted a lease of its own").isNotEqualTo(a.leaseId());
    }

    @Test
    @DisplayName("The lease expired because A was frozen: the key was seen gone only after SIGSTOP, about a TTL later")
    void observesTheKeyGoneAfterTheFreeze() {
        Evidence.Expiry expiry = run.repeat().lock().expiry();
        double wait = expiry.waitAfterStopMillis();
        double sinceLastKeepAlive = (expiry.observedAtMicros() - expiry.lastKeepAliveMicros()) / 1000.0;

        // A's clock reads a keepalive's answer a little after etcd renewed the lease, hence the margin below the TTL.
        assertThat(sinceLastKeepAlive)
                .as("etcd deletes the key about a TTL (2000 ms) after A's last keepalive, not before; seen after %.0f ms", sinceLastKeepAlive)
                .isGreaterThan(1750);
        assertThat(wait).as("the key was still there when A was frozen; seen gone %.0f ms after SIGSTOP", wait).isPositive();
        assertThat(expiry.observedBy()).as("the deletion is observed by the watch or, failing it, by polling").isIn("watch", "poll");
    }

    @Test
    @DisplayName("evidence.json has every request and response with timestamps, the final states and both figures")
    void evidenceHasTheExchangesFinalStatesAndFigures() {
        Evidence.Repeat repeat = run.repeat();
        List<String> calls = new ArrayList<>();
        for (Evidence.Call call : repeat.trace().exchanges()) {
            calls.add(call.from() + " " + call.method() + " " + call.path());
            assertThat(call.receivedAtMicros()).as("each exchange has its times: %s", call).isGreaterThanOrEqualTo(call.sentAtMicros());
            assertThat(call.response()).as("each exchange has its response: %s", call).isNotNull();
        }

        assertThat(calls).as("the evidence holds A's reads, B's writes, A's late writes and the final reads")
                .contains("A GET /sinks/plain", "A GET /sinks/fenced", "B POST /sinks/plain/write", "B POST /sinks/fenced/write",
                        "A POST /sinks/plain/write", "A POST /sinks/fenced/write", "runner GET /sinks/plain", "runner GET /sinks/fenced");
        for (String mode : List.of("plain", "fenced")) {
            assertThat(run.write("A", mode).sentAtMicros())
                    .as("A's late write to %s was sent after both of B's writes were answered", mode)
                    .isGreaterThan(run.write("B", "plain").receivedAtMicros())
                    .isGreaterThan(run.write("B", "fenced").receivedAtMicros());
        }
        assertThat(repeat.lock().ttlSeconds()).as("the lease's TTL").isEqualTo(2);
        assertThat(repeat.figures().stopToFencedVerdictMinusTtlMillis()).as("figure (a) is recorded").isNotNull();
        // Figure (b) is a primitive in the record, so a file without it would read as 0: a repeat, which waits out the TTL, is longer.
        assertThat(repeat.figures().repeatMinusTtlMillis()).as("figure (b) is recorded").isPositive();
        assertThat(run.evidence().summary().passed()).as("the summary counts the passed repeat").isEqualTo(1);
    }

    @Test
    @DisplayName("After the study, nothing it started is left running (the tests' shared etcd aside)")
    void leavesNoProcessBehindAfterARun() throws InterruptedException {
        List<ProcessHandle> running = ProcessHandle.current().descendants().filter(p -> ProcessLiveness.running(p)).toList();
        List<Long> etcd = running.stream().filter(p -> p.info().command().orElse("").endsWith("etcd")).map(ProcessHandle::pid).toList();
        // The shared etcd runs under a supervising shell, which sleeps in short steps: those belong to etcd, not to the study.
        List<Long> etcdSupervisors = running.stream().filter(p -> p.children().anyMatch(c -> etcd.contains(c.pid()))).map(ProcessHandle::pid).toList();
        List<Long> others = running.stream().map(ProcessHandle::pid)
                .filter(pid -> !etcd.contains(pid) && !etcdSupervisors.contains(pid))
                .filter(pid -> ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(parent -> !etcdSupervisors.contains(parent.pid())).orElse(true))
                .toList();

        assertThat(Processes.awaitGone(others, Duration.ofSeconds(5)))
                .as("the study's workers and sink servers must be gone once it returns")
                .isEmpty();
    }

    @Test
    void printsTheCountdownTheObservedExpiryAndATable() {
        assertThat(run.out).as("the study prints progress while it waits, and a table").contains("lease countdown")
                .contains("key gone").contains("A's late write").contains("fenced").contains("(a) SIGSTOP");
    }

    @Test
    void reportMarkdownHasTheVerdictsAndTokens() {
        String report = run.file("report.md");
        long aToken = run.repeat().lock().a().token();

        assertThat(report).as("report.md says what happened, with A's real token %d", aToken)
                .contains("The worker that came back").contains("| " + aToken + " |").contains("rejected").contains("(a) SIGSTOP");
    }

    @Test
    void reportHtmlIsSelfContained() {
        String html = run.file("report.html");

        assertThat(html).as("report.html draws its timeline inline and loads nothing from elsewhere")
                .contains("<svg").doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("<link");
    }
}
