package fencing.grader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Control groups that give the processes started in them a share of one CPU and at most some memory, as a platform's
 * grading container does (cgroup v1's {@code cpu} and {@code memory} controllers, or cgroup v2's {@code cpu.max} and
 * {@code memory.max}).
 *
 * <p>A process is started in them through {@link #prefix()}, so that the whole tree it starts (the grader, etcd, the test
 * JVMs) shares the limits, and {@link #close()} removes the groups once they have ended.
 */
public final class ResourceLimits implements AutoCloseable {

    private static final Path V1 = Path.of("/sys/fs/cgroup");
    private static final Path V2 = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_MICROS = 100_000;
    private static final long LONGEST_PERIOD_MICROS = 1_000_000;
    private static final long LEAST_QUOTA_MICROS = 1_000;

    private final List<Path> groups;
    private final Path memory;

    private ResourceLimits(List<Path> groups, Path memory) {
        this.groups = groups;
        this.memory = memory;
    }

    private static boolean v1() {
        return Files.isRegularFile(V1.resolve("cpu/cpu.cfs_quota_us"));
    }

    /** Returns why no CPU quota (and, with {@code withMemory}, no memory limit) can be set here, or nothing when it can. */
    public static Optional<String> unavailable(boolean withMemory) {
        if (v1()) {
            if (!Files.isWritable(V1.resolve("cpu"))) {
                return Optional.of("the cgroup v1 cpu controller is not writable by this user: run as root");
            }
            if (withMemory && !Files.isWritable(V1.resolve("memory"))) {
                return Optional.of("the cgroup v1 memory controller is not writable by this user: run as root");
            }
            return Optional.empty();
        }
        Path controllers = V2.resolve("cgroup.subtree_control");
        try {
            String enabled = Files.isRegularFile(controllers) ? Files.readString(controllers) : "";
            if (!enabled.contains("cpu") || withMemory && !enabled.contains("memory")) {
                return Optional.of("this machine has no cgroup controller to set the limit with (neither cgroup v1's"
                        + " cpu/memory nor cpu and memory in " + controllers + ")");
            }
        } catch (IOException e) {
            return Optional.of("cannot read " + controllers + ": " + e.getMessage());
        }
        return Files.isWritable(V2) ? Optional.empty()
                : Optional.of("the cgroup v2 hierarchy is not writable by this user: run as root");
    }

    /** Creates groups whose processes share {@code cpus} of one CPU (0.5 for half a core), with no memory limit. */
    public static ResourceLimits of(double cpus) throws IOException {
        return of(cpus, 0);
    }

    /** Creates groups whose processes share {@code cpus} of one CPU and at most {@code memoryBytes} (0: no limit). */
    static ResourceLimits of(double cpus, long memoryBytes) throws IOException {
        // The kernel's least quota is a millisecond a period: a share below a hundredth of a CPU takes a one-second period.
        long period = cpus * PERIOD_MICROS >= LEAST_QUOTA_MICROS ? PERIOD_MICROS : LONGEST_PERIOD_MICROS;
        long quota = Math.max(LEAST_QUOTA_MICROS, Math.round(cpus * period));
        String name = "fencing-limits-" + UUID.randomUUID();
        List<Path> groups = new ArrayList<>();
        Path memory = null;
        if (v1()) {
            Path cpu = Files.createDirectory(V1.resolve("cpu").resolve(name));
            groups.add(cpu);
            Files.writeString(cpu.resolve("cpu.cfs_period_us"), Long.toString(period));
            Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Long.toString(quota));
            if (memoryBytes > 0) {
                memory = Files.createDirectory(V1.resolve("memory").resolve(name));
                groups.add(memory);
                Files.writeString(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
            }
        } else {
            Path group = Files.createDirectory(V2.resolve(name));
            groups.add(group);
            Files.writeString(group.resolve("cpu.max"), quota + " " + period);
            if (memoryBytes > 0) {
                Files.writeString(group.resolve("memory.max"), Long.toString(memoryBytes));
                memory = group;
            }
        }
        return new ResourceLimits(List.copyOf(groups), memory);
    }

    /** Returns the command prefix that moves the command into the groups before it runs. */
    public List<String> prefix() {
        List<String> prefix = new ArrayList<>(List.of("sh", "-c",
                "for procs in \"$@\"; do [ \"$procs\" = -- ] && break; echo $$ > \"$procs\"; shift; done; shift; exec \"$@\"", "limits"));
        groups.forEach(group -> prefix.add(group.resolve("cgroup.procs").toString()));
        prefix.add("--");
        return prefix;
    }

    /** Moves the running process {@code pid}, every thread of it, into the groups. */
    public void add(long pid) throws IOException {
        for (Path group : groups) {
            Files.writeString(group.resolve("cgroup.procs"), Long.toString(pid));
        }
    }

    /** Lifts the CPU limit: from now on the processes in the groups may use as much CPU as any other. */
    public void lift() throws IOException {
        if (v1()) {
            Files.writeString(groups.get(0).resolve("cpu.cfs_quota_us"), "-1");
        } else {
            Files.writeString(groups.get(0).resolve("cpu.max"), "max");
        }
    }

    /** Returns the most memory the processes in the groups have used at once, where a memory limit was set. */
    OptionalLong peakMemoryBytes() throws IOException {
        if (memory == null) {
            return OptionalLong.empty();
        }
        Path peak = memory.resolve(v1() ? "memory.max_usage_in_bytes" : "memory.peak");
        return Files.isRegularFile(peak) ? OptionalLong.of(Long.parseLong(Files.readString(peak).strip())) : OptionalLong.empty();
    }

    /** Removes the groups, waiting a moment for processes that are still leaving them. */
    @Override
    public void close() throws IOException, InterruptedException {
        for (Path group : groups) {
            for (int attempt = 0; ; attempt++) {
                try {
                    Files.delete(group);
                    break;
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
}
