package fencing.grader.sandbox;

import fencing.grader.KitClassPath;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Where a submission's JVM may write: only its own work directory.
 *
 * <p>When the grader runs as root (as on CI machines and grading servers), the submission's JVM runs
 * as the unprivileged user {@code nobody}: it can read the class path but cannot change the grader,
 * the hidden tests, the solutions or any report. In a mount namespace of its own, the directories
 * it has no business reading (the kit's solutions and catalog, the other submissions of a batch)
 * are covered by an empty directory. In a network namespace of its own (where {@code ip} exists too) it has only a
 * loopback: it reaches the grader's channel and the batch's etcd through a {@link fencing.support.LoopbackBridge},
 * and nothing else. Class path entries that {@code nobody} cannot read (a Maven
 * repository under {@code /root}) are copied into a readable snapshot.
 */
public final class Sandbox implements AutoCloseable {

    private static final int NOBODY = 65534;
    private static final Set<PosixFilePermission> OPEN_DIR = PosixFilePermissions.fromString("rwxr-xr-x");

    private static final long PROBE_SECONDS = 10;

    private final boolean dropPrivileges;
    private final boolean hideDirectories;
    private final boolean isolateNetwork;
    private final String limits;
    private Path snapshot;

    private Sandbox(boolean dropPrivileges, boolean hideDirectories, boolean isolateNetwork, String limits) {
        this.dropPrivileges = dropPrivileges;
        this.hideDirectories = hideDirectories;
        this.isolateNetwork = isolateNetwork;
        this.limits = limits;
    }

    /**
     * Returns a sandbox that drops privileges when this JVM runs as root and {@code setpriv} exists, and makes mount and
     * network namespaces where this machine allows it: tried once, since a container started with Docker's default
     * capabilities has {@code unshare} but refuses it.
     */
    public static Sandbox forThisMachine() {
        boolean root = new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        boolean drop = root && onPath("setpriv");
        if (!drop) {
            return new Sandbox(false, false, false, null);
        }
        if (!onPath("unshare") || !onPath("mount")) {
            return new Sandbox(true, false, false, "Directory hiding and network protection were off: this machine has no"
                    + " unshare or mount; the tests ran as nobody.");
        }
        Optional<String> mountRefused = refusal(List.of("unshare", "--mount", "--propagation", "private", "true"));
        if (mountRefused.isPresent()) {
            return new Sandbox(true, false, false, "Directory hiding and network protection were off: this machine refuses"
                    + " new namespaces (" + mountRefused.get() + "), as a container started with Docker's default"
                    + " capabilities does; the tests ran as nobody.");
        }
        Optional<String> netRefused = onPath("ip") ? refusal(List.of("unshare", "--mount", "--net", "ip", "link", "set", "lo", "up"))
                : Optional.of("no ip command");
        return new Sandbox(true, true, netRefused.isEmpty(), netRefused.map(why -> "Network protection was off: this"
                + " machine refuses a network namespace with a loopback (" + why + "); the tests ran as nobody.").orElse(null));
    }

    /** Runs {@code command}; returns what it said when it failed, or nothing when it succeeded. */
    private static Optional<String> refusal(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(PROBE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.of(command.get(0) + " did not end within " + PROBE_SECONDS + " s");
            }
            String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return process.exitValue() == 0 ? Optional.empty()
                    : Optional.of(said.isEmpty() ? command.get(0) + " exited " + process.exitValue() : said);
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** Returns what this sandbox cannot do on this machine, in words for the report, when it runs as root. */
    public Optional<String> limits() {
        return Optional.ofNullable(limits);
    }

    /**
     * Whether the submission's JVM runs in a network namespace of its own, with nothing but a loopback: it reaches
     * the grader and etcd only through the ports a {@link fencing.support.LoopbackBridge} carries in.
     */
    public boolean isolatesNetwork() {
        return isolateNetwork;
    }

    private static boolean onPath(String program) {
        return Stream.of("/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/").anyMatch(dir -> Files.isExecutable(Path.of(dir + program)));
    }

    /** Whether the submission's JVM runs as {@code nobody}. */
    public boolean dropsPrivileges() {
        return dropPrivileges;
    }

    /**
     * Returns the command prefix that starts a program as {@code nobody} with {@code hidden} covered, or nothing.
     *
     * @param hidden         directories the program must not see; those that do not exist are ignored
     * @param withoutNetwork whether to run it in a network namespace of its own, where this sandbox can
     */
    public List<String> commandPrefix(List<Path> hidden, boolean withoutNetwork) throws IOException {
        boolean isolateNetwork = withoutNetwork && this.isolateNetwork;
        if (!dropPrivileges) {
            return List.of();
        }
        List<String> setpriv = List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups");
        List<Path> existing = hideDirectories ? hidden.stream().filter(Files::isDirectory).toList() : List.of();
        if (existing.isEmpty() && !isolateNetwork) {
            return setpriv;
        }
        List<String> prefix = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private"));
        if (isolateNetwork) {
            prefix.add("--net");
        }
        prefix.addAll(List.of("sh", "-c"));
        StringBuilder mounts = new StringBuilder("set -e\n");
        if (isolateNetwork) {
            // A new network namespace starts with its loopback down and no other interface.
            mounts.append("ip link set lo up\n");
        }
        List<String> arguments = new ArrayList<>();
        for (Path dir : existing) {
            arguments.add(dir.toAbsolutePath().toString());
            mounts.append("mount --bind \"").append(emptyDirectory()).append("\" \"$1\"\nshift\n");
        }
        mounts.append("exec \"$@\"\n");
        prefix.add(mounts.toString());
        prefix.add("sandbox");
        prefix.addAll(arguments);
        prefix.addAll(setpriv);
        return prefix;
    }

    private synchronized Path emptyDirectory() throws IOException {
        Path root = snapshotRoot();
        Path empty = root.resolve("empty");
        if (!Files.isDirectory(empty)) {
            Files.createDirectory(empty);
            Files.setPosixFilePermissions(empty, PosixFilePermissions.fromString("r-xr-xr-x"));
        }
        return empty;
    }

    private synchronized Path snapshotRoot() throws IOException {
        if (snapshot == null) {
            Path made = Files.createTempDirectory("fencing-grader-classpath-");
            try {
                requireReachable(made, "class path snapshot");
            } catch (Unreachable e) {
                FileTrees.delete(made);
                throw e;
            }
            snapshot = made;
            Files.setPosixFilePermissions(snapshot, OPEN_DIR);
        }
        return snapshot;
    }

    /**
     * Returns {@code classPath} with every entry readable by the submission's JVM: an entry {@code nobody} cannot read is
     * copied into a snapshot, and the copy keeps the original's role.
     */
    public synchronized KitClassPath readable(KitClassPath classPath) throws IOException {
        if (!dropPrivileges) {
            return classPath;
        }
        List<KitClassPath.Entry> readable = new ArrayList<>();
        int index = 0;
        for (KitClassPath.Entry entry : classPath.entries()) {
            Path path = entry.path();
            if (!Files.exists(path) || worldReadable(path)) {
                readable.add(entry);
                continue;
            }
            Path copy = snapshotRoot().resolve((index++) + "-" + path.getFileName());
            if (Files.isDirectory(path)) {
                FileTrees.copy(path, copy);
                openForReading(copy);
            } else {
                copyReadable(path, copy);
            }
            readable.add(new KitClassPath.Entry(copy, entry.role()));
        }
        return new KitClassPath(readable);
    }

    /** Opens {@code workDir} to the submission's JVM: it may read all of it and write only in {@code writable}. */
    public void prepare(Path workDir, Path... writable) throws IOException {
        if (!dropPrivileges) {
            return;
        }
        requireReachable(workDir, "work directory");
        openForReading(workDir);
        UserPrincipal nobody = FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        for (Path dir : writable) {
            Files.setOwner(dir, nobody);
        }
    }

    @Override
    public synchronized void close() {
        if (snapshot != null) {
            FileTrees.delete(snapshot);
            snapshot = null;
        }
    }

    /**
     * Fails if {@code nobody} cannot enter {@code dir}, which a directory above it closes to other users: the
     * submission's tests would not start, for a reason of this machine's and not of the submission's.
     *
     * @throws Unreachable naming the closed directory and what to do about it
     */
    public static void requireReachable(Path dir, String what) {
        for (Path above = dir.toAbsolutePath().getParent(); above != null; above = above.getParent()) {
            if (!hasOther(above, PosixFilePermission.OTHERS_EXECUTE)) {
                throw new Unreachable("the submission's tests run as nobody, who cannot enter the grader's " + what + " "
                        + dir + ": " + above + " is closed to other users (" + permissions(above) + "). Point java.io.tmpdir"
                        + " at a directory every user can enter, for example -Djava.io.tmpdir=/tmp (it is "
                        + System.getProperty("java.io.tmpdir") + ")");
            }
        }
    }

    private static String permissions(Path path) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    /** A directory the submission's JVM must enter is closed to it: grading cannot run on this machine as it is set up. */
    public static final class Unreachable extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Unreachable(String message) {
            super(message);
        }
    }

    private static boolean worldReadable(Path entry) {
        for (Path dir = entry.toAbsolutePath().getParent(); dir != null; dir = dir.getParent()) {
            if (!hasOther(dir, PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        if (Files.isDirectory(entry)) {
            try (Stream<Path> paths = Files.walk(entry)) {
                return paths.allMatch(path -> hasOther(path, PosixFilePermission.OTHERS_READ)
                        && (!Files.isDirectory(path) || hasOther(path, PosixFilePermission.OTHERS_EXECUTE)));
            } catch (IOException e) {
                return false;
            }
        }
        return hasOther(entry, PosixFilePermission.OTHERS_READ);
    }

    private static boolean hasOther(Path path, PosixFilePermission permission) {
        try {
            return Files.getPosixFilePermissions(path).contains(permission);
        } catch (IOException e) {
            return false;
        }
    }

    /** Lets everyone read everything in {@code root}, and only its owner write there. */
    private static void openForReading(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                Files.setPosixFilePermissions(path, Files.isDirectory(path) ? OPEN_DIR : PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
    }

    private static void copyReadable(Path source, Path target) throws IOException {
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
    }

}
