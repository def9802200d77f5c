package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import static fencing.lab.sink.Mode.PLAIN;
import static fencing.lab.sink.Mode.FENCED;
import static fencing.lab.run.Verdict.ACCEPTED;
import fencing.lab.run.Holder;
import fencing.lab.run.Outcome;
import fencing.lab.run.Step;
import fencing.lab.run.LabCase;
import fencing.lab.run.cases.OwnerSteps.LateWriteA;
import fencing.lab.run.cases.OwnerSteps.ReleaseB;
import fencing.lab.run.cases.OwnerSteps.Say;
import fencing.lab.run.cases.OwnerSteps.WriteB;
import fencing.lab.run.cases.RestoreSteps.BackUpSink;
import fencing.lab.run.cases.RestoreSteps.OwnerWrites;
import fencing.lab.run.cases.RestoreSteps.RecoverEpoch;
import fencing.lab.run.cases.RestoreSteps.RestoreEtcd;
import fencing.lab.run.cases.RestoreSteps.RestoreSinkBackup;
import fencing.lab.run.cases.RestoreSteps.SnapshotEtcd;
import fencing.lab.sink.Exchange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The restore drill: etcd brought back from a snapshot issues tokens below the sink's mark; a sink brought back from a
 * backup forgets its mark and takes A's late write.
 */
final class Restore implements LabCase {

    private static final int OWNERS_BEFORE_RESTORE = 3;
    private static final Mode[] MODES = {PLAIN, FENCED};

    @Override
    public String name() {
        return "restore";
    }

    @Override
    public String title() {
        return "etcd restored from a snapshot, then the sink restored from a backup";
    }

    @Override
    public boolean restoresEtcd() {
        return true;
    }

    @Override
    public Map<Mode, ModeExpectation> expected() {
        Map<Mode, ModeExpectation> expected = new LinkedHashMap<>();
        expected.put(PLAIN, new ModeExpectation(ACCEPTED, "A-late"));
        expected.put(FENCED, new ModeExpectation(ACCEPTED, "A-late"));
        return expected;
    }

    @Override
    public ExpectedMark expectedMark() {
        return new ExpectedMark(Holder.A, "the backup's mark was below A's token, so A's late write became the newest the sink had seen");
    }

    @Override
    public String explanation() {
        return "Act 1: after B wrote and released, etcd's keyspace was saved in a snapshot; owners C1 to C3 then took the lock"
                + " and wrote, and the fenced sink's mark climbed with their create_revisions. etcd was stopped and brought back"
                + " from the snapshot, and its revision went back to the snapshot's. The next rightful owner, D, got a create_revision"
                + " below the mark: the fenced sink rejected it. Safe (no older generation overwrote a newer one) but stuck: every"
                + " owner is rejected until the restored cluster's revision passes the mark. Recovery.afterRestore then raised the"
                + " epoch above the mark's, and E, taking the lock with EpochLockService, got Tokens.compose(epoch, create_revision),"
                + " above every token issued before the restore: accepted. Act 2: the sink's databases were restored from a backup"
                + " taken before B's write, so its mark fell back below A's token, and A's late write was accepted again. The mark is"
                + " only as good as its durability: a sink restored from an older backup forgets which generations it has seen."
                + " (The current-owner mode is left out here: E's token is an epoch token, which EtcdOwnerCheck does not check,"
                + " since it compares a token with the lock key's create_revision.)";
    }

    @Override
    public String contractNote() {
        return "A's late write was accepted because the sink was restored from a backup older than B's write: its mark no"
                + " longer remembered B's token. A high-water mark must be durable on every path, backups and restores included.";
    }

    @Override
    public List<Step> steps() {
        List<Step> steps = new ArrayList<>(List.of(new BackUpSink(), new WriteB(MODES), new ReleaseB(), new SnapshotEtcd()));
        for (int i = 1; i <= OWNERS_BEFORE_RESTORE; i++) {
            steps.add(new OwnerWrites("C" + i, false, MODES));
        }
        steps.addAll(List.of(
                new RestoreEtcd(),
                new Say("act 1: the next owner after the restore takes the lock with EtcdLockService (token = create_revision)"),
                new OwnerWrites("D", false, MODES),
                new RecoverEpoch(),
                new Say("the next owner takes the lock with EpochLockService (token = Tokens.compose(epoch, create_revision))"),
                new OwnerWrites("E", true, MODES),
                new Say("act 2: the sink's databases are restored from the backup taken before B's write"),
                new RestoreSinkBackup(),
                new LateWriteA(MODES)));
        return List.copyOf(steps);
    }

    @Override
    public void check(Outcome outcome, List<String> differences) {
        Exchange lastBefore = outcome.write("C" + OWNERS_BEFORE_RESTORE, FENCED);
        Exchange stuck = outcome.write("D", FENCED);
        Exchange recovered = outcome.write("E", FENCED);
        if (lastBefore == null || stuck == null || recovered == null) {
            differences.add("fenced: the writes of C" + OWNERS_BEFORE_RESTORE + ", D and E were not all sent");
            return;
        }
        long markBefore = lastBefore.request().token();
        long dToken = stuck.request().token();
        long eToken = recovered.request().token();
        if (dToken >= markBefore) {
            differences.add("etcd: D's token " + dToken + " after the restore is not below C" + OWNERS_BEFORE_RESTORE + "'s " + markBefore
                    + ": the revision did not go backwards");
        }
        if (stuck.accepted()) {
            differences.add("fenced: D's write with token " + dToken + " below the mark " + markBefore + " was accepted, expected rejected");
        }
        if (!recovered.accepted()) {
            differences.add("fenced: E's write with the recovered epoch's token " + eToken + " was " + recovered.verdict() + ", expected accepted");
        }
    }
}
