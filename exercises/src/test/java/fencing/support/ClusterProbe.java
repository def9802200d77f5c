package fencing.support;

import java.time.Duration;

/**
 * Starts a three-member cluster, prints its members' pids and directories on one line, kills one member (whose data stays
 * for a restart), says so, and holds the cluster until killed.
 */
final class ClusterProbe {

    private ClusterProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        EtcdCluster cluster = EtcdCluster.start(3);
        StringBuilder line = new StringBuilder("CLUSTER");
        for (EtcdCluster.Member member : cluster.members()) {
            line.append(' ').append(cluster.pid(member.name())).append('=').append(cluster.dir(member.name()));
        }
        System.out.println(line);
        System.out.flush();
        cluster.kill(cluster.members().get(0).name());
        System.out.println("KILLED " + cluster.members().get(0).name());
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}
