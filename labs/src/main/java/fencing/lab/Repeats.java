package fencing.lab;

import fencing.lab.report.Reports;
import fencing.lab.report.Tables;
import fencing.lab.run.Prepared;
import fencing.lab.run.RepeatRun;
import fencing.lab.run.CaseToRun;
import fencing.lab.run.LabCase;
import fencing.support.Etcd;
import fencing.support.EtcdCluster;
import fencing.support.EtcdEndpoints;
import fencing.support.RestorableEtcd;
import fencing.support.evidence.Evidence;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The repeats of one case played by A and B: the etcd it needs, the repeats one after another, and its evidence and reports.
 *
 * @param classes where worker A and the sink server find their classes
 */
record Repeats(LabCase labCase, int repeats, Path dir, ChildClassPath classes, PrintWriter say) {

    /** Runs the case into {@code dir}; returns its exit code (0, {@link LabSettings#EXIT_DIFFERED} or {@link LabSettings#EXIT_COULD_NOT_RUN}). */
    int run(PrintWriter err) {
        CaseToRun toRun = CaseToRun.onTheClassesAtHand(labCase, classes.path());
        LabSettings.prepareOutDir(dir);
        String startedAt = Instant.now().toString();
        say.printf(Locale.ROOT, "Fencing study · case %s (%s) · %d repeat%s · lease TTL %d s · out %s%n",
                labCase.name(), labCase.title(), repeats, repeats == 1 ? "" : "s", LabSettings.TTL_SECONDS, dir);
        if (!toRun.leftOut().isEmpty()) {
            say.println("current-owner mode left out: Part 4 (OwnerCheckingSink, EtcdOwnerCheck) is not written yet; "
                    + "this case runs plain and fenced");
        }
        say.flush();
        List<Evidence.Repeat> done = new ArrayList<>();
        String error = null;
        Ended ended = repeat(toRun, done);
        if (ended.failure() instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        } else if (ended.failure() != null) {
            error = LabSettings.describe(ended.failure());
            LabSettings.writeStackTrace(dir, ended.failure());
        }
        Evidence.Study evidence = evidence(toRun, startedAt, ended.etcdOrigin(), done, error);
        Reports.write(dir, evidence);
        Tables.printSummary(say, evidence, dir);
        if (error != null) {
            err.println("The study could not finish: " + error);
            err.println("(details in " + dir.resolve("study-error.log") + ")");
            err.flush();
            return LabSettings.EXIT_COULD_NOT_RUN;
        }
        return evidence.summary().failed() == 0 ? 0 : LabSettings.EXIT_DIFFERED;
    }

    /**
     * How the repeats ended: the etcd they ran on, as far as it was started, and what stopped them early.
     *
     * @param failure what stopped the repeats, or {@code null} when every repeat ran
     */
    private record Ended(String etcdOrigin, Exception failure) {
    }

    /** The next repeat's processes, started once the current repeat's timed part is over; closed by whoever takes them last. */
    private static final class Ahead {
        private Prepared prepared;
    }

    private Ended repeat(CaseToRun toRun, List<Evidence.Repeat> done) {
        String etcdOrigin = "(not started)";
        Prepared next = null;
        // A case that stops and restores etcd gets one of its own: the shared one may be a cluster the kit does not own.
        // A case that kills etcd's leader gets a three-member cluster of its own, for the same reason.
        try (RestorableEtcd restorable = toRun.labCase().restoresEtcd() ? RestorableEtcd.start() : null;
             EtcdCluster cluster = toRun.labCase().failsOverLeader() ? EtcdCluster.start(3) : null) {
            // The shared etcd is the JVM's, never closed here; the other two are this repeat's.
            EtcdEndpoints etcd = restorable != null ? restorable : cluster != null ? cluster : Etcd.shared();
            String endpoints = etcd.endpoints();
            etcdOrigin = etcd.toString();
            say.println("etcd: " + etcdOrigin);
            for (EtcdCluster.Member member : cluster == null ? List.<EtcdCluster.Member>of() : cluster.members()) {
                say.printf(Locale.ROOT, "  %s: pid %d, %s, data in %s%n", member.name(), cluster.pid(member.name()), member.clientUrl(),
                        cluster.dir(member.name()));
            }
            if (restorable != null) {
                say.println("restore: " + RestorableEtcd.restoreTool().map(tool -> "from a snapshot with " + tool)
                        .orElse("no etcdutl or etcdctl on PATH: etcd comes back as a replacement cluster with an empty data directory"));
            }
            try (Client client = etcd.newClient()) {
                // Connect, and run a read-only Txn like tryAcquire's, so that B's first acquire costs round trips, not a start-up.
                ByteSequence warmUp = ByteSequence.from(Etcd.uniqueKey("lab-warm-up"), StandardCharsets.UTF_8);
                client.getKVClient().txn().If(new Cmp(warmUp, Cmp.Op.EQUAL, CmpTarget.version(0)))
                        .Then(Op.get(warmUp, GetOption.DEFAULT)).commit().get(5, TimeUnit.SECONDS);
                next = Prepared.start(1, LabSettings.repeatDir(dir, 1), toRun, endpoints, LabSettings.TTL_SECONDS, classes.path());
                for (int i = 1; i <= repeats; i++) {
                    Prepared current = next;
                    next = null;
                    int following = i + 1;
                    Ahead ahead = new Ahead();
                    try {
                        Evidence.Repeat repeat = new RepeatRun(toRun, client, restorable, LabSettings.TTL_SECONDS, say, current, repeats)
                                .onCluster(cluster).run(() -> {
                                    if (following <= repeats) {
                                        ahead.prepared = Prepared.start(following, LabSettings.repeatDir(dir, following), toRun, endpoints,
                                                LabSettings.TTL_SECONDS, classes.path());
                                    }
                                });
                        done.add(repeat);
                        Tables.printRepeat(say, repeat);
                    } finally {
                        next = ahead.prepared;
                    }
                }
            } finally {
                if (next != null) {
                    next.close();
                }
            }
        } catch (Exception e) {
            return new Ended(etcdOrigin, e);
        }
        return new Ended(etcdOrigin, null);
    }

    private Evidence.Study evidence(CaseToRun toRun, String startedAt, String etcdOrigin, List<Evidence.Repeat> done, String error) {
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        List<Double> expiry = new ArrayList<>();
        for (Evidence.Repeat repeat : done) {
            if (repeat.figures().stopToFencedVerdictMinusTtlMillis() != null) {
                a.add(repeat.figures().stopToFencedVerdictMinusTtlMillis());
            }
            b.add(repeat.figures().repeatMinusTtlMillis());
            expiry.add(repeat.lock().expiry().waitAfterStopMillis());
        }
        int passed = (int) done.stream().filter(repeat -> repeat.judgement().pass()).count();
        Evidence.Summary summary = new Evidence.Summary(done.size(), passed, done.size() - passed,
                Evidence.Stats.of(a), Evidence.Stats.of(b), Evidence.Stats.of(expiry));
        Evidence.Setup setup = new Evidence.Setup(LabSettings.TOOL, LabSettings.CONTRACT, etcdOrigin, Runtime.version().toString(),
                classes.note(), LabSettings.TTL_SECONDS, repeats, toRun.implementations());
        return new Evidence.Study(Evidence.SCHEMA, labCase.name(), labCase.title(), setup, startedAt, Instant.now().toString(), done, summary,
                null, error);
    }
}
