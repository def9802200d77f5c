package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import fencing.support.ProcessLiveness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        JsonNode modes = run.repeat().get("modes");
        long aToken = run.repeat().get("a").get("token").asLong();
        long bToken = run.repeat().get("b").get("token").asLong();

        assertThat(run.exitCode).as("the study exits 0 when the repeat ends as expected; it said:%n%s%s", run.out, run.err).isZero();
        assertThat(run.write("A", "fenced").get("verdict").asText())
                .as("a write with token %d after token %d must be rejected: the resource has seen a newer owner", aToken, bToken)
                .isEqualTo("rejected");
        assertThat(modes.get("fenced").get("finalValue").asText()).as("the fenced sink keeps B's write after A's late one").isEqualTo("B-current");
        assertThat(modes.get("fenced").get("finalHighWaterMark").asLong()).as("the fenced sink's mark is B's token %d", bToken).isEqualTo(bToken);
        assertThat(run.write("A", "plain").get("verdict").asText())
                .as("the plain sink never consults a token, so it takes A's late write with token %d", aToken).isEqualTo("accepted");
        assertThat(modes.get("plain").get("finalValue").asText()).as("the plain sink ends at A's late value: B's write is lost").isEqualTo("A-late");
        assertThat(run.write("A", "current-owner").get("verdict").asText())
                .as("the current-owner sink asks etcd, which says B holds the lock, so it rejects A's token %d", aToken).isEqualTo("rejected");
        assertThat(modes.get("current-owner").get("finalValue").asText()).as("the current-owner sink keeps B's write").isEqualTo("B-current");
        assertThat(run.repeat().get("pass").asBoolean()).as("the evidence records the repeat as passed").isTrue();
    }

    @Test
    @DisplayName("B's token is larger than A's, and neither is a lease ID")
    void bsTokenIsLargerThanAsAndNeitherIsALeaseId() {
        JsonNode a = run.repeat().get("a");
        JsonNode b = run.repeat().get("b");

        assertThat(b.get("token").asLong()).as("a later owner gets a larger token: A %d, B %d", a.get("token").asLong(), b.get("token").asLong())
                .isGreaterThan(a.get("token").asLong());
        assertThat(a.get("token").asLong()).as("A's token is the key's create_revision, not its lease ID %s", a.get("leaseIdHex").asText())
                .isNotEqualTo(a.get("leaseId").asLong());
        assertThat(b.get("leaseId").asLong()).as("B was granted a lease of its own").isNotEqualTo(a.get("leaseId").asLong());
    }

    @Test
    @DisplayName("The lease expired because A was frozen: the key was seen gone only after SIGSTOP, about a TTL later")
    void observesTheKeyGoneAfterTheFreeze() {
        JsonNode expiry = run.repeat().get("expiry");
        double wait = expiry.get("waitAfterStopMillis").asDouble();
        double sinceLastKeepAlive = (expiry.get("observedAtMicros").asLong() - expiry.get("lastKeepAliveMicros").asLong()) / 1000.0;

        // A's clock reads a keepalive's answer a little after etcd renewed the lease, hence the margin below the TTL.
        assertThat(sinceLastKeepAlive)
                .as("etcd deletes the key about a TTL (2000 ms) after A's last keepalive, not before; seen after %.0f ms", sinceLastKeepAlive)
                .isGreaterThan(1750);
        assertThat(wait).as("the key was still there when A was frozen; seen gone %.0f ms after SIGSTOP", wait).isPositive();
        assertThat(expiry.get("observedBy").asText()).as("the deletion is observed by the watch or, failing it, by polling").isIn("watch", "poll");
    }

    @Test
    @DisplayName("evidence.json has every request and response with timestamps, the final states and both figures")
    void evidenceHasTheExchangesFinalStatesAndFigures() {
        JsonNode repeat = run.repeat();
        List<String> calls = new ArrayList<>();
        for (JsonNode call : repeat.get("exchanges")) {
            calls.add(call.get("from").asText() + " " + call.get("method").asText() + " " + call.get("path").asText());
            assertThat(call.get("receivedAtMicros").asLong()).as("each exchange has its times: %s", call).isGreaterThanOrEqualTo(call.get("sentAtMicros").asLong());
            assertThat(call.get("response").isObject()).as("each exchange has its response: %s", call).isTrue();
        }

        assertThat(calls).as("the evidence holds A's reads, B's writes, A's late writes and the final reads")
                .contains("A GET /sinks/plain", "A GET /sinks/fenced", "B POST /sinks/plain/write", "B POST /sinks/fenced/write",
                        "A POST /sinks/plain/write", "A POST /sinks/fenced/write", "runner GET /sinks/plain", "runner GET /sinks/fenced");
        for (String mode : List.of("plain", "fenced")) {
            assertThat(run.write("A", mode).get("sentAtMicros").asLong())
                    .as("A's late write to %s was sent after both of B's writes were answered", mode)
                    .isGreaterThan(run.write("B", "plain").get("receivedAtMicros").asLong())
                    .isGreaterThan(run.write("B", "fenced").get("receivedAtMicros").asLong());
        }
        assertThat(repeat.get("ttlSeconds").asLong()).as("the lease's TTL").isEqualTo(2);
        assertThat(repeat.get("figures").get("stopToFencedVerdictMinusTtlMillis").isNumber()).as("figure (a) is recorded").isTrue();
        assertThat(repeat.get("figures").get("repeatMinusTtlMillis").isNumber()).as("figure (b) is recorded").isTrue();
        assertThat(run.evidence().get("summary").get("passed").asInt()).as("the summary counts the passed repeat").isEqualTo(1);
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
        long aToken = run.repeat().get("a").get("token").asLong();

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
