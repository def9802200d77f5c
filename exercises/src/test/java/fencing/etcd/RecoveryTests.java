package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("etcd")
@Tag("extension")
@DisplayName("Recovery.afterRestore: the new epoch is max(epoch stored, epoch of the mark) + 1, written to the epoch key")
class RecoveryTests {

    @RegisterExtension
    static final EtcdExtension etcd = new EtcdExtension();

    @Test
    @DisplayName("With no epoch key, a mark of epoch 4 makes the new epoch 5, written as decimal text")
    void markAboveTheStoredEpochDecides() throws Exception {
        String epochKey = Etcd.uniqueKey("public-recovery-mark");
        long mark = Tokens.compose(4, 120);

        long epoch = Recovery.afterRestore(etcd.client(), epochKey, mark);

        assertThat(epoch).as("afterRestore with no epoch key and the mark %d (epoch 4)", mark).isEqualTo(5);
        assertThat(stored(epochKey)).as("the epoch key %s after afterRestore", epochKey).isEqualTo("5");
    }

    @Test
    @DisplayName("A stored epoch of 7 above the mark's epoch 2 decides: the new epoch is 8")
    void storedEpochAboveTheMarkDecides() throws Exception {
        String epochKey = Etcd.uniqueKey("public-recovery-stored");
        etcd.client().getKVClient().put(bytes(epochKey), bytes("7")).get(5, TimeUnit.SECONDS);
        long mark = Tokens.compose(2, 9);

        long epoch = Recovery.afterRestore(etcd.client(), epochKey, mark);

        assertThat(epoch).as("afterRestore with the epoch key at 7 and the mark %d (epoch 2)", mark).isEqualTo(8);
        assertThat(stored(epochKey)).as("the epoch key %s after afterRestore", epochKey).isEqualTo("8");
    }

    private static String stored(String key) throws Exception {
        List<KeyValue> kvs = etcd.client().getKVClient().get(bytes(key)).get(5, TimeUnit.SECONDS).getKvs();
        assertThat(kvs).as("the epoch key %s exists", key).isNotEmpty();
        return kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
