package fencing.lab.run;

import fencing.etcd.EtcdOwnerCheck;
import fencing.sink.ConnectionSource;
import fencing.sink.OwnerCheckingSink;
import fencing.support.ChildJvm;
import fencing.support.FileTrees;
import fencing.support.Supervised;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the student's Part 4 classes behind the {@code current-owner} mode are written yet.
 *
 * <p>Parts 1 to 3 come first: the lab's core cases must run before Part 4 is started, so where its classes are
 * still stubs they leave the {@code current-owner} mode out and say so, instead of stopping.
 */
public final class Extension {

    private static final String PREFIX = "not implemented: ";

    private Extension() {
    }

    /**
     * Returns the first "Not implemented yet" message of {@code OwnerCheckingSink} or {@code EtcdOwnerCheck} on
     * {@code classPath}, the class path the lab's processes run on, if any.
     *
     * <p>Asked in a JVM of its own, since the classes that count are those the sink server will load, not this JVM's.
     */
    public static Optional<String> notImplemented(String classPath) {
        try {
            Path log = Files.createTempFile("fencing-extension-probe-", ".log");
            try (Supervised probe = ChildJvm.of(Extension.class).classPath(classPath).log(log).start("Part 4 probe")) {
                if (!probe.awaitExit(Duration.ofSeconds(60))) {
                    throw new IllegalStateException("the look at the Part 4 classes did not end within 60 s; see " + log);
                }
                String said = Files.readString(log, StandardCharsets.UTF_8).strip();
                if (probe.exitValue() != 0) {
                    throw new IllegalStateException("the look at the Part 4 classes failed (exit " + probe.exitValue() + "): " + said);
                }
                return said.lines().filter(line -> line.startsWith(PREFIX)).findFirst().map(line -> line.substring(PREFIX.length()));
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not look at the Part 4 classes", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while looking at the Part 4 classes", e);
        }
    }

    /** Prints the first "Not implemented yet" message of the Part 4 classes on this JVM's class path, if any. */
    public static void main(String[] args) {
        notImplemented().ifPresent(message -> System.out.println(PREFIX + message));
    }

    private static Optional<String> notImplemented() {
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("fencing-extension-probe-");
            new OwnerCheckingSink(ConnectionSource.sqlite(scratch.resolve("probe.db")), token -> true).write(1, "probe");
            // A stub throws before it touches its client; a written class fails on the missing client, or answers.
            new EtcdOwnerCheck(null, "probe").isCurrent(1);
            return Optional.empty();
        } catch (UnsupportedOperationException notYet) {
            return Optional.of(notYet.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("could not make a scratch directory to look at the Part 4 classes", e);
        } catch (RuntimeException written) {
            // Any other failure comes from code that is there, which is all this asks.
            return Optional.empty();
        } finally {
            if (scratch != null) {
                FileTrees.delete(scratch);
            }
        }
    }
}
