package fencing.etcd;

import fencing.support.Etcd;
import io.etcd.jetcd.Client;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's client on the kit's etcd: register it as
 * {@code @RegisterExtension static final EtcdExtension etcd = new EtcdExtension();} and hand {@code etcd.client()} to
 * the code under test.
 *
 * <p>Before the class's first test it connects to {@link Etcd#shared()}, which the first class that needs etcd starts
 * (that may take a while) and which stays up for the whole run; after the class's last test it closes its client.
 */
final class EtcdExtension implements BeforeAllCallback, AfterAllCallback {

    private Client client;

    @Override
    public void beforeAll(ExtensionContext context) {
        client = Etcd.shared().newClient();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        client.close();
        client = null;
    }

    /** Returns this class's client; the extension closes it after the class's last test. */
    Client client() {
        if (client == null) {
            throw new IllegalStateException("EtcdExtension connects before a class's first test: register it on a static"
                    + " field with @RegisterExtension");
        }
        return client;
    }
}
