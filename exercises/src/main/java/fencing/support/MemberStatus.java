package fencing.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What one member of an {@link EtcdCluster} says about itself over its HTTP gateway, and the signals sent to its process. */
final class MemberStatus {

    private static final int ANSWER_WITHIN_MILLIS = 500;
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern TERM = Pattern.compile("\"raftTerm\"\\s*:\\s*\"?(\\d+)");

    private MemberStatus() {
    }

    /** Returns what the member at {@code clientUrl} says about leader and term, or nothing if it does not answer within half a second. */
    static Optional<EtcdCluster.Status> ask(String clientUrl) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(clientUrl + "/v3/maintenance/status").toURL().openConnection();
            connection.setConnectTimeout(ANSWER_WITHIN_MILLIS);
            connection.setReadTimeout(ANSWER_WITHIN_MILLIS);
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.getOutputStream().write("{}".getBytes(StandardCharsets.UTF_8));
            try {
                if (connection.getResponseCode() != 200) {
                    return Optional.empty();
                }
                String body = new String(connection.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                OptionalLong member = number(MEMBER_ID, body);
                if (member.isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new EtcdCluster.Status(member.getAsLong(), number(LEADER, body).orElse(0), number(TERM, body).orElse(0)));
            } finally {
                connection.disconnect();
            }
        } catch (IOException noAnswer) {
            return Optional.empty();
        }
    }

    /** Sends SIG{@code signal} to {@code pid}, the process of {@code what}, with {@code kill}, waiting at most 5 s for it. */
    static void signal(String signal, long pid, String what) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish within 5 s");
            }
            if (kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " (" + what + ") failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to " + what, e);
        }
    }

    private static OptionalLong number(Pattern pattern, String body) {
        Matcher found = pattern.matcher(body);
        // Member ids are unsigned 64-bit numbers.
        return found.find() ? OptionalLong.of(Long.parseUnsignedLong(found.group(1))) : OptionalLong.empty();
    }
}
