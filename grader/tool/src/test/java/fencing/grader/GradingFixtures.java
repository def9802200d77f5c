package fencing.grader;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.TestSuite;
import fencing.support.Etcd;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;

/** Shared set-up for the kit's own checks: one grader per suite. */
final class GradingFixtures {

    private static final Map<TestSuite, Grader> GRADERS = new EnumMap<>(TestSuite.class);

    private GradingFixtures() {
    }

    /** Returns the grader for {@code suite}, sharing this JVM's etcd. */
    static synchronized Grader grader(TestSuite suite) {
        return GRADERS.computeIfAbsent(suite, which -> {
            Grader grader = new Grader(new Grader.Options(which, true,
                    Etcd.shared().endpoints()));
            Runtime.getRuntime().addShutdownHook(new Thread(grader::close, "close the " + which + " grader"));
            return grader;
        });
    }

    /** Grades {@code submission} with the hidden tests. */
    static Grade grade(Path submission) {
        return grade(TestSuite.HIDDEN, submission);
    }

    /** Grades {@code submission} with {@code suite}'s tests, in a fresh work directory. */
    static Grade grade(TestSuite suite, Path submission) {
        try {
            return grader(suite).grade(submission, "kit-checks/" + UUID.randomUUID());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code source} as the student-owned file {@code path} of a new submission, the rest copied from solutions. */
    static Path submissionWith(Path dir, String path, String source) throws IOException {
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT), dir.resolve(StudentFiles.SOURCE_ROOT));
        for (String beside : StudentFiles.BESIDE_SOURCES) {
            Files.copy(KitLocations.solutions().resolve(beside), dir.resolve(beside));
        }
        Path file = dir.resolve(StudentFiles.SOURCE_ROOT).resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        return dir;
    }
}
