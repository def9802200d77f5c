package fencing.support;

import io.etcd.jetcd.Client;

/**
 * An etcd the kit started or found, whatever its kind ({@link Etcd}, {@link EtcdCluster}, {@link RestorableEtcd}): where
 * it answers, and a client on it.
 */
public interface EtcdEndpoints {

    /** Returns the client URLs, comma-separated, as {@code --endpoints} and {@code ETCD_ENDPOINTS} take them. */
    String endpoints();

    /** Builds a jetcd client of every member; the caller closes it. */
    Client newClient();
}
