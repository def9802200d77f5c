package fencing.grader.batch;

import fencing.support.FileTrees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
        Map<String, String> csvRows = new LinkedHashMap<>();
        Map<String, String> mdRows = new LinkedHashMap<>();
        String csvHeader = null;
        List<String> mdHeader = null;
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
            List<String> csv = Files.readAllLines(shard.resolve(BatchFolder.GRADEBOOK_CSV), StandardCharsets.UTF_8);
            List<String> md = Files.readAllLines(shard.resolve(BatchFolder.GRADEBOOK_MD), StandardCharsets.UTF_8);
            List<String> mdTable = md.stream().filter(line -> line.startsWith("|")).toList();
            if (csv.size() - 1 != record.graded().size() || mdTable.size() - 2 != record.graded().size()) {
                throw new IllegalArgumentException(shard + "'s gradebook does not list the " + record.graded().size()
                        + " students its " + BatchRecord.FILE + " says it graded");
            }
            csvHeader = csvHeader == null ? csv.get(0) : requireSame(csvHeader, csv.get(0), shard);
            mdHeader = mdHeader == null ? mdTable.subList(0, 2) : mdHeader;
            for (int i = 0; i < record.graded().size(); i++) {
                String student = record.graded().get(i);
                Path earlier = gradedIn.putIfAbsent(student, shard);
                if (earlier != null) {
                    throw new IllegalArgumentException("the student " + student + " is graded in two shards, " + earlier
                            + " and " + shard + ": merge each student once");
                }
                csvRows.put(student, csv.get(i + 1));
                mdRows.put(student, mdTable.get(i + 2));
            }
        }
        List<String> missing = students.stream().filter(student -> !gradedIn.containsKey(student)).toList();
        writeMerged(out, students, gradedIn, csvHeader, csvRows, mdHeader, mdRows, missing);
        BatchRecord.write(out, merged(records, students, gradedIn));
        console.printf("Merged %d shard(s): %d of the class's %d student(s). Gradebook: %s%n", shards.size(),
                gradedIn.size(), students.size(), out.resolve(BatchFolder.GRADEBOOK_MD));
        if (missing.isEmpty()) {
            return 0;
        }
        console.println("Missing from every shard (not graded yet): " + String.join(", ", missing));
        return MISSING;
    }

    private static void writeMerged(Path out, List<String> students, Map<String, Path> gradedIn, String csvHeader, Map<String, String> csvRows,
                                List<String> mdHeader, Map<String, String> mdRows, List<String> missing) throws IOException {
        Files.createDirectories(out);
        List<String> csv = new ArrayList<>(List.of(csvHeader));
        List<String> md = new ArrayList<>(List.of("# Gradebook", ""));
        md.addAll(mdHeader);
        for (String student : students) {
            if (gradedIn.containsKey(student)) {
                csv.add(csvRows.get(student));
                md.add(mdRows.get(student));
                Path report = BatchFolder.reports(gradedIn.get(student), student);
                Path target = BatchFolder.reports(out, student);
                if (Files.isDirectory(report)) {
                    FileTrees.delete(target);
                    FileTrees.copy(report, target);
                }
            }
        }
        if (!missing.isEmpty()) {
            md.add("");
            md.add("Missing from every shard: " + String.join(", ", missing));
        }
        Files.write(out.resolve(BatchFolder.GRADEBOOK_CSV), csv, StandardCharsets.UTF_8);
        Files.write(out.resolve(BatchFolder.GRADEBOOK_MD), md, StandardCharsets.UTF_8);
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

    private static String requireSame(String expected, String actual, Path shard) {
        if (!expected.equals(actual)) {
            throw new IllegalArgumentException(shard + "'s gradebook has other columns (" + actual + ") than the first shard's ("
                    + expected + "): grade every shard with the same kit");
        }
        return expected;
    }
}
