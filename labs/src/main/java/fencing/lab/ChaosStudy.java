package fencing.lab;

import fencing.lab.history.History;
import fencing.lab.history.HistoryChecker;
import fencing.lab.report.ChaosReport;
import fencing.lab.run.cases.Cases;
import fencing.lab.run.Extension;
import fencing.lab.run.chaos.ChaosPlan;
import fencing.lab.run.chaos.ChaosRun;
import fencing.lab.run.chaos.Fault;
import fencing.support.Etcd;
import fencing.support.evidence.Evidence;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The chaos run: many writers and a seeded nemesis, as {@code plan} asks, its history checked, its evidence and reports written. */
record ChaosStudy(ChaosPlan plan, Path dir, ChildClassPath classes, PrintWriter say) {

    /** Runs the chaos run into {@code dir}; returns its exit code, as {@link Repeats#run} does. */
    int run(PrintWriter err) {
        LabSettings.prepareOutDir(dir);
        String startedAt = Instant.now().toString();
        say.printf(Locale.ROOT, "Fencing study · case chaos (%s) · %d writers · %d s · seed %d · faults %s · lease TTL %d s · out %s%n",
                ChaosRun.TITLE, plan.writers(), plan.seconds(), plan.seed(), Fault.spell(plan.faults()), LabSettings.TTL_SECONDS, dir);
        say.flush();
        ChaosRun.Result result;
        String etcdOrigin;
        try {
            Etcd etcd = Etcd.shared();
            etcdOrigin = etcd.toString();
            say.println("etcd: " + etcd);
            ChaosRun run = new ChaosRun(plan, LabSettings.TTL_SECONDS, dir, classes.path(), say);
            if (Extension.notImplemented(classes.path()).isPresent()) {
                say.println("current-owner mode left out: Part 4 (OwnerCheckingSink, EtcdOwnerCheck) is not written yet");
                run = run.withoutCurrentOwner();
            }
            result = run.run(etcd);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("The study could not finish: interrupted; replay with seed " + plan.seed());
            return LabSettings.EXIT_COULD_NOT_RUN;
        } catch (RuntimeException e) {
            LabSettings.writeStackTrace(dir, e);
            err.println("The study could not finish: " + LabSettings.describe(e) + "; replay with seed " + plan.seed());
            err.println("(details in " + dir.resolve("study-error.log") + ")");
            err.flush();
            return LabSettings.EXIT_COULD_NOT_RUN;
        }
        Evidence.Study evidence = evidence(result, startedAt, etcdOrigin);
        ChaosReport.write(dir, evidence, result.findings(), History.read(Path.of(result.history())));
        Evidence.Chaos chaos = evidence.chaos();
        for (Evidence.ChaosMode mode : chaos.modes().values()) {
            say.printf(Locale.ROOT, "  %-14s %6d writes, %6d accepted: stale writes accepted %d, lost updates %d, expired-holder writes accepted %d%s%n",
                    mode.mode(), mode.writes(), mode.accepted(), mode.staleAccepted(), mode.lostUpdates(), mode.expiredHolderAccepted(),
                    mode.complete() ? "" : " (incomplete: unknown)");
        }
        chaos.problems().forEach(p -> say.println("  cannot judge the history: " + p));
        say.printf(Locale.ROOT, "%.1f recorded writes per second, %d freezes, %d cuts from etcd. %s%n", chaos.writesPerSecond(), chaos.freezes(),
                chaos.partitions(),
                result.pass() ? "As expected: the fenced sink accepted no stale write." : "NOT as expected: " + String.join("; ", chaos.differences()));
        say.println("history:  " + result.history() + "   (./kit check-history " + result.history() + ")");
        say.println("evidence: " + dir.resolve(Evidence.FILE));
        say.println("reports:  " + dir.resolve("report.md") + "  " + dir.resolve("report.html"));
        say.println("replay:   " + plan.replay());
        say.flush();
        return result.pass() ? 0 : LabSettings.EXIT_DIFFERED;
    }

    private Evidence.Study evidence(ChaosRun.Result r, String startedAt, String etcdOrigin) {
        Map<String, Evidence.ChaosMode> modes = new LinkedHashMap<>();
        for (HistoryChecker.ModeFindings m : r.findings().modes().values()) {
            // evidence.json keeps a mode as the string it always was, the one that also keys r.sinks().
            String mode = m.mode().text();
            modes.put(mode, new Evidence.ChaosMode(mode, r.sinks().get(mode), m.writes(), m.accepted(), m.rejected(), m.noVerdict(),
                    m.staleAccepted(), m.lostUpdates(), m.expiredHolderAccepted(), m.complete(), m.examples()));
        }
        Evidence.Chaos chaos = new Evidence.Chaos(plan.writers(), plan.seconds(), plan.seed(), plan.replay(), r.startedAtMicros(), r.endedAtMicros(),
                dir.relativize(Path.of(r.history())).toString(), r.freezes(), r.partitions(), r.writesPerSecond(), r.findings().problems(), modes, r.differences());
        Evidence.Summary summary = new Evidence.Summary(1, r.pass() ? 1 : 0, r.pass() ? 0 : 1, Evidence.Stats.of(List.of()),
                Evidence.Stats.of(List.of()), Evidence.Stats.of(List.of()));
        Evidence.Setup setup = new Evidence.Setup(LabSettings.TOOL, LabSettings.CONTRACT, etcdOrigin, Runtime.version().toString(),
                classes.note(), LabSettings.TTL_SECONDS, 1, r.sinks());
        return new Evidence.Study(Evidence.SCHEMA, Cases.CHAOS, ChaosRun.TITLE, setup, startedAt, Instant.now().toString(), List.of(), summary,
                chaos, null);
    }
}
