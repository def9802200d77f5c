package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fencing.grader.batch.ClassBatch;
import fencing.grader.cli.GradeCommand;
import fencing.grader.files.BatchFolder;
import fencing.grader.files.BatchRecord;
import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ProgressRecord;
import fencing.grader.files.ResultsFile;
import fencing.grader.files.SubmissionFolders;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.TestSuite;
import fencing.support.FileTrees;
import fencing.support.LoopbackPorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grading tool's contract with instructors: report formats, compilation failures, bad input, and its exit codes. */
class GradeCommandTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("a submission with a file that does not compile is graded, that file as the kit's stub: a score, exit"
            + " code 0, and results.json's output and summary.md naming the file and its first error")
    void aFileThatDoesNotCompileIsSetAsideNotFatal() throws Exception {
        Path submission = GradingFixtures.submissionWith(dir.resolve("broken"), "fencing/basics/Resource.java",
                "package fencing.basics;\npublic final class Resource implements ProtectedResource { oops }\n");
        Path out = dir.resolve("out");

        int exit = GradeCommand.run(submission.toString(), "--out", out.toString(), "--no-etcd");

        assertThat(exit).as("exit code of the grading tool on a submission whose Resource.java does not compile").isZero();
        ResultsFile results = ResultsFile.read(out.resolve(ResultsFile.FILE));
        assertThat(results.status()).as("the status in results.json of a submission with a file set aside")
                .isEqualTo(GradeStatus.GRADED);
        assertThat(results.score()).as("the score in results.json, Resource.java set aside").isPositive()
                .isLessThan(results.maxScore());
        String error = "did not compile: src/main/java/fencing/basics/Resource.java:2: ";
        assertThat(results.output()).as("results.json's output").startsWith("Score: ").contains(error);
        assertThat(results.tests()).as("results.json's tests of Resource").anySatisfy(test -> {
            assertThat(test.status()).as("the verdict of %s", test.name()).isEqualTo(ResultsFile.Verdict.FAILED);
            assertThat(test.output()).as("the message of %s", test.name()).startsWith(error);
        });
        assertThat(Files.readString(out.resolve("summary.md"))).as("summary.md").contains(error)
                .doesNotContain("Compilation failed");
    }

    @Test
    @DisplayName("results.json follows Gradescope's format, with tags and a message a student can act on")
    void resultsJsonHasGradescopeFields() throws Exception {
        Path out = dir.resolve("out");

        int exit = GradeCommand.run(KitLocations.exercises().toString(), "--out", out.toString(), "--no-etcd");

        assertThat(exit).isZero();
        // Read raw as well: the keys and their types are Gradescope's format, which reading the record would not show.
        JsonNode raw = new ObjectMapper().readTree(out.resolve(ResultsFile.FILE).toFile());
        assertThat(raw.path("output").isTextual()).as("whether results.json's output is text").isTrue();
        assertThat(raw.path("tests")).as("results.json's tests, as Gradescope reads them").isNotEmpty().allSatisfy(test -> assertThat(
                test.fieldNames()).toIterable().contains("name", "score", "max_score", "status", "output", "tags", "visibility"));
        ResultsFile results = ResultsFile.read(out.resolve(ResultsFile.FILE));
        assertThat(results.score()).as("the score in results.json of the stubs").isNotNull();
        assertThat(results.tests()).as("results.json's tests of the stubs").isNotEmpty().allSatisfy(test -> {
            assertThat(test.status()).as("the verdict of %s", test.name()).isEqualTo(ResultsFile.Verdict.FAILED);
            assertThat(test.output()).as("the message of %s", test.name()).matches(ReferenceGradesTests.NOT_DONE_YET);
        });
        try (var xml = Files.list(out.resolve("junit"))) {
            assertThat(xml.map(Path::getFileName).map(Path::toString)).isNotEmpty().allMatch(name -> name.startsWith("TEST-"));
        }
    }

    @Test
    @DisplayName("--no-extensions grades the core alone; the summary and the gradebook give the core and extension subtotals")
    void noExtensionsGradesTheCoreAloneAndReportsSubtotals() throws Exception {
        Path batch = Files.createDirectories(dir.resolve("class"));
        FileTrees.copy(KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT),
                batch.resolve("stubs").resolve(StudentFiles.SOURCE_ROOT));
        Path whole = dir.resolve("whole");
        Path core = dir.resolve("core");

        assertThat(GradeCommand.run("--batch", batch.toString(), "--out", whole.toString(), "--no-etcd")).isZero();
        assertThat(GradeCommand.run("--batch", batch.toString(), "--out", core.toString(), "--no-etcd", "--no-extensions")).isZero();

        ResultsFile all = ResultsFile.read(whole.resolve("stubs").resolve(ResultsFile.FILE));
        ResultsFile coreOnly = ResultsFile.read(core.resolve("stubs").resolve(ResultsFile.FILE));
        assertThat(all.tests()).as("tests graded without --no-extensions")
                .anyMatch(test -> test.tags().contains(TestSuite.EXTENSION_TAG));
        assertThat(coreOnly.tests()).as("tests graded with --no-extensions").isNotEmpty()
                .noneMatch(test -> test.tags().contains(TestSuite.EXTENSION_TAG));
        assertThat(Files.readString(whole.resolve("stubs/summary.md")))
                .containsPattern("Core \\(Parts 1–3\\): 0 / \\d+ · Extension tasks: 0 / \\d+");
        assertThat(Files.readString(core.resolve("stubs/summary.md"))).contains("Extension tasks: not graded");
        // Read raw: the header is the columns an instructor's spreadsheet relies on, pinned here as written.
        assertThat(Files.readAllLines(whole.resolve("gradebook.csv")))
                .first().isEqualTo("student,score,max,failed_tags,status,core,core_max,extension,extension_max,answers_to_read");
        assertThat(GradebookRow.read(whole.resolve("gradebook.csv"))).as("the gradebook's rows without --no-extensions")
                .singleElement().satisfies(row -> {
                    assertThat(row.core()).as("the stubs' core subtotal").isZero();
                    assertThat(row.coreMax()).as("the core's points available").isPositive();
                    assertThat(row.extension()).as("the stubs' extension subtotal").isZero();
                    assertThat(row.extensionMax()).as("the extension tasks' points available").isPositive();
                });
        assertThat(GradebookRow.read(core.resolve("gradebook.csv"))).as("the gradebook's rows with --no-extensions")
                .singleElement().satisfies(row -> assertThat(row.extensionMax())
                        .as("the extension tasks' points available, not graded").isZero());
        assertThat(Files.readString(core.resolve("gradebook.md"))).contains("| Core | Extension |").contains("not graded");
    }

    @Test
    @DisplayName("a submission that defines a class it does not own is rejected: it could shadow a hidden test")
    void foreignClassIsRejected() throws Exception {
        Path submission = GradingFixtures.submissionWith(dir.resolve("sneaky"), "fencing/basics/Quorum.java",
                Files.readString(KitLocations.solutions().resolve("src/main/java/fencing/basics/Quorum.java"))
                        + "\nclass ResourceGradedTests {\n}\n");

        Grade grade = GradingFixtures.grade(submission);

        assertThat(grade.status()).as("what became of a submission with a foreign class").isEqualTo(Grade.Status.NOT_GRADED);
        assertThat(grade.reason()).as("why it was not graded")
                .startsWith("not graded: unexpected extra class").contains("fencing/basics/ResourceGradedTests.class");
        assertThat(grade.score()).as("its score").isZero();
    }

    @Test
    @DisplayName("grading a path that is not a folder is bad usage: exit 2, a message naming it, and nothing written")
    void missingSubmissionIsBadUsage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        int exit;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            exit = GradeCommand.run(dir.resolve("nowhere").toString(), "--out", dir.resolve("out").toString(), "--no-etcd");
        } finally {
            System.setErr(original);
        }

        assertThat(exit).as("exit code of the grading tool on a folder that does not exist; it said:%n%s", err)
                .isEqualTo(GradeCommand.BAD_USAGE).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).as("what it said").contains("not a directory").contains("nowhere");
        assertThat(dir.resolve("out")).as("the out folder of a refused command line").doesNotExist();
    }

    @Test
    @DisplayName("an etcd that does not answer at ETCD_ENDPOINTS: exit 3, 'grading could not run' said and in summary.md, no score")
    void anUnreachableEtcdExitsThree() throws Exception {
        int closed = LoopbackPorts.reserve();
        Path out = dir.resolve("out");

        CommandRun run = gradeCommand(Map.of("ETCD_ENDPOINTS", "http://127.0.0.1:" + closed),
                KitLocations.solutions().toString(), "--out", out.toString());

        assertThat(run.exit()).as("exit code of the grading tool with etcd unreachable; it said:%n%s", run.output())
                .isEqualTo(ClassBatch.SOME_COULD_NOT_RUN).isEqualTo(3);
        assertThat(run.output()).as("what it said").contains("grading could not run: etcd is not healthy").contains(Integer.toString(closed));
        assertThat(Files.readString(out.resolve("summary.md"))).as("summary.md").contains("No score: grading could not run");
        assertThat(ResultsFile.read(out.resolve(ResultsFile.FILE)).score()).as("a score in results.json").isNull();
    }

    @Test
    @DisplayName("no etcd to be had at all (KIT_ETCD=binary, none on PATH): exit 3 and 'grading could not run', not a crash's 1")
    void noEtcdToBeHadExitsThree() throws Exception {
        Path emptyPath = Files.createDirectories(dir.resolve("empty-path"));

        CommandRun run = gradeCommand(Map.of("KIT_ETCD", "binary", "PATH", emptyPath.toString()),
                KitLocations.solutions().toString(), "--out", dir.resolve("out").toString());

        assertThat(run.exit()).as("exit code of the grading tool with no etcd binary to start; it said:%n%s", run.output())
                .isEqualTo(ClassBatch.SOME_COULD_NOT_RUN);
        assertThat(run.output()).as("what it said").contains("grade: grading could not run").contains("no etcd binary is on PATH");
    }

    /** Returns a loopback port nothing listens on: one just opened and closed again. */
    /** Runs the grading tool in a JVM of its own, as ./kit grade and the platform templates start it, with {@code changes} to the environment. */
    private CommandRun gradeCommand(Map<String, String> changes, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + KitLocations.root().resolve("grader/tool/target/launcher/grade.args"), GradeCommand.class.getName()));
        command.addAll(List.of(arguments));
        return CommandRun.of(command, changes, KitLocations.root(), dir.resolve("grade.log"), java.time.Duration.ofMinutes(5));
    }

    @Test
    @DisplayName("a directory not laid out like exercises/ is not graded: score 0, a report that says what was expected, and exit 0")
    void directoryWithoutSourcesIsNotGraded() throws Exception {
        Path flat = Files.createDirectories(dir.resolve("flat"));
        Files.writeString(flat.resolve("Quorum.java"), "class Quorum {}\n");

        Grade grade = GradingFixtures.grader(TestSuite.HIDDEN).grade(flat, "x");
        int exit = GradeCommand.run(flat.toString(), "--out", dir.resolve("out").toString(), "--no-etcd");

        assertThat(grade.status()).as("what became of a folder without src/main/java").isEqualTo(Grade.Status.NOT_GRADED);
        assertThat(grade.reason()).as("why").contains("no src/main/java/ folder").contains("Found:\n  Quorum.java")
                .contains("Expected:").contains("src/main/java/fencing/basics/Quorum.java");
        assertThat(grade.score()).as("its score").isZero();
        assertThat(exit).as("exit code of the grading tool on a submission not fit to grade: it got a grade").isZero();
    }

    @Test
    @DisplayName("a grader whose etcd does not answer reports 'grading could not run' with no score, and the batch exits non-zero")
    void etcdUnreachableIsNotAStudentsZero() throws Exception {
        int closedPort = LoopbackPorts.reserve();
        Path batch = dir.resolve("batch");
        for (String student : List.of("alice", "bob")) {
            FileTrees.copy(KitLocations.solutions().resolve("src"), batch.resolve(student).resolve("src"));
        }
        Path out = dir.resolve("out");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        int exit;
        try (Grader gone = new Grader(new Grader.Options(TestSuite.HIDDEN, true, "http://127.0.0.1:" + closedPort))) {
            exit = new ClassBatch(gone, 2, new PrintStream(console, true, StandardCharsets.UTF_8))
                    .grade(SubmissionFolders.list(batch), out);
        }

        assertThat(exit).as("the batch's exit code; it said:%n%s", console).isEqualTo(ClassBatch.SOME_COULD_NOT_RUN);
        ResultsFile results = ResultsFile.read(out.resolve("alice").resolve(ResultsFile.FILE));
        assertThat(results.score()).as("a score in results.json of a grade that could not run").isNull();
        assertThat(results.output()).as("results.json's output")
                .startsWith("grading could not run: etcd is not healthy").contains(Integer.toString(closedPort));
        assertThat(Files.readString(out.resolve("alice/summary.md"))).as("the student's report").contains("No score: grading could not run");
        assertThat(GradebookRow.read(out.resolve("gradebook.csv"))).as("the gradebook: no score, and why")
                .extracting(GradebookRow::student).containsExactlyInAnyOrder("alice", "bob");
        for (GradebookRow row : GradebookRow.read(out.resolve("gradebook.csv"))) {
            assertThat(row.score()).as("%s's score in the gradebook", row.student()).isNull();
            assertThat(row.max()).as("%s's points available in the gradebook, against results.json's", row.student())
                    .isEqualTo(results.maxScore());
            assertThat(row.failedTags()).as("%s's failed tags in the gradebook", row.student()).isEmpty();
            assertThat(row.status()).as("%s's status in the gradebook", row.student()).isEqualTo(GradeStatus.COULD_NOT_RUN);
            assertThat(row.statusLine()).as("%s's status column in the gradebook", row.student()).startsWith("grading could not run: etcd");
        }
        assertThat(console.toString(StandardCharsets.UTF_8)).as("the console")
                .contains("Grading could not run for 2 submission(s)").contains("alice: grading could not run");
        assertThat(out.resolve(BatchFolder.PROGRESS)).as("the progress records of a batch whose every grade could not run").doesNotExist();
    }

    @Test
    @DisplayName("a batch some of whose grades could not run keeps the others' records, and run again grades only those that could not")
    void aBatchRunAgainAfterGradesThatCouldNotRunGradesOnlyThose() throws Exception {
        int closedPort = LoopbackPorts.reserve();
        Path batch = dir.resolve("batch");
        FileTrees.copy(KitLocations.solutions().resolve("src"), batch.resolve("alice").resolve("src"));
        // Finished before etcd is asked for: a submission not fit to grade is refused without running a test.
        UnfitSubmissions.build(KitLocations.catalog().resolve("unfit/binary-file"), batch.resolve("dora"));
        Path out = dir.resolve("out");
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        int firstExit;
        int againExit;
        try (Grader gone = new Grader(new Grader.Options(TestSuite.HIDDEN, true, "http://127.0.0.1:" + closedPort))) {
            firstExit = new ClassBatch(gone, 2, new PrintStream(first, true, StandardCharsets.UTF_8)).grade(SubmissionFolders.list(batch), out);
            assertThat(ProgressRecord.readAll(out)).as("the progress records of the batch with alice's grade that could not run")
                    .containsOnlyKeys("dora");
            assertThat(out.resolve(BatchRecord.FILE)).as("the batch.json of the batch that ended").isRegularFile();
            againExit = new ClassBatch(gone, 2, new PrintStream(again, true, StandardCharsets.UTF_8)).grade(SubmissionFolders.list(batch), out);
        }

        assertThat(List.of(firstExit, againExit)).as("exit codes of the batch and of it run again; they said:%n%s%n%s", first, again)
                .containsExactly(ClassBatch.SOME_COULD_NOT_RUN, ClassBatch.SOME_COULD_NOT_RUN);
        assertThat(again.toString(StandardCharsets.UTF_8)).as("what the batch run again said")
                // dora's refusal is kept as a record, and checked again, which costs nothing; only a grade counts as done.
                .contains("Continuing the stopped batch in " + out + ": 0 of 2 already graded.")
                .contains("alice: grading could not run");
        assertThat(GradebookRow.read(out.resolve("gradebook.csv"))).as("the gradebook of the batch run again")
                .extracting(GradebookRow::student, GradebookRow::status)
                .containsExactly(tuple("alice", GradeStatus.COULD_NOT_RUN),
                        tuple("dora", GradeStatus.NOT_GRADED));
    }
}
