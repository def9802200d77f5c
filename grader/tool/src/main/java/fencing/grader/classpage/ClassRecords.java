package fencing.grader.classpage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ResultsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch's output read into records: {@code gradebook.csv}, {@code batch.json} and each student's
 * {@code results.json}, the same data the gradebook is made of; nothing is read from a report meant for people.
 *
 * @param batch    what {@code batch.json} says
 * @param students one per gradebook row, in its order
 */
record ClassRecords(BatchRecord batch, List<Student> students) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A student of the batch.
     *
     * @param row     the gradebook row
     * @param folder  the student's report folder, relative to the output
     * @param results the results, or null when the folder holds none
     */
    record Student(GradebookRow row, String folder, ResultsFile results) {

        String name() {
            return row.student();
        }

        boolean graded() {
            return row.status() == GradeStatus.GRADED;
        }
    }

    /**
     * Reads the output of a batch or merge in {@code out}.
     *
     * @throws IllegalArgumentException if {@code out} is not such an output, saying what is missing or unreadable
     */
    static ClassRecords read(Path out) throws IOException {
        Path batchFile = out.resolve(BatchRecord.FILE);
        Path gradebook = out.resolve(BatchFolder.GRADEBOOK_CSV);
        if (!Files.isRegularFile(batchFile, LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(gradebook, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(out + " is not the output of ./kit grade --batch or ./kit gradebook merge: it needs"
                    + " batch.json and gradebook.csv");
        }
        BatchRecord batch;
        List<GradebookRow> rows;
        try {
            batch = JSON.readValue(batchFile.toFile(), BatchRecord.class);
            rows = GradebookRow.read(gradebook);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(out + " holds a batch.json or gradebook.csv this kit cannot read ("
                    + e.getOriginalMessage() + "): was it written by another version of the kit?", e);
        } catch (GradebookRow.OtherColumns e) {
            throw new IllegalArgumentException(out + " holds a batch.json or gradebook.csv this kit cannot read ("
                    + e.getMessage() + "): was it written by another version of the kit?", e);
        }
        if (batch.students() == null || batch.graded() == null) {
            throw new IllegalArgumentException(batchFile + " lists no students: it is not a batch record");
        }
        List<Student> students = new ArrayList<>();
        for (GradebookRow row : rows) {
            String folder = BatchFolder.reportFolder(row.student());
            Path results = out.resolve(folder).resolve(ResultsFile.FILE);
            students.add(new Student(row, folder, Files.isRegularFile(results, LinkOption.NOFOLLOW_LINKS)
                    ? ResultsFile.read(results) : null));
        }
        return new ClassRecords(batch, List.copyOf(students));
    }

    /** The students whose submission was graded. */
    List<Student> graded() {
        return students.stream().filter(Student::graded).toList();
    }
}
