package fencing.grader.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * One finished grade of a batch that has not ended yet, kept in the output folder's {@code .progress/} as soon as the
 * student's reports are written, so that a batch stopped part-way and run again grades only what it had not finished;
 * the one record every writer and reader of those files uses.
 *
 * <p>Each student's record is a file of its own, named as the student's reports folder and written whole or not at
 * all (a temporary file renamed over it), so that a batch stopped at any moment leaves each record either there and
 * complete or absent. A grade that could not run has no record: it is never reused.
 *
 * @param format      the batch's record format (the grader's {@code Fingerprints.FORMAT}), as {@code batch.json} keeps it
 * @param grader      the fingerprint of the grader that graded it
 * @param fingerprint the fingerprint of the student files it graded; null for a submission not fit to grade, whose
 *                    files the intake did not take
 * @param row         its gradebook row
 */
public record ProgressRecord(int format, String grader, String fingerprint, GradebookRow row) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /** Checks that the record is one a batch writes: a grade or a refusal, by a grader named, of files named when graded. */
    public ProgressRecord {
        if (grader == null || row == null || row.student() == null || row.status() == null) {
            throw new IllegalArgumentException("a progress record names its grader, its student and what became of them");
        }
        if (row.status() == GradeStatus.COULD_NOT_RUN) {
            throw new IllegalArgumentException("a grade that could not run is never recorded as finished: " + row.student());
        }
        if (row.status() == GradeStatus.GRADED && fingerprint == null) {
            throw new IllegalArgumentException("the progress record of a graded submission names its files' fingerprint: "
                    + row.student());
        }
    }

    /** Returns the student it is the grade of. */
    public String student() {
        return row.student();
    }

    /**
     * Writes the record of its student into the batch output {@code out}, replacing an earlier one at once: a reader
     * sees the earlier record or this one, never a part of it, and this one stays after the machine stops.
     */
    public void write(Path out) throws IOException {
        Path folder = Files.createDirectories(BatchFolder.progress(out));
        Path file = BatchFolder.progressRecord(out, student());
        // A name no record has (a reports folder's name never begins with a dot), so a stop that leaves it is harmless;
        // made with the modes the reports get, unlike a temporary file's owner-only ones.
        Path temporary = folder.resolve("." + UUID.randomUUID() + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(JSON.writeValueAsBytes(this));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot record " + student() + "'s grade in " + folder + " atomically: its file system"
                        + " cannot rename a file over another", e);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Removes {@code student}'s record from the batch output {@code out}, if there is one. */
    public static void delete(Path out, String student) throws IOException {
        Files.deleteIfExists(BatchFolder.progressRecord(out, student));
    }

    /**
     * Reads every record of the batch output {@code out}, by student; none when it has no {@code .progress/}.
     *
     * @throws IllegalArgumentException if a record is damaged (not a record this grader reads, or filed under another
     *                                  student's name), naming it and what to do
     */
    public static Map<String, ProgressRecord> readAll(Path out) throws IOException {
        Path folder = BatchFolder.progress(out);
        Map<String, ProgressRecord> records = new TreeMap<>();
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return records;
        }
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.startsWith(".")) {
                    // A temporary file that a stop left before its rename: no record yet.
                    continue;
                }
                ProgressRecord record = read(file);
                if (!BatchFolder.reportFolder(record.student()).equals(name)) {
                    throw damaged(file, name, "it is the record of " + record.student());
                }
                records.put(record.student(), record);
            }
        }
        return records;
    }

    private static ProgressRecord read(Path file) throws IOException {
        String name = file.getFileName().toString();
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw damaged(file, name, "it is not a file");
        }
        try {
            return JSON.readValue(file.toFile(), ProgressRecord.class);
        } catch (JsonProcessingException e) {
            String why = e.getCause() instanceof IllegalArgumentException invalid ? invalid.getMessage() : e.getOriginalMessage();
            throw damaged(file, name, "it does not read as a progress record: " + why);
        }
    }

    private static IllegalArgumentException damaged(Path file, String student, String why) {
        return new IllegalArgumentException("the progress record " + file + " is damaged (" + why + "): remove it, and the"
                + " submission " + student + " is graded again");
    }
}
