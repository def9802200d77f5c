package fencing.grader;

import fencing.support.Etcd;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The grading tool: {@code grade SUBMISSION [--out DIR]}, or {@code grade --batch DIR --out OUT} for a class. */
@Command(name = "grade", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Grades a submission laid out like exercises/ (src/main/java/fencing/...).",
                "Only the student-owned files are taken from it; everything else comes from the kit.",
                "Writes results.json (Gradescope format), summary.md and junit/*.xml."})
public final class GradeCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "SUBMISSION", description = "The submission directory.")
    private Path submission;

    @Option(names = "--batch", paramLabel = "DIR", description = "Grade every submission folder in DIR (one per student).")
    private Path batch;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the reports go (default: build/grade/<submission>, or build/gradebook for a batch).")
    private Path out;

    @Option(names = "--suite", defaultValue = "hidden", paramLabel = "hidden|public",
            description = "Which tests to run (default: ${DEFAULT-VALUE}).")
    private String suite;

    @Option(names = "--no-etcd", description = "Skip the tests that need a real etcd.")
    private boolean noEtcd;

    @Option(names = "--test-timeout", defaultValue = "10", paramLabel = "SECONDS", description = "Limit for one test (default: ${DEFAULT-VALUE}).")
    private int testTimeout;

    @Option(names = "--time-limit", defaultValue = "300", paramLabel = "SECONDS", description = "Limit for one submission's whole run (default: ${DEFAULT-VALUE}).")
    private int timeLimit;

    /** Runs the grading tool; exits non-zero only when grading itself could not run. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the grading tool with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine line = new CommandLine(new GradeCommand());
        line.setCaseInsensitiveEnumValuesAllowed(true);
        line.setExecutionExceptionHandler((error, commandLine, parsed) -> {
            commandLine.getErr().println("grade: grading could not run: " + error.getMessage());
            return 1;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if ((submission == null) == (batch == null)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "give either SUBMISSION or --batch DIR, not both and not neither");
        }
        if (testTimeout < 1 || timeLimit < testTimeout) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--test-timeout must be at least 1 s and --time-limit at least the test timeout");
        }
        TestSuite tests = switch (suite.toLowerCase(Locale.ROOT)) {
            case "hidden" -> TestSuite.HIDDEN;
            case "public" -> TestSuite.PUBLIC;
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "--suite must be hidden or public, got " + suite);
        };
        List<Path> submissions = batch == null ? List.of(requireDirectory(submission)) : listSubmissions(requireDirectory(batch));
        Etcd etcd = noEtcd ? null : Etcd.provide();
        try {
            try (Grader grader = new Grader(new Grader.Options(tests, !noEtcd, etcd == null ? null : etcd.endpoints(),
                    Duration.ofSeconds(testTimeout), Duration.ofSeconds(timeLimit),
                    // In a batch, no student's tests may read another student's submission.
                    batch == null ? List.of() : List.of(batch.toAbsolutePath())))) {
                return batch == null ? gradeOne(grader) : gradeBatch(grader, submissions);
            }
        } finally {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    private int gradeOne(Grader grader) throws IOException, InterruptedException {
        Path dir = out != null ? out : Path.of("build", "grade", submission.toAbsolutePath().normalize().getFileName().toString());
        Grade grade = grader.grade(submission, prefix(submission));
        Reports.write(grade, dir);
        System.out.println(line(grade) + "  →  " + dir.resolve("summary.md"));
        if (!grade.compiled()) {
            System.out.println("Compilation failed:\n" + grade.compilerOutput());
        }
        return 0;
    }

    private int gradeBatch(Grader grader, List<Path> submissions) throws IOException, InterruptedException {
        Path dir = out != null ? out : Path.of("build", "gradebook");
        List<Grade> grades = new ArrayList<>();
        long start = System.nanoTime();
        for (Path one : submissions) {
            Grade grade = grader.grade(one, prefix(one));
            Reports.write(grade, dir.resolve(grade.submission()));
            grades.add(grade);
            System.out.println(line(grade));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Gradebook.write(grades, dir);
        System.out.printf(Locale.ROOT, "Graded %d submission(s) in %.1f s: %.1f s per submission. Gradebook: %s%n",
                grades.size(), seconds, seconds / Math.max(1, grades.size()), dir.resolve("gradebook.md"));
        return 0;
    }

    private static String line(Grade grade) {
        String failed = grade.failedTags().isEmpty() ? "" : "  failed: " + String.join(", ", grade.failedTags());
        return String.format(Locale.ROOT, "%-24s %3d / %3d  in %5.1f s%s%s", grade.submission(), grade.score(),
                grade.maxScore(), grade.seconds(), grade.compiled() ? "" : "  (compilation failed)", failed);
    }

    private static String prefix(Path submission) {
        return "grade/" + submission.toAbsolutePath().normalize().getFileName() + "-" + UUID.randomUUID();
    }

    private static Path requireDirectory(Path path) {
        if (!Files.isDirectory(path)) {
            throw new IllegalArgumentException("not a directory: " + path.toAbsolutePath());
        }
        return path;
    }

    private static List<Path> listSubmissions(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            List<Path> found = children.filter(Files::isDirectory).filter(child -> !child.getFileName().toString().startsWith("."))
                    .sorted().toList();
            if (found.isEmpty()) {
                throw new IllegalArgumentException("no submission folders in " + dir.toAbsolutePath());
            }
            return found;
        }
    }

    /** The class gradebook: {@code gradebook.csv} and {@code gradebook.md}. */
    static final class Gradebook {

        private Gradebook() {
        }

        static void write(List<Grade> grades, Path dir) throws IOException {
            Files.createDirectories(dir);
            try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(dir.resolve("gradebook.csv"), StandardCharsets.UTF_8))) {
                csv.println("student,score,max,failed_tags,answers_to_read");
                for (Grade grade : grades) {
                    csv.printf(Locale.ROOT, "%s,%d,%d,%s,%d%n", csvField(grade.submission()), grade.score(), grade.maxScore(),
                            csvField(String.join(" ", grade.failedTags())), grade.answersToRead());
                }
            }
            StringBuilder md = new StringBuilder("# Gradebook\n\n| Student | Score | Max | Failed tags | Answers to read |\n"
                    + "|---|---|---|---|---|\n");
            for (Grade grade : grades) {
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %d |%n", grade.submission().replace("|", "\\|"),
                        grade.score(), grade.maxScore(), String.join(", ", grade.failedTags()), grade.answersToRead()));
            }
            Files.writeString(dir.resolve("gradebook.md"), md, StandardCharsets.UTF_8);
        }

        private static String csvField(String text) {
            return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
        }
    }
}
