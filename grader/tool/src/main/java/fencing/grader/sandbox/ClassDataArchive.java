package fencing.grader.sandbox;

import fencing.grader.KitClassPath;
import fencing.support.ChildJvm;
import fencing.support.FileTrees;
import fencing.support.Supervised;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A class data sharing archive of the libraries the submissions' JVMs load, made once per grader and mapped by every
 * later JVM, which then skips parsing and verifying thousands of library classes (jetcd, gRPC, Netty, JUnit).
 *
 * <p>The first JVM that asks lists the classes it loads; when it has ended, a {@code java -Xshare:dump} run archives
 * those of them that the libraries and the JDK hold, in the background, while grading goes on. A JVM started after that
 * maps the archive. The list comes from a JVM that ran a submission's code, so only well-formed class names are taken
 * from it, and the archive is made from the libraries alone: it holds nothing but classes the JVMs would load from the
 * same jars anyway. Without the archive (not made yet, or the dump failed) a JVM loads its classes as usual, and its
 * grade is the same.
 */
public final class ClassDataArchive implements AutoCloseable {

    private static final String LIST = "loaded-classes.txt";
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(/[A-Za-z_$][A-Za-z0-9_$]*)*");
    /** A list shorter than this comes from a JVM that ended early, and would make an archive not worth mapping. */
    private static final int FEWEST_CLASSES = 1_000;
    private static final long LARGEST_LIST = 8L << 20;
    private static final Duration DUMP_LIMIT = Duration.ofMinutes(3);
    /**
     * The fewest grades an archive is made for. Making it costs about 3 to 6 CPU-seconds (the dump, while grading goes
     * on), and each JVM that maps it saves about half a CPU-second, measured on the kit's own hidden tests: fewer grades
     * than this would pay for the archive without getting it back.
     */
    public static final int FEWEST_GRADES = 12;

    private final KitClassPath kitClassPath;
    private final List<Path> libraries;
    private Path dir;
    private Path listingRun;
    private Supervised dump;
    private Path archive;
    private boolean closed;
    private boolean worthMaking = true;

    /** Creates an archive, not yet made, of the library jars of {@code kitClassPath} ({@link KitClassPath#libraryJars}). */
    public ClassDataArchive(KitClassPath kitClassPath) {
        this.kitClassPath = kitClassPath;
        this.libraries = kitClassPath.libraryJars();
    }

    /**
     * Returns the class path of a submission's JVM ({@link KitClassPath#forSubmission}): it begins with the libraries,
     * as an archive applies only to a class path that begins with the one it was made with.
     */
    public List<Path> classPath(Path classes) {
        return kitClassPath.forSubmission(classes);
    }

    /**
     * Returns what the JVM about to run in {@code runDir} should do: map the archive when it is made, list the classes
     * it loads when no other JVM does, or neither.
     */
    public synchronized Optional<Use> next(Path runDir) {
        if (closed || libraries.isEmpty() || !worthMaking && archive == null) {
            return Optional.empty();
        }
        if (archive != null) {
            return Optional.of(new Use(archive, false));
        }
        if (listingRun == null && dump == null) {
            listingRun = runDir;
            return Optional.of(new Use(runDir.resolve(LIST), true));
        }
        return Optional.empty();
    }

    /**
     * Tells the archive how many grades are to come; for fewer than {@link #FEWEST_GRADES} none is made, and every JVM
     * loads its classes from the jars. Without this call the archive is made, as for a grader of unknown length.
     */
    public synchronized void expectGrades(int grades) {
        worthMaking = grades >= FEWEST_GRADES;
    }

    /** Tells the archive that the JVM of {@code runDir} has ended; if it was listing its classes, the archive is made from them. */
    public synchronized void ended(Path runDir) throws IOException {
        if (!runDir.equals(listingRun)) {
            return;
        }
        listingRun = null;
        Path list = runDir.resolve(LIST);
        if (closed || !Files.isRegularFile(list) || Files.size(list) > LARGEST_LIST) {
            return;
        }
        List<String> names;
        try (Stream<String> lines = Files.lines(list, StandardCharsets.ISO_8859_1)) {
            names = lines.map(line -> line.replaceFirst(" id: \\d+$", "")).filter(name -> CLASS_NAME.matcher(name).matches())
                    .distinct().toList();
        }
        if (names.size() < FEWEST_CLASSES) {
            return;
        }
        startDump(names);
    }

    private void startDump(List<String> names) throws IOException {
        dir = Files.createTempDirectory("fencing-grader-classes-");
        // The submissions' JVMs may run as nobody: they must be able to read the archive.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path classList = Files.write(dir.resolve("classes.txt"), names, StandardCharsets.ISO_8859_1);
        Path made = dir.resolve("libraries.jsa.part");
        // A JDK tool run, not one of the kit's JVMs: it takes none of child-jvm.args, only the collector they use.
        List<String> command = List.of(ChildJvm.java(), "-Xshare:dump",
                "-XX:+UseSerialGC", "-XX:SharedClassListFile=" + classList, "-XX:SharedArchiveFile=" + made,
                "-cp", libraries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        Supervised started = Supervised.start("class data archive", command, dir.resolve("dump.log").toFile());
        dump = started;
        Thread waiter = new Thread(() -> awaitDump(started, made), "await the class data archive");
        waiter.setDaemon(true);
        waiter.start();
    }

    private void awaitDump(Supervised running, Path made) {
        try {
            boolean ended = running.awaitExit(DUMP_LIMIT);
            running.close();
            synchronized (this) {
                if (!closed && ended && running.exitValue() == 0 && Files.isRegularFile(made)) {
                    Path done = Files.move(made, made.resolveSibling("libraries.jsa"), StandardCopyOption.ATOMIC_MOVE);
                    Files.setPosixFilePermissions(done, PosixFilePermissions.fromString("r--r--r--"));
                    archive = done;
                }
            }
        } catch (IOException e) {
            // The archive only saves time: without it every JVM loads its classes from the jars, as it would anyway.
            throw new UncheckedIOException("could not keep the class data archive in " + made, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops a dump still running and deletes the archive. */
    @Override
    public synchronized void close() {
        closed = true;
        if (dump != null) {
            dump.close();
        }
        if (dir != null) {
            FileTrees.delete(dir);
        }
    }

    /**
     * What one JVM does with the archive.
     *
     * @param file    the archive to map, or the file to list loaded classes in
     * @param listing whether the JVM lists its classes instead of mapping the archive
     */
    public record Use(Path file, boolean listing) {
    }
}
