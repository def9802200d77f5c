package fencing.support;

import java.time.Duration;

/** Starts a three-member cluster, prints its members' pids and directories on one line, and holds it until killed. */
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
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}
