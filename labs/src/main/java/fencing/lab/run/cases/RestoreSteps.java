package fencing.lab.run.cases;

import fencing.lab.sink.Mode;
import fencing.lab.run.Lineage;
import fencing.lab.run.Stage;
import fencing.lab.run.Step;
import java.util.List;

/** The steps of the restore case, which roll a history back; what they share (the snapshot, the backup, the restored etcd's client) is the stage's {@link Lineage}. */
final class RestoreSteps {

    private RestoreSteps() {
    }

    /** Copies the sink's database files aside, as a backup. */
    record BackUpSink() implements Step {

        @Override
        public void run(Stage stage) {
            stage.lineage().backUpSink();
        }
    }

    /** Saves a snapshot of etcd's keyspace (the maintenance API's snapshot). */
    record SnapshotEtcd() implements Step {

        @Override
        public void run(Stage stage) {
            stage.lineage().snapshot();
        }
    }

    /**
     * A new owner {@code name} takes the lock, writes {@code name} with its token to each of {@code modes} and releases.
     *
     * @param epochTokens whether the owner uses {@code EpochLockService} (token {@code Tokens.compose(epoch, create_revision)})
     *                    rather than {@code EtcdLockService} (token = create_revision)
     */
    record OwnerWrites(String name, boolean epochTokens, List<Mode> modes) implements Step {

        OwnerWrites(String name, boolean epochTokens, Mode... modes) {
            this(name, epochTokens, List.of(modes));
        }

        @Override
        public void run(Stage stage) {
            stage.lineage().ownerWrites(name, epochTokens, modes);
        }
    }

    /** Stops etcd and brings it back from the last snapshot (or as a replacement cluster, where no restore tool is found). */
    record RestoreEtcd() implements Step {

        @Override
        public void run(Stage stage) {
            stage.lineage().restore();
        }
    }

    /** Runs {@code Recovery.afterRestore} with the fenced sink's mark as the highest token seen. */
    record RecoverEpoch() implements Step {

        @Override
        public void run(Stage stage) {
            stage.lineage().recoverEpoch();
        }
    }

    /** Kills the sink server, puts the backup's files in place of its databases, and starts a new server over them. */
    record RestoreSinkBackup() implements Step {

        @Override
        public void run(Stage stage) {
            stage.lineage().restoreSinkBackup();
        }
    }
}
