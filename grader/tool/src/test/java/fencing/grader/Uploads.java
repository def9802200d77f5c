package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/** What students upload to a platform, made from the kit's own submissions, and the figures the platform runs measure. */
final class Uploads {

    private Uploads() {
    }

    /** Copies the student-owned files of {@code submission} (laid out like exercises/) into {@code upload}, flat, as a file upload holds them. */
    static Path looseFiles(Path submission, Path upload) throws IOException {
        Files.createDirectories(upload);
        for (String owned : StudentFiles.PATHS) {
            Path file = submission.resolve(StudentFiles.SOURCE_ROOT).resolve(owned);
            if (Files.isRegularFile(file)) {
                Files.copy(file, upload.resolve(file.getFileName()));
            }
        }
        for (String beside : StudentFiles.BESIDE_SOURCES) {
            if (Files.isRegularFile(submission.resolve(beside))) {
                Files.copy(submission.resolve(beside), upload.resolve(beside));
            }
        }
        return upload;
    }

    /**
     * Appends one measured figure to {@code target/platform-figures.txt}, which the platform table of
     * {@code grader/README.md} quotes; nothing asserts on it. Classes that run side by side record here too.
     */
    static synchronized void record(String figure) throws IOException {
        Path file = Path.of(System.getProperty("user.dir")).resolve("target/platform-figures.txt");
        Files.writeString(file, figure + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /**
     * Unpacks {@code zip} into {@code target} as a platform unpacks an upload: its files, without their modes, which
     * {@code ZipInputStream} does not read; an entry that would land outside {@code target} fails the test.
     */
    static void unzip(Path zip, Path target) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                Path file = target.resolve(entry.getName()).normalize();
                assertThat(file.startsWith(target)).as("%s stays inside the unpacked zip %s", entry.getName(), zip).isTrue();
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(in, file);
                }
            }
        }
    }
}
