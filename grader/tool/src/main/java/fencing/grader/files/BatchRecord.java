package fencing.grader.files;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a batch graded, kept beside its gradebook as {@code batch.json}: which shard, of which class, and the
 * fingerprints a later {@code --since} compares to reuse a result; the one record every writer and reader of the file uses.
 *
 * @param shard        {@code I/N}; {@code 1/1} for a whole class
 * @param students     every submission of the class, sharded or not, in the gradebook's order
 * @param graded       the submissions this batch graded (or reused), in its gradebook's order
 * @param format       the version of this record (the batch's {@code Fingerprints.FORMAT}); null in a batch from before there
 *                     was one, which a regrade cannot start from
 * @param grader       the grader's fingerprint; null when the record's grades come from different graders
 * @param fingerprints the fingerprint of each graded submission's student files, for those whose grade may be
 *                     reused: the ones graded (not the ones refused or that could not be graded)
 * @param reused       the submissions whose grade was taken from an earlier batch rather than graded again
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BatchRecord(String shard, List<String> students, List<String> graded, Integer format, String grader,
                   Map<String, String> fingerprints, List<String> reused) {

    /** The students of the class this output does not hold: those of another shard, or missing from every one. */
    public List<String> missing() {
        return students.stream().filter(student -> !graded.contains(student)).toList();
    }

    public static final String FILE = "batch.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Writes {@code record} as the {@code batch.json} of the batch output in {@code out}. */
    public static void write(Path out, BatchRecord record) throws IOException {
        Files.createDirectories(out);
        JSON.writeValue(out.resolve(FILE).toFile(), record);
    }

    /**
     * Reads the record of the batch output in {@code out}.
     *
     * @throws IllegalArgumentException if {@code out} holds none
     */
    public static BatchRecord read(Path out) throws IOException {
        Path file = out.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(out + " is not the output of ./kit grade --batch: it has no " + FILE);
        }
        BatchRecord record;
        try {
            record = JSON.readValue(file.toFile(), BatchRecord.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not a batch record this grader can read (" + e.getOriginalMessage()
                    + "): was it written by another version of the kit?", e);
        }
        if (record.students() == null || record.graded() == null) {
            throw new IllegalArgumentException(file + " is not a batch record: it lists no students");
        }
        return record;
    }
}
