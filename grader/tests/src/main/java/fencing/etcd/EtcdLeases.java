package fencing.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.support.Etcd;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Lists the leases etcd holds, through etcd's own Lease API ({@code LeaseLeases}).
 *
 * <p>jetcd 0.8 has no call for {@code LeaseLeases}, so this asks etcd's JSON gateway for it
 * ({@code POST /v3/lease/leases}), on the same loopback endpoint the tests' clients use.
 */
final class EtcdLeases {

    /** The grader's own call: as long as {@link EtcdObserver#OWN_CALL_LIMIT}, since a loaded machine may keep it waiting for a CPU. */
    private static final Duration TIMEOUT = EtcdObserver.OWN_CALL_LIMIT;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private EtcdLeases() {
    }

    /** Returns the IDs of all leases alive in {@code etcd} now. */
    static Set<Long> list(Etcd etcd) {
        String endpoint = etcd.endpoints().split(",")[0].trim();
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + "/v3/lease/leases"))
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("etcd answered " + response.statusCode() + " to LeaseLeases: " + response.body());
            }
            Set<Long> ids = new HashSet<>();
            for (JsonNode lease : JSON.readTree(response.body()).path("leases")) {
                ids.add(Long.parseLong(lease.path("ID").asText()));
            }
            return ids;
        } catch (IOException e) {
            throw new IllegalStateException("could not list etcd's leases at " + endpoint + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing etcd's leases", e);
        }
    }
}
