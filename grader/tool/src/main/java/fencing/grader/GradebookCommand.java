package fencing.grader;

import fencing.grader.classpage.ClassPage;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gradebook merge OUT1 OUT2 ... --out ALL}: joins the outputs of a sharded batch into one class gradebook. */
@Command(name = "gradebook", mixinStandardHelpOptions = true, subcommands = GradebookCommand.Merge.class,
        description = "Works on the outputs of ./kit grade --batch.")
public final class GradebookCommand implements Callable<Integer> {

    /** The exit code when a student of the class is in no shard: the gradebook is written, and says who is missing. */
    static final int MISSING = 4;

    /** Runs the command; exits non-zero when the shards cannot be merged or a student is missing. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine line = new CommandLine(new GradebookCommand());
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            commandLine.getErr().println("gradebook: " + error.getMessage());
            return error instanceof IllegalArgumentException ? 2 : 1;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(new CommandLine(this), "say what to do: gradebook merge OUT1 OUT2 ... --out ALL");
    }

    /** Merges shard outputs: their students' reports and one gradebook, refusing duplicates, reporting missing students. */
    @Command(name = "merge", mixinStandardHelpOptions = true,
            description = {"Merges the outputs of ./kit grade --batch DIR --shard I/N into one gradebook.",
                    "Refuses a student graded in two shards or shards of different classes; names every student in no shard."})
    static final class Merge implements Callable<Integer> {

        @Parameters(arity = "1..*", paramLabel = "OUT", description = "The shards' output folders.")
        private List<Path> shards;

        @Option(names = "--out", required = true, paramLabel = "ALL", description = "Where the merged reports and gradebook go.")
        private Path out;

        @Option(names = "--similarity-threshold", paramLabel = "PERCENT", description = "List on the class page and in"
                + " similarity.csv the pairs of submissions whose JPlag average similarity is at least PERCENT (default:"
                + " ${DEFAULT-VALUE}). Similarity never changes a score.")
        private double similarityThreshold = ClassPage.DEFAULT_THRESHOLD;

        @Override
        public Integer call() throws IOException {
            if (!ClassPage.validThreshold(similarityThreshold)) {
                throw new IllegalArgumentException("--similarity-threshold is a percentage from 0 to 100, got " + similarityThreshold);
            }
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
                List<String> csv = Files.readAllLines(shard.resolve("gradebook.csv"), StandardCharsets.UTF_8);
                List<String> md = Files.readAllLines(shard.resolve("gradebook.md"), StandardCharsets.UTF_8);
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
            writeMerged(students, gradedIn, csvHeader, csvRows, mdHeader, mdRows, missing);
            BatchRecord.write(out, merged(records, students, gradedIn));
            System.out.printf("Merged %d shard(s): %d of the class's %d student(s). Gradebook: %s%n", shards.size(),
                    gradedIn.size(), students.size(), out.resolve("gradebook.md"));
            System.out.println(ClassPage.write(out, similarityThreshold));
            if (missing.isEmpty()) {
                return 0;
            }
            System.out.println("Missing from every shard (not graded yet): " + String.join(", ", missing));
            return MISSING;
        }

        private void writeMerged(List<String> students, Map<String, Path> gradedIn, String csvHeader, Map<String, String> csvRows,
                                 List<String> mdHeader, Map<String, String> mdRows, List<String> missing) throws IOException {
            Files.createDirectories(out);
            List<String> csv = new ArrayList<>(List.of(csvHeader));
            List<String> md = new ArrayList<>(List.of("# Gradebook", ""));
            md.addAll(mdHeader);
            for (String student : students) {
                if (gradedIn.containsKey(student)) {
                    csv.add(csvRows.get(student));
                    md.add(mdRows.get(student));
                    Path report = gradedIn.get(student).resolve(ClassBatch.reportFolder(student));
                    Path target = out.resolve(ClassBatch.reportFolder(student));
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
            Files.write(out.resolve("gradebook.csv"), csv, StandardCharsets.UTF_8);
            Files.write(out.resolve("gradebook.md"), md, StandardCharsets.UTF_8);
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
}
