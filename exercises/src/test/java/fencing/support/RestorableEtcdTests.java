package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The kit's own checks of {@link RestorableEtcd}: a real snapshot, a real restore, a real replacement, and the clean-up. */
@Tag("etcd")
@Timeout(value = 90)
class RestorableEtcdTests {

    @Test
    @DisplayName("a restore from a snapshot brings back the snapshot's keys and revision on the same endpoint")
    void restoreRollsTheRevisionBackToTheSnapshot() {
        assumeTrue(RestorableEtcd.restoreTool().isPresent(), "Skipped: neither etcdutl nor etcdctl is on PATH");
        try (RestorableEtcd etcd = RestorableEtcd.start()) {
            String endpoint = etcd.endpoints();
            long snapshotRevision;
            long revisionBefore;
            Path snapshot;
            try (Client client = etcd.newClient()) {
                put(client, "kept", "before the snapshot");
                snapshotRevision = get(client, "kept").getHeader().getRevision();
                snapshot = etcd.snapshot(client);
                for (int i = 0; i < 5; i++) {
                    put(client, "lost", "after the snapshot " + i);
                }
                revisionBefore = get(client, "lost").getHeader().getRevision();
            }
            long oldPid = etcd.pid();

            RestorableEtcd.Restored restored = etcd.restore(snapshot);

            try (Client client = etcd.newClient()) {
                GetResponse kept = get(client, "kept");
                GetResponse lost = get(client, "lost");
                System.out.printf("restore: %s, etcd down %d ms, revision %d -> %d%n", restored.description(),
                        restored.downMillis(), revisionBefore, kept.getHeader().getRevision());
                assertThat(restored.how()).as("with %s on PATH the snapshot must be restored, not replaced",
                        RestorableEtcd.restoreTool().get()).isEqualTo(RestorableEtcd.How.SNAPSHOT_RESTORE);
                assertThat(etcd.endpoints()).as("the restored etcd answers where the old one did").isEqualTo(endpoint);
                assertThat(ProcessLiveness.running(oldPid))
                        .as("the etcd that was restored over (pid %d) must be stopped", oldPid).isFalse();
                assertThat(kept.getKvs()).as("a key written before the snapshot must be there after the restore").hasSize(1);
                assertThat(lost.getKvs()).as("a key written only after the snapshot must be gone after the restore").isEmpty();
                assertThat(kept.getHeader().getRevision())
                        .as("the restored cluster's revision must go back to the snapshot's (%d), from %d", snapshotRevision, revisionBefore)
                        .isEqualTo(snapshotRevision)
                        .isLessThan(revisionBefore);
            }
        }
    }

    @Test
    @DisplayName("a replacement cluster starts empty, its revision back at 1, on the same endpoint")
    void replacementStartsEmpty() {
        try (RestorableEtcd etcd = RestorableEtcd.start()) {
            try (Client client = etcd.newClient()) {
                put(client, "gone", "before the replacement");
            }

            RestorableEtcd.Restored restored = etcd.replace();

            try (Client client = etcd.newClient()) {
                GetResponse gone = get(client, "gone");
                assertThat(restored.how()).isEqualTo(RestorableEtcd.How.REPLACEMENT_CLUSTER);
                assertThat(gone.getKvs()).as("a replacement cluster has none of the old keys").isEmpty();
                assertThat(gone.getHeader().getRevision()).as("a replacement cluster's revision starts again at 1").isEqualTo(1);
            }
        }
    }

    @Test
    @DisplayName("a restore from a missing snapshot is refused and leaves etcd running as it was")
    void missingSnapshotIsRefusedAndChangesNothing() {
        try (RestorableEtcd etcd = RestorableEtcd.start(); Client client = etcd.newClient()) {
            put(client, "still", "here");
            long pid = etcd.pid();
            Path missing = etcd.workDir().resolve("no-such-snapshot.db");

            assertThatThrownBy(() -> etcd.restore(missing))
                    .as("restoring from a file that does not exist")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(missing.toString());
            assertThat(etcd.pid()).as("a refused restore must not restart etcd").isEqualTo(pid);
            assertThat(get(client, "still").getKvs()).as("a refused restore must keep the keys").hasSize(1);
        }
    }

    @Test
    @DisplayName("close() after a restore stops etcd and deletes the data directories, snapshots and logs")
    void closeAfterRestoreLeavesNothingBehind() {
        RestorableEtcd etcd = RestorableEtcd.start();
        Path workDir = etcd.workDir();
        long firstPid = etcd.pid();
        try (Client client = etcd.newClient()) {
            Path snapshot = etcd.snapshot(client);
            assertThat(snapshot).as("the snapshot is saved in the work directory").isRegularFile();
            etcd.restore(snapshot);
        }
        long secondPid = etcd.pid();

        etcd.close();

        assertThat(Files.exists(workDir)).as("after close() the work directory %s must be deleted", workDir).isFalse();
        for (long pid : new long[] {firstPid, secondPid}) {
            assertThat(ProcessLiveness.running(pid))
                    .as("after close() no etcd of this instance may run (pid %d)", pid).isFalse();
        }
    }

    private static void put(Client client, String key, String value) {
        Etcd.await(client.getKVClient().put(bytes(key), bytes(value)));
    }

    private static GetResponse get(Client client, String key) {
        return Etcd.await(client.getKVClient().get(bytes(key)));
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
