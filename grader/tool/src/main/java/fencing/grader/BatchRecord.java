package fencing.grader;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a batch graded, kept beside its gradebook as {@code batch.json}: which shard, of which class.
 *
 * @param shard    {@code I/N}; {@code 1/1} for a whole class
 * @param students every submission of the class, sharded or not, in the gradebook's order
 * @param graded   the submissions this batch graded
 */
record BatchRecord(String shard, List<String> students, List<String> graded) {

    static final String FILE = "batch.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static void write(Path out, BatchRecord record) throws IOException {
        Files.createDirectories(out);
        JSON.writeValue(out.resolve(FILE).toFile(), record);
    }

    /**
     * Reads the record of the batch output in {@code out}.
     *
     * @throws IllegalArgumentException if {@code out} holds none
     */
    static BatchRecord read(Path out) throws IOException {
        Path file = out.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(out + " is not the output of ./kit grade --batch: it has no " + FILE);
        }
        return JSON.readValue(file.toFile(), BatchRecord.class);
    }
}
