package fencing.etcd;

import fencing.support.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A real jetcd client through which the grader sees, and may act on, every call a lock service makes.
 *
 * <p>Every call goes to the real etcd unchanged. Around it, the grader can: write an unrelated key
 * just before each KV call (so that etcd's revision moves between any two calls of the service, as
 * it does on a busy cluster), record the IDs of the leases the service was granted and of those it
 * asked to keep alive, and run a listener once a call has completed and before the service sees its
 * result (a listener that blocks holds the service right there, which is how the grader interleaves
 * two owners).
 */
final class ObservedClient {

    /** Runs after a call has completed, before the service sees its result. */
    @FunctionalInterface
    interface Listener {

        /** Called after {@code call} ({@code "kv.get"}, {@code "txn.commit"}, {@code "lease.grant"}, ...). */
        void afterCall(String call);
    }

    private static final Set<String> KV_CALLS = Set.of("get", "put", "delete", "compact");
    private static final Set<String> LEASE_CALLS = Set.of("grant", "revoke", "timeToLive", "keepAliveOnce");
    private static final ExecutorService LISTENERS = Executors.newCachedThreadPool(body -> {
        Thread thread = new Thread(body, "etcd call listener");
        thread.setDaemon(true);
        return thread;
    });

    private final Client real;
    private final ByteSequence unrelatedKey;
    private final boolean unrelatedWrites;
    private final Listener listener;
    private final List<Long> granted = new ArrayList<>();
    private final java.util.Map<Long, Long> grantedTtls = new java.util.HashMap<>();
    private final List<Long> keptAlive = new ArrayList<>();
    private final Client view;

    private ObservedClient(Client real, String unrelatedKey, boolean unrelatedWrites, Listener listener) {
        this.real = real;
        this.unrelatedKey = ByteSequence.from(unrelatedKey, StandardCharsets.UTF_8);
        this.unrelatedWrites = unrelatedWrites;
        this.listener = listener;
        this.view = proxy(Client.class, real, (method, args) -> {
            switch (method.getName()) {
                case "getKVClient":
                    return proxy(KV.class, real.getKVClient(), this::kvCall);
                case "getLeaseClient":
                    return proxy(Lease.class, real.getLeaseClient(), this::leaseCall);
                default:
                    return NOT_OBSERVED;
            }
        });
    }

    /** Observes {@code real}, writing {@code unrelatedKey} before every KV call. */
    static ObservedClient withUnrelatedWrites(Client real, String unrelatedKey) {
        return new ObservedClient(real, unrelatedKey, true, call -> { });
    }

    /**
     * Observes {@code real}, running {@code listener} after every call, and writing an unrelated key before every KV call
     * so that etcd's revision moves between the service's calls whatever else runs beside it.
     */
    static ObservedClient withListener(Client real, Listener listener) {
        return new ObservedClient(real, Etcd.uniqueKey("busy"), true, listener);
    }

    /** Returns the client to hand to the service. */
    Client client() {
        return view;
    }

    /** Returns the IDs of all leases granted through this client so far. */
    List<Long> grantedLeases() {
        synchronized (granted) {
            return List.copyOf(granted);
        }
    }

    /**
     * Returns the TTL etcd granted the lease {@code leaseId} through this client, in seconds, as its answer to the grant
     * said: read from the answer, it holds even once the lease has expired.
     */
    java.util.OptionalLong grantedTtl(long leaseId) {
        synchronized (granted) {
            Long ttl = grantedTtls.get(leaseId);
            return ttl == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(ttl);
        }
    }

    /** Returns the IDs of the leases the service asked this client to keep alive ({@code Lease.keepAlive}) so far. */
    List<Long> keptAliveLeases() {
        synchronized (keptAlive) {
            return List.copyOf(keptAlive);
        }
    }

    private Object kvCall(Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (name.equals("txn")) {
            Txn txn = (Txn) invoke(method, real.getKVClient(), args);
            return observedTxn(txn);
        }
        if (KV_CALLS.contains(name)) {
            return observe("kv." + name, true, () -> invokeAsync(method, real.getKVClient(), args));
        }
        return NOT_OBSERVED;
    }

    private Txn observedTxn(Txn txn) {
        Txn[] self = new Txn[1];
        self[0] = proxy(Txn.class, txn, (method, args) -> {
            if (method.getName().equals("commit")) {
                return observe("txn.commit", true, txn::commit);
            }
            invoke(method, txn, args);
            return self[0];
        });
        return self[0];
    }

    private Object leaseCall(Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (name.equals("keepAlive")) {
            synchronized (keptAlive) {
                keptAlive.add((Long) args[0]);
            }
        }
        if (!LEASE_CALLS.contains(name)) {
            return NOT_OBSERVED;
        }
        CompletableFuture<Object> call = observe("lease." + name, false, () -> invokeAsync(method, real.getLeaseClient(), args));
        if (name.equals("grant")) {
            return call.thenApply(response -> {
                synchronized (granted) {
                    LeaseGrantResponse grant = (LeaseGrantResponse) response;
                    granted.add(grant.getID());
                    grantedTtls.put(grant.getID(), grant.getTTL());
                }
                return response;
            });
        }
        return call;
    }

    private <T> CompletableFuture<T> observe(String name, boolean isKv, Supplier<CompletableFuture<T>> call) {
        CompletableFuture<?> before = unrelatedWrites && isKv
                ? real.getKVClient().put(unrelatedKey, ByteSequence.from(name, StandardCharsets.UTF_8))
                : CompletableFuture.completedFuture(null);
        return before.thenCompose(ignored -> call.get())
                .thenApplyAsync(result -> {
                    listener.afterCall(name);
                    return result;
                }, LISTENERS);
    }

    @SuppressWarnings("unchecked")
    private static <T> CompletableFuture<T> invokeAsync(Method method, Object target, Object[] args) {
        try {
            return (CompletableFuture<T>) invoke(method, target, args);
        } catch (Throwable e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Returned by a handler for a call it leaves alone: the call goes straight to the real object. */
    private static final Object NOT_OBSERVED = new Object();

    @FunctionalInterface
    private interface Handler {
        Object handle(Method method, Object[] args) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T target, Handler handler) {
        InvocationHandler passOrObserve = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return invoke(method, target, args);
            }
            Object handled = handler.handle(method, args);
            return handled == NOT_OBSERVED ? invoke(method, target, args) : handled;
        };
        return type.cast(Proxy.newProxyInstance(ObservedClient.class.getClassLoader(), new Class<?>[] {type}, passOrObserve));
    }
}
