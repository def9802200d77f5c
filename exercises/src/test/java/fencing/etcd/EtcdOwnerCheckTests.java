package fencing.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.support.Etcd;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("etcd")
@Tag("extension")
@DisplayName("EtcdOwnerCheck (Part 4): is this token the current holder's, as etcd sees it now?")
class EtcdOwnerCheckTests {

    private static final long TTL_SECONDS = 10;

    @RegisterExtension
    static final EtcdExtension etcd = new EtcdExtension();

    @Test
    @Timeout(value = 20)
    @DisplayName("The holder's token is current; after its release it is not")
    void holdersTokenIsCurrentUntilReleased() {
        String key = Etcd.uniqueKey("public-owner-check");
        EtcdLockService locks = new EtcdLockService(etcd.client(), key, TTL_SECONDS);
        EtcdOwnerCheck owners = new EtcdOwnerCheck(etcd.client(), key);
        Optional<Ownership> alice = locks.tryAcquire("alice");
        assertThat(alice).as("tryAcquire(\"alice\") on a free lock must return an ownership").isPresent();
        long token = alice.get().token();

        assertThat(owners.isCurrent(token))
                .as("alice holds the lock with token %d, so isCurrent(%d) must be true", token, token)
                .isTrue();
        assertThat(owners.isCurrent(token + 1000))
                .as("token %d was never granted (alice's is %d), so it must not be current", token + 1000, token)
                .isFalse();
        locks.release(alice.get());
        assertThat(owners.isCurrent(token))
                .as("alice released the lock, so her token %d must no longer be current", token)
                .isFalse();
    }
}
