package fencing.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * A real jetcd client that records how each read reaches etcd: linearizable or serializable.
 *
 * <p>Every call goes to the real etcd unchanged. A {@code get} is serializable when its option says
 * so; a Txn is served serializably by etcd when every one of its operations is a serializable read,
 * which includes a Txn with no operations at all (a bare compare).
 */
final class ReadRecordingClient {

    private final Client real;
    private final List<String> reads = new ArrayList<>();
    private final Client view;

    ReadRecordingClient(Client real) {
        this.real = real;
        this.view = proxy(Client.class, real, (method, args) ->
                method.getName().equals("getKVClient") ? proxy(KV.class, real.getKVClient(), this::kvCall) : invoke(method, real, args));
    }

    /** Returns the client to hand to the owner check. */
    Client client() {
        return view;
    }

    /** Returns the reads made so far, each as {@code "get: linearizable"}, {@code "txn: serializable"} and so on. */
    synchronized List<String> reads() {
        return List.copyOf(reads);
    }

    private synchronized void record(String read) {
        reads.add(read);
    }

    private Object kvCall(Method method, Object[] args) throws Throwable {
        KV kv = real.getKVClient();
        if (method.getName().equals("get")) {
            boolean serializable = args.length > 1 && args[1] instanceof GetOption option && option.isSerializable();
            record("get: " + (serializable ? "serializable" : "linearizable"));
            return invoke(method, kv, args);
        }
        if (method.getName().equals("txn")) {
            return recordingTxn((Txn) invoke(method, kv, args));
        }
        return invoke(method, kv, args);
    }

    private Txn recordingTxn(Txn txn) {
        List<Op> ops = new ArrayList<>();
        Txn[] self = new Txn[1];
        self[0] = proxy(Txn.class, txn, (method, args) -> {
            switch (method.getName()) {
                case "Then", "Else" -> {
                    for (Object op : (Object[]) args[0]) {
                        ops.add((Op) op);
                    }
                }
                case "commit" -> {
                    record("txn: " + (ops.stream().allMatch(ReadRecordingClient::isSerializableRead) ? "serializable" : "linearizable"));
                    return txn.commit();
                }
                default -> { }
            }
            invoke(method, txn, args);
            return self[0];
        });
        return self[0];
    }

    private static boolean isSerializableRead(Op op) {
        if (!(op instanceof Op.GetOp)) {
            return false;
        }
        try {
            Field option = Op.GetOp.class.getDeclaredField("option");
            option.setAccessible(true);
            return ((GetOption) option.get(op)).isSerializable();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the grader could not inspect a read in a Txn", e);
        }
    }

    @FunctionalInterface
    private interface Handler {
        Object handle(Method method, Object[] args) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T target, Handler handler) {
        return type.cast(Proxy.newProxyInstance(ReadRecordingClient.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> method.getDeclaringClass() == Object.class
                        ? invoke(method, target, args)
                        : handler.handle(method, args == null ? new Object[0] : args)));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
