package fencing.lab.sink;

import fencing.etcd.EtcdOwnerCheck;
import fencing.sink.OwnerCheck;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The lab's etcd as the {@code current-owner} mode sees it: one client, and the student's {@link EtcdOwnerCheck} on the lock key.
 *
 * <p>Every question to etcd ends within {@link #CHECK_TIMEOUT}, whatever the check itself does: an owner
 * check that hangs would otherwise hold SQLite's write lock, and every later write, with it.
 */
public final class EtcdOwners implements AutoCloseable {

    /** How long one owner check may take before the write it guards is rejected. */
    static final Duration CHECK_TIMEOUT = Duration.ofSeconds(5);
    /** How long the first check may take: it also connects to etcd, which on a loaded machine takes seconds. */
    static final Duration FIRST_CHECK_TIMEOUT = Duration.ofSeconds(30);

    private final Client client;
    private final String endpoints;
    private final String lockKey;
    private final OwnerCheck check;
    private final ExecutorService checks = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "owner-check");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Connects to etcd at {@code endpoints} (comma-separated) and checks tokens against {@code lockKey}.
     *
     * @throws IllegalArgumentException if either is blank
     */
    public EtcdOwners(String endpoints, String lockKey) {
        if (endpoints == null || endpoints.isBlank()) {
            throw new IllegalArgumentException("the current-owner mode needs etcd's endpoints, e.g. http://127.0.0.1:2379");
        }
        if (lockKey == null || lockKey.isBlank()) {
            throw new IllegalArgumentException("the current-owner mode needs the lock key whose holder it asks about");
        }
        this.endpoints = endpoints;
        this.lockKey = lockKey;
        this.client = Client.builder().endpoints(endpoints.split(",")).connectTimeout(CHECK_TIMEOUT).build();
        this.check = new EtcdOwnerCheck(client, lockKey);
    }

    /** Returns the check the sink asks: the student's {@link EtcdOwnerCheck}, bounded by {@link #CHECK_TIMEOUT}. */
    OwnerCheck check() {
        return token -> isCurrent(token, CHECK_TIMEOUT);
    }

    /** Returns the same check bounded by {@link #FIRST_CHECK_TIMEOUT}, for the server's warm-up, which connects. */
    OwnerCheck firstCheck() {
        return token -> isCurrent(token, FIRST_CHECK_TIMEOUT);
    }

    /** Returns the class that answers, e.g. {@code fencing.etcd.EtcdOwnerCheck}. */
    String implementation() {
        return check.getClass().getName();
    }

    String lockKey() {
        return lockKey;
    }

    String endpoints() {
        return endpoints;
    }

    private boolean isCurrent(long token, Duration timeout) {
        Future<Boolean> answer = checks.submit(() -> check.isCurrent(token));
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking etcd whether token " + token + " holds " + lockKey, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException("the owner check failed for token " + token + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new IllegalStateException("etcd did not say within " + timeout.toSeconds() + " s whether token " + token
                    + " holds " + lockKey, e);
        }
    }

    @Override
    public void close() {
        checks.shutdownNow();
        client.close();
    }
}
