package fencing.sink;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Set;

/**
 * A source of real SQLite connections through which the grader sees every statement a sink runs.
 *
 * <p>Each connection and statement is the real sqlite-jdbc object behind a thin
 * {@link java.lang.reflect.Proxy}: the call goes to SQLite unchanged, and once it has returned the
 * listener runs on the caller's thread. A listener that blocks holds the sink right there, with
 * whatever locks SQLite gave it, which is how the grader pauses a writer between two statements.
 */
final class ObservedConnections implements ConnectionSource {

    /** Runs after a statement has returned, on the thread that ran it. */
    @FunctionalInterface
    interface Listener {

        /** Called after {@code call} ({@code "execute: SELECT ..."}, {@code "commit"}, ...) has returned. */
        void afterStatement(String call);
    }

    private static final Set<String> CONNECTION_STATEMENTS = Set.of("commit", "rollback", "setAutoCommit");
    private static final Set<String> STATEMENT_FACTORIES = Set.of("createStatement", "prepareStatement", "prepareCall");

    private final ConnectionSource real;
    private final Listener listener;

    ObservedConnections(ConnectionSource real, Listener listener) {
        this.real = Objects.requireNonNull(real, "real");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    @Override
    public Connection open() throws SQLException {
        Connection connection = real.open();
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                new Observing(connection, null));
    }

    @Override
    public String toString() {
        return "observed " + real;
    }

    private final class Observing implements InvocationHandler {

        private final Object target;
        private final String sql;

        Observing(Object target, String sql) {
            this.target = target;
            this.sql = sql;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            String name = method.getName();
            if (target instanceof Connection && STATEMENT_FACTORIES.contains(name) && result != null) {
                String prepared = args != null && args.length > 0 && args[0] instanceof String ? (String) args[0] : null;
                return wrapStatement((Statement) result, prepared);
            }
            if (target instanceof Connection && CONNECTION_STATEMENTS.contains(name)) {
                listener.afterStatement(name);
            } else if (target instanceof Statement && name.startsWith("execute")) {
                String text = args != null && args.length > 0 && args[0] instanceof String ? (String) args[0] : sql;
                listener.afterStatement(name + ": " + text);
            }
            return result;
        }

        private Object wrapStatement(Statement statement, String prepared) {
            Class<?> type = statement instanceof CallableStatement ? CallableStatement.class
                    : statement instanceof PreparedStatement ? PreparedStatement.class
                    : Statement.class;
            return Proxy.newProxyInstance(ObservedConnections.class.getClassLoader(), new Class<?>[] {type},
                    new Observing(statement, prepared));
        }
    }
}
