package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.github.dockerjava.api.model.Container;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;

/**
 * The kit's own check of the Testcontainers path of {@link Etcd}, with the image from {@code ETCD_IMAGE}.
 *
 * <p>Skipped, with the reason, when no Docker engine answers; {@code KIT_REQUIRE_DOCKER=true} (set in CI)
 * turns that skip into a failure, so that the container path cannot go untested there unnoticed.
 */
@Tag("etcd")
@Timeout(value = 120)
class EtcdContainerTests {

    private static final Duration GONE_WITHIN = Duration.ofSeconds(10);

    /** Per test, not per class: a class-level skip vanishes from the counts, a skipped test shows with its reason. */
    @BeforeEach
    void dockerEngineAnswers() {
        boolean answers = EtcdContainer.dockerAnswers();
        String why = "no Docker engine answers here" + EtcdContainer.dockerHostNote()
                + ", so the container path of Etcd (image " + Etcd.image() + ") cannot be checked";
        if ("true".equalsIgnoreCase(System.getenv("KIT_REQUIRE_DOCKER"))) {
            assertThat(answers).as("KIT_REQUIRE_DOCKER=true, but " + why).isTrue();
        }
        assumeTrue(answers, "Skipped: " + why + " (set KIT_REQUIRE_DOCKER=true to fail instead)");
    }

    @Test
    @DisplayName("the container path starts etcd that serves leases and keys, and close() removes the container")
    void containerPathServesLeasesAndIsRemovedOnClose() throws Exception {
        long started = System.nanoTime();
        Etcd etcd = Etcd.startContainer(Etcd.image());
        String id;
        try (Client client = etcd.newClient()) {
            System.out.printf("container path: etcd answering %d ms after start (%s)%n", elapsedMillis(started), etcd.origin());
            id = etcd.containerId().orElseThrow();

            assertThat(etcd.endpoints())
                    .as("the container uses the host's network and etcd binds loopback only, got %s", etcd.endpoints())
                    .matches("http://127\\.0\\.0\\.1:[0-9]+");
            ByteSequence key = bytes(Etcd.uniqueKey("container"));
            ClientWarmUp.warmUp(client);
            LeaseGrantResponse grant = client.getLeaseClient().grant(1).get(5, TimeUnit.SECONDS);
            long granted = System.nanoTime();
            client.getKVClient().put(key, bytes("held"), PutOption.builder().withLeaseId(grant.getID()).build())
                    .get(5, TimeUnit.SECONDS);
            List<String> read = client.getKVClient().get(key).get(5, TimeUnit.SECONDS).getKvs().stream()
                    .map(kv -> kv.getValue().toString(StandardCharsets.UTF_8)).toList();

            assertThat(grant.getTTL()).as("etcd in the container must grant a 1 s lease as 1 s, granted %d s", grant.getTTL())
                    .isEqualTo(1);
            assertThat(read).as("a key put with the lease must read back while the lease lives").containsExactly("held");

            long expiredAfter = -1;
            while (System.nanoTime() - granted < GONE_WITHIN.toNanos()) {
                if (client.getKVClient().get(key).get(5, TimeUnit.SECONDS).getCount() == 0) {
                    expiredAfter = elapsedMillis(granted);
                    break;
                }
                Thread.sleep(20);
            }
            System.out.printf("container path: 1 s lease gone %d ms after the grant's reply%n", expiredAfter);
            assertThat(expiredAfter)
                    .as("a 1 s lease nobody keeps alive must expire within %d s in the container too", GONE_WITHIN.toSeconds())
                    .isPositive();
        } finally {
            etcd.close();
        }

        List<Container> left = DockerClientFactory.instance().client().listContainersCmd()
                .withShowAll(true).withIdFilter(List.of(id)).exec();
        assertThat(left).as("after close() container %s must be gone from `docker ps -a`", id).isEmpty();
    }

    private static long elapsedMillis(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
