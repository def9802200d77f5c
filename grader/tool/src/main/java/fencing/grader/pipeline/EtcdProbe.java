package fencing.grader.pipeline;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Asks the batch's etcd whether it is healthy, so that an etcd gone is the grader's failure and not a student's zero. */
final class EtcdProbe {

    private static final int CONNECT_MILLIS = 1000;
    private static final int READ_MILLIS = 3000;

    private EtcdProbe() {
    }

    /**
     * Returns why none of {@code endpoints} (comma-separated) answers its health check, or nothing when one does.
     */
    static Optional<String> problem(String endpoints) {
        List<String> answers = new ArrayList<>();
        for (String endpoint : endpoints.split(",")) {
            String url = endpoint.strip().replaceAll("/+$", "");
            if (url.isEmpty()) {
                continue;
            }
            try {
                HttpURLConnection connection = (HttpURLConnection) URI.create(url + "/health").toURL().openConnection();
                connection.setConnectTimeout(CONNECT_MILLIS);
                connection.setReadTimeout(READ_MILLIS);
                try {
                    int status = connection.getResponseCode();
                    String body = status == 200 ? new String(connection.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : "";
                    if (body.contains("\"health\":\"true\"")) {
                        return Optional.empty();
                    }
                    answers.add(url + " answered HTTP " + status + (body.isBlank() ? "" : " " + body.strip()));
                } finally {
                    connection.disconnect();
                }
            } catch (IOException | IllegalArgumentException e) {
                answers.add(url + ": " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage()));
            }
        }
        return Optional.of("etcd is not healthy (" + String.join("; ", answers) + ")");
    }
}
