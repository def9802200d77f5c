package fencing.grader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A control group that gives the processes started in it a share of one CPU, as a platform's grading container does
 * (cgroup v1's {@code cpu} controller, or cgroup v2's {@code cpu.max}).
 *
 * <p>A process is started in it through {@link #prefix()}, so that the whole tree it starts (the grader, etcd, the test
 * JVMs) shares the quota, and {@link #close()} removes the group once they have ended.
 */
final class CpuQuota implements AutoCloseable {

    private static final Path V1 = Path.of("/sys/fs/cgroup/cpu");
    private static final Path V2 = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_MICROS = 100_000;

    private final Path group;

    private CpuQuota(Path group) {
        this.group = group;
    }

    /** Returns why no quota can be set here, or nothing when it can. */
    static Optional<String> unavailable() {
        if (Files.isRegularFile(V1.resolve("cpu.cfs_quota_us"))) {
            return Files.isWritable(V1) ? Optional.empty()
                    : Optional.of("the cgroup v1 cpu controller (" + V1 + ") is not writable by this user: run as root");
        }
        Path controllers = V2.resolve("cgroup.subtree_control");
        try {
            if (Files.isRegularFile(controllers) && Files.readString(controllers).contains("cpu")) {
                return Files.isWritable(V2) ? Optional.empty()
                        : Optional.of("the cgroup v2 hierarchy (" + V2 + ") is not writable by this user: run as root");
            }
        } catch (IOException e) {
            return Optional.of("cannot read " + controllers + ": " + e.getMessage());
        }
        return Optional.of("this machine has no cgroup cpu controller to set a quota with (neither " + V1
                + "/cpu.cfs_quota_us nor cpu in " + controllers + ")");
    }

    /** Creates a group whose processes share {@code cpus} of one CPU (0.5 for half a core). */
    static CpuQuota of(double cpus) throws IOException {
        long quota = Math.round(cpus * PERIOD_MICROS);
        boolean v1 = Files.isRegularFile(V1.resolve("cpu.cfs_quota_us"));
        Path group = Files.createDirectory((v1 ? V1 : V2).resolve("fencing-quota-" + UUID.randomUUID()));
        if (v1) {
            Files.writeString(group.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_MICROS));
            Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        } else {
            Files.writeString(group.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
        }
        return new CpuQuota(group);
    }

    /** Returns the command prefix that moves the command into the group before it runs. */
    List<String> prefix() {
        return List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", group.resolve("cgroup.procs").toString());
    }

    /** Removes the group, waiting a moment for processes that are still leaving it. */
    @Override
    public void close() throws IOException, InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                Files.delete(group);
                return;
            } catch (IOException e) {
                if (attempt >= 50) {
                    throw new IOException("cannot remove the cgroup " + group + ": processes still in it: "
                            + Files.readString(group.resolve("cgroup.procs")).strip(), e);
                }
                Thread.sleep(100);
            }
        }
    }
}
