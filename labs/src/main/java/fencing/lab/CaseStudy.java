package fencing.lab;

import fencing.lab.report.Reports;
import fencing.lab.report.Tables;
import fencing.lab.run.cases.Cases;
import fencing.lab.run.Prepared;
import fencing.lab.run.RepeatRun;
import fencing.lab.run.CaseToRun;
import fencing.lab.run.StudyCase;
import fencing.support.Etcd;
import fencing.support.EtcdCluster;
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
 * One case played by A and B, repeated: the etcd it needs, the repeats one after another, and its evidence and reports.
 *
 * @param classPathNote how the evidence says where worker A and the sink server ran
 */
record CaseStudy(StudyCase declared, int repeats, Path dir, String classPath, String classPathNote, PrintWriter say) {

    /** Runs the case into {@code dir}; returns its exit code (0, {@link Study#EXIT_DIFFERED} or {@link Study#EXIT_COULD_NOT_RUN}). */
    int run(PrintWriter err) {
        CaseToRun abCase = CaseToRun.onTheClassesAtHand(declared, classPath);
        Study.prepareOutDir(dir);
        String startedAt = Instant.now().toString();
        say.printf(Locale.ROOT, "Fencing study · case %s (%s) · %d repeat%s · lease TTL %d s · out %s%n",
                declared.name(), declared.title(), repeats, repeats == 1 ? "" : "s", Study.TTL_SECONDS, dir);
        if (!abCase.leftOut().isEmpty()) {
            say.println("current-owner mode left out: Part 4 (OwnerCheckingSink, EtcdOwnerCheck) is not written yet; "
                    + "this case runs plain and fenced");
        }
        say.flush();
        List<Evidence.Repeat> done = new ArrayList<>();
        String error = null;
        String[] etcdOrigin = {"(not started)"};
        try {
            repeat(abCase, done, etcdOrigin);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        } catch (Exception e) {
            error = Study.describe(e);
            Study.writeStackTrace(dir, e);
        }
        Evidence.Study evidence = evidence(abCase, startedAt, etcdOrigin[0], done, error);
        Reports.write(dir, evidence);
        Tables.printSummary(say, evidence, dir);
        if (error != null) {
            err.println("The study could not finish: " + error);
            err.println("(details in " + dir.resolve("study-error.log") + ")");
            err.flush();
            return Study.EXIT_COULD_NOT_RUN;
        }
        return evidence.summary().failed() == 0 ? 0 : Study.EXIT_DIFFERED;
    }

    private void repeat(CaseToRun abCase, List<Evidence.Repeat> done, String[] etcdOrigin) throws Exception {
        Prepared next = null;
        // A case that stops and restores etcd gets one of its own: the shared one may be a cluster the kit does not own.
        // A case that kills etcd's leader gets a three-member cluster of its own, for the same reason.
        try (RestorableEtcd restorable = abCase.studyCase().restoresEtcd() ? RestorableEtcd.start() : null;
             EtcdCluster cluster = abCase.studyCase().failsOverLeader() ? EtcdCluster.start(3) : null) {
            Etcd shared = restorable == null && cluster == null ? Etcd.shared() : null;
            String endpoints = restorable != null ? restorable.endpoints() : cluster != null ? cluster.endpoints() : shared.endpoints();
            etcdOrigin[0] = restorable != null ? restorable.toString() : cluster != null ? cluster.toString() : shared.toString();
            say.println("etcd: " + etcdOrigin[0]);
            for (EtcdCluster.Member member : cluster == null ? List.<EtcdCluster.Member>of() : cluster.members()) {
                say.printf(Locale.ROOT, "  %s: pid %d, %s, data in %s%n", member.name(), cluster.pid(member.name()), member.clientUrl(),
                        cluster.dir(member.name()));
            }
            if (restorable != null) {
                say.println("restore: " + RestorableEtcd.restoreTool().map(tool -> "from a snapshot with " + tool)
                        .orElse("no etcdutl or etcdctl on PATH: etcd comes back as a replacement cluster with an empty data directory"));
            }
            try (Client client = restorable != null ? restorable.newClient() : cluster != null ? cluster.newClient() : shared.newClient()) {
                // Connect, and run a read-only Txn like tryAcquire's, so that B's first acquire costs round trips, not a start-up.
                ByteSequence warmUp = ByteSequence.from(Etcd.uniqueKey("lab-warm-up"), StandardCharsets.UTF_8);
                client.getKVClient().txn().If(new Cmp(warmUp, Cmp.Op.EQUAL, CmpTarget.version(0)))
                        .Then(Op.get(warmUp, GetOption.DEFAULT)).commit().get(5, TimeUnit.SECONDS);
                next = Prepared.start(1, Study.repeatDir(dir, 1), abCase, endpoints, Study.TTL_SECONDS, classPath);
                for (int i = 1; i <= repeats; i++) {
                    Prepared current = next;
                    next = null;
                    int following = i + 1;
                    Prepared[] ahead = new Prepared[1];
                    try {
                        Evidence.Repeat repeat = new RepeatRun(abCase, client, restorable, Study.TTL_SECONDS, say, current, repeats)
                                .onCluster(cluster).run(() -> {
                                    if (following <= repeats) {
                                        ahead[0] = Prepared.start(following, Study.repeatDir(dir, following), abCase, endpoints,
                                                Study.TTL_SECONDS, classPath);
                                    }
                                });
                        done.add(repeat);
                        Tables.printRepeat(say, repeat);
                    } finally {
                        next = ahead[0];
                    }
                }
            } finally {
                if (next != null) {
                    next.close();
                }
            }
        }
    }

    private Evidence.Study evidence(CaseToRun abCase, String startedAt, String etcdOrigin, List<Evidence.Repeat> done, String error) {
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        List<Double> expiry = new ArrayList<>();
        for (Evidence.Repeat repeat : done) {
            if (repeat.figures().stopToFencedVerdictMinusTtlMillis() != null) {
                a.add(repeat.figures().stopToFencedVerdictMinusTtlMillis());
            }
            b.add(repeat.figures().repeatMinusTtlMillis());
            expiry.add(repeat.expiry().waitAfterStopMillis());
        }
        int passed = (int) done.stream().filter(Evidence.Repeat::pass).count();
        Evidence.Summary summary = new Evidence.Summary(done.size(), passed, done.size() - passed,
                Evidence.Stats.of(a), Evidence.Stats.of(b), Evidence.Stats.of(expiry));
        return new Evidence.Study(Evidence.SCHEMA, Study.class.getName(), declared.name(), declared.title(), Study.CONTRACT,
                startedAt, Instant.now().toString(), Study.TTL_SECONDS, repeats, etcdOrigin, Runtime.version().toString(), classPathNote,
                Cases.implementations(abCase), done, summary, null, error);
    }
}
