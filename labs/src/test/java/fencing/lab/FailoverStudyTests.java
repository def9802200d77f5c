package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.ChildJvm;
import fencing.support.ProcessLiveness;
import fencing.support.Supervised;
import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
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

/** The failover case for real: a three-member etcd cluster whose leader is killed while A is frozen. */
@Tag("etcd")
@Timeout(150)
class FailoverStudyTests {

    private static final Pattern MEMBER = Pattern.compile("(member-\\d+): pid (\\d+), (http://\\S+), data in (\\S+)");

    @Test
    @DisplayName("failover: A's key outlives its TTL and the election, the fenced sink still rejects A, and the sampled renewal is only noted")
    void keyOutlivesItsTtlPastTheElectionAndFencingStillRejectsTheLateWrite(@TempDir Path dir) throws Exception {
        StudyRun run = StudyRun.of(dir, "--case", "failover");
        Evidence.Repeat repeat = run.repeat();
        long ttlMillis = repeat.lock().ttlSeconds() * 1000;
        Evidence.Event frozen = event(repeat, Evidence.Lane.A, EventKind.FROZEN);
        Evidence.Event fault = event(repeat, Evidence.Lane.ETCD, EventKind.LEADER_FAULT);
        Evidence.Event elected = event(repeat, Evidence.Lane.ETCD, EventKind.LEADER_ELECTED);
        Evidence.Event deleted = event(repeat, Evidence.Lane.ETCD, EventKind.KEY_DELETED);
        Evidence.Expiry expiry = repeat.lock().expiry();
        String killed = fault.label().replaceAll("leader (member-\\d+) killed", "$1");

        assertThat(run.exitCode).as("the failover repeat ends as expected; the study said:%n%s%s", run.out, run.err).isZero();
        assertThat(fault.tMillis()).as("the leader was killed while A was frozen and its key still there")
                .isGreaterThan(frozen.tMillis()).isLessThan(deleted.tMillis());
        assertThat(elected.label()).as("a member other than the killed %s was elected", killed)
                .matches("member-\\d+ leads \\(term \\d+\\)").doesNotContain(killed);
        assertThat(deleted.tMillis()).as("A's key was seen gone after the new leader was elected")
                .isGreaterThan(elected.tMillis());
        // etcd counts a lease's TTL in whole seconds, so the sampler may miss the rise: it supports the verdict, it is not it.
        for (Evidence.Event renewed : events(repeat, Evidence.Lane.ETCD, EventKind.LEASE_RENEWED)) {
            assertThat(renewed.tMillis()).as("a sampled renewal comes after the fault, A still frozen")
                    .isGreaterThan(fault.tMillis()).isLessThan(event(repeat, Evidence.Lane.A, EventKind.RESUMED).tMillis());
        }
        assertThat(repeat.judgement().notes().get(0)).as("the repeat notes whether the sampler saw the renewal")
                .startsWith("supporting: ").contains(events(repeat, Evidence.Lane.ETCD, EventKind.LEASE_RENEWED).isEmpty() ? "did not see" : "seen going back up");
        assertThat(expiry.waitAfterStopMillis()).as("A's key was seen gone later than one TTL (%d ms) after A's freeze", ttlMillis)
                .isGreaterThan(ttlMillis);
        assertThat(deleted.tMillis() - fault.tMillis())
                .as("the renewal gave the lease a whole TTL again: the key went more than a TTL after the fault").isGreaterThan(ttlMillis);
        assertThat(sawMillis(expiry))
                .as("the key's absence was observed, by the watch or the poll").isEqualTo(expiry.waitAfterStopMillis());
        assertThat(repeat.lock().b().token()).as("B's token is above A's").isGreaterThan(repeat.lock().a().token());
        assertThat(run.write("A", "fenced").verdict()).as("the fenced sink still rejects A's late write").isEqualTo("rejected");
        assertThat(run.write("A", "plain").verdict()).as("the plain sink accepts it").isEqualTo("accepted");

        List<String[]> members = members(run.out);
        assertThat(members).as("the study named its three members").hasSize(3);
        for (String[] member : members) {
            assertThat(etcdServing(member[3])).as("no etcd serves %s (%s) after the study", member[3], member[1]).isEmpty();
            assertThat(Path.of(member[4])).as("%s's data directory is gone", member[1]).doesNotExist();
        }
    }

