package fencing.grader.batch;

import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradebookRow;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Joins the outputs of a sharded batch into one class gradebook: every student's reports and one gradebook, refusing a
 * student graded in two shards or shards of different classes, and naming the students no shard graded.
 */
public final class ShardMerge {

    /** The exit code when a student of the class is in no shard: the gradebook is written, and says who is missing. */
    public static final int MISSING = 4;

    private ShardMerge() {
    }

    /**
     * Merges the outputs of {@code shards} into {@code out}: their students' reports and one gradebook.
     *
     * @return 0, or {@link #MISSING} when a student of the class is in no shard
     * @throws IllegalArgumentException when the shards cannot be merged (a student in two, shards of different classes)
     */
    public static int merge(List<Path> shards, Path out, PrintStream console) throws IOException {
        List<String> students = null;
        Map<String, Path> gradedIn = new LinkedHashMap<>();
        Map<String, GradebookRow> rows = new LinkedHashMap<>();
        List<BatchRecord> records = new ArrayList<>();
        for (Path shard : shards) {
            BatchRecord record = BatchRecord.read(shard);
            records.add(record);
            if (students == null) {
                students = record.students();
            } else if (!students.equals(record.students())) {
                throw new IllegalArgumentException(shard + " is a shard of another class: its students differ from "
                        + shards.get(0) + "'s");
            }
            List<GradebookRow> gradebook = gradebook(shard);
            if (!gradebook.stream().map(GradebookRow::student).toList().equals(record.graded())) {
                throw new IllegalArgumentException(shard + "'s gradebook does not list the " + record.graded().size()
                        + " students its " + BatchRecord.FILE + " says it graded");
            }
            for (GradebookRow row : gradebook) {
                Path earlier = gradedIn.putIfAbsent(row.student(), shard);
                if (earlier != null) {
                    throw new IllegalArgumentException("the student " + row.student() + " is graded in two shards, " + earlier
                            + " and " + shard + ": merge each student once");
                }
                rows.put(row.student(), row);
            }
        }
        List<String> missing = students.stream().filter(student -> !gradedIn.containsKey(student)).toList();
        writeMerged(out, students, gradedIn, rows, missing);
        BatchRecord.write(out, merged(records, students, gradedIn));
        console.printf("Merged %d shard(s): %d of the class's %d student(s). Gradebook: %s%n", shards.size(),
                gradedIn.size(), students.size(), out.resolve(BatchFolder.GRADEBOOK_MD));
        if (missing.isEmpty()) {
            return 0;
        }
        console.println("Missing from every shard (not graded yet): " + String.join(", ", missing));
        return MISSING;
    }

    private static List<GradebookRow> gradebook(Path shard) throws IOException {
        try {
            return GradebookRow.read(shard.resolve(BatchFolder.GRADEBOOK_CSV));
        } catch (GradebookRow.OtherColumns e) {
            throw new IllegalArgumentException(shard + "'s gradebook has other columns (" + e.found() + ") than this grader"
                    + " writes (" + GradebookRow.HEADER + "): grade every shard with the same kit", e);
        }
    }

    private static void writeMerged(Path out, List<String> students, Map<String, Path> gradedIn, Map<String, GradebookRow> rows,
                                    List<String> missing) throws IOException {
        Files.createDirectories(out);
        for (String student : students) {
            if (gradedIn.containsKey(student)) {
                Path report = BatchFolder.reports(gradedIn.get(student), student);
                Path target = BatchFolder.reports(out, student);
                if (Files.isDirectory(report)) {
                    FileTrees.delete(target);
                    FileTrees.copy(report, target);
                }
            }
        }
        Gradebook.write(students.stream().filter(gradedIn::containsKey).map(rows::get).toList(), out,
                missing.isEmpty() ? List.of() : List.of("", "Missing from every shard: " + String.join(", ", missing)));
    }

    /** The record of the merged gradebook; its results can be reused only if every shard had the same grader. */
    private static BatchRecord merged(List<BatchRecord> records, List<String> students, Map<String, Path> gradedIn) {
        List<String> graders = records.stream().map(BatchRecord::grader).distinct().toList();
        boolean sameGrader = graders.size() == 1 && graders.get(0) != null
                && records.stream().allMatch(record -> Integer.valueOf(Fingerprints.FORMAT).equals(record.format()));
        Map<String, String> fingerprints = new TreeMap<>();
        List<String> reused = new ArrayList<>();
        for (BatchRecord record : records) {
            if (sameGrader && record.fingerprints() != null) {
                fingerprints.putAll(record.fingerprints());
            }
            if (record.reused() != null) {
                reused.addAll(record.reused());
            }
        }
        return new BatchRecord("1/1", students, students.stream().filter(gradedIn::containsKey).toList(), Fingerprints.FORMAT,
                sameGrader ? graders.get(0) : null, fingerprints, students.stream().filter(reused::contains).toList());
    }
}