    @Test
    @DisplayName("Killing the study with SIGKILL after the leader's fault ends every etcd member, A and the sink server, and removes the data")
    void killingTheStudyDuringTheFailoverLeavesNothingBehind(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("study.log");
        List<String> command = ChildJvm.of(Study.class).args("--out", dir.resolve("out").toString(), "--case", "failover").command();
        try (Supervised study = Supervised.start("study", command, log.toFile())) {
            String said = awaitSaid(log, study, "killed with SIGKILL");
            ProcessHandle runner = ProcessHandle.current().descendants()
                    .filter(p -> p.info().command().orElse("").endsWith("java"))
                    // The supervisor's shell is this JVM's child; the study's JVM is the shell's child.
                    .filter(p -> p.parent().flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L) == ProcessHandle.current().pid())
                    .findFirst().orElseThrow(() -> new AssertionError("the study's JVM is not among this JVM's descendants"));
            List<Long> family = new ArrayList<>(List.of(runner.pid()));
            runner.descendants().forEach(p -> family.add(p.pid()));
            List<String[]> members = members(said);
            assertThat(members).as("the study named its three members").hasSize(3);

            runner.destroyForcibly();
            List<Long> left = Processes.awaitGone(family, Duration.ofSeconds(10));

            assertThat(left).as("no process the study started may outlive it; still running: %s",
                    left.stream().map(Processes::describe).toList()).isEmpty();
            for (String[] member : members) {
                assertThat(etcdServing(member[3])).as("no etcd serves %s (%s) after the study was killed", member[3], member[1]).isEmpty();
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (Files.exists(Path.of(member[4])) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(Path.of(member[4])).as("%s's data directory is removed by its watchdog", member[1]).doesNotExist();
            }
        }
    }

    /** Returns each member the study named: the whole match, name, pid, client URL and data directory. */
    private static List<String[]> members(String said) {
        List<String[]> members = new ArrayList<>();
        Matcher found = MEMBER.matcher(said);
        while (found.find()) {
            members.add(new String[] {found.group(), found.group(1), found.group(2), found.group(3), found.group(4)});
        }
        return members;
    }

    /** Returns the processes whose command line serves {@code clientUrl}: a member, or one started again over its data. */
    private static List<String> etcdServing(String clientUrl) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains("--listen-client-urls " + clientUrl + " "))
                .filter(p -> ProcessLiveness.running(p)).map(p -> Processes.describe(p.pid())).toList();
    }

    private static String awaitSaid(Path log, Supervised study, String text) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            String said = Files.exists(log) ? Files.readString(log) : "";
            if (said.contains(text)) {
                return said;
            }
            assertThat(study.isAlive()).as("the study must still be running; it said:%n%s", said).isTrue();
            Thread.sleep(20);
        }
        throw new AssertionError("the study did not say '" + text + "' within 120 s; it said:\n" + Files.readString(log));
    }

    private static Evidence.Event event(Evidence.Repeat repeat, Evidence.Lane lane, EventKind kind) {
        for (Evidence.Event event : repeat.trace().events()) {
            if (event.lane() == lane && event.kind() == kind) {
                return event;
            }
        }
        throw new AssertionError("no " + lane.label() + " event of kind " + kind + " in " + repeat.trace().events());
    }

    private static List<Evidence.Event> events(Evidence.Repeat repeat, Evidence.Lane lane, EventKind kind) {
        return repeat.trace().events().stream().filter(event -> event.lane() == lane && event.kind() == kind).toList();
    }

    /** Returns when the observer that saw the key gone first saw it, after SIGSTOP: the watch's time or the poll's. */
    private static Double sawMillis(Evidence.Expiry expiry) {
        return switch (expiry.observedBy()) {
            case "watch" -> expiry.watchSawMillis();
            case "poll" -> expiry.pollSawMillis();
            default -> throw new AssertionError("the expiry names no observer it has a time of: " + expiry);
        };
    }
}
