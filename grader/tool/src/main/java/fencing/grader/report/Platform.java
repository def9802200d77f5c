package fencing.grader.report;

import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A grading platform whose own result file the grader writes beside the kit's reports, in a folder named after it:
 * {@code OUT/classroom50/result.json}, {@code OUT/prairielearn/results.json}, {@code OUT/artemis/surefire-reports/}.
 * (Gradescope's format is the kit's own
 * {@code results.json}, always written.) A grade that could not run gets no platform file: the platform is told by the
 * exit code, and shows its own error instead of a score.
 */
public enum Platform {

    /** Classroom 50: {@code result.json}; the Release's body is the student's {@link Reports#SUMMARY}, as it is. */
    CLASSROOM50("result.json") {
        @Override
        void write(Grade grade, GradingPolicy policy, Path folder, Map<String, String> environment) throws IOException {
            Files.writeString(folder.resolve(file), Classroom50Result.json(grade, policy, environment, Instant.now()),
                    StandardCharsets.UTF_8);
        }

        @Override
        public List<String> missing(Map<String, String> environment) {
            return Classroom50Result.missing(environment);
        }
    },

    /** PrairieLearn's external grading: {@code results.json}, copied to {@code /grade/results/} by the entrypoint. */
    PRAIRIELEARN("results.json") {
        @Override
        void write(Grade grade, GradingPolicy policy, Path folder, Map<String, String> environment) throws IOException {
            Files.writeString(folder.resolve(file), PrairieLearnResults.json(grade, policy), StandardCharsets.UTF_8);
        }
    },

    /**
     * Artemis's build: one surefire-style XML per graded test class ({@link ArtemisSuite}), in the folder the build
     * script copies to where Artemis collects them. Points and visibility are Artemis's own settings per test name.
     */
    ARTEMIS("surefire-reports") {
        @Override
        void write(Grade grade, GradingPolicy policy, Path folder, Map<String, String> environment) throws IOException {
            Path reports = Files.createDirectories(folder.resolve(file));
            for (ArtemisSuite suite : ArtemisSuite.of(grade)) {
                suite.write(reports);
            }
        }
    };

    final String file;

    Platform(String file) {
        this.file = file;
    }

    /** Returns the platform's name on the command line: {@code classroom50}, {@code prairielearn}, {@code artemis}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Returns where the platform's result file (Artemis's: folder) goes in the reports folder {@code out}. */
    public Path file(Path out) {
        return out.resolve(id()).resolve(file);
    }

    /** Returns the environment variables the platform's file needs that {@code environment} lacks. */
    public List<String> missing(Map<String, String> environment) {
        return List.of();
    }

    /** Writes the platform's files for {@code grade}, which has a score, into {@code folder}. */
    abstract void write(Grade grade, GradingPolicy policy, Path folder, Map<String, String> environment) throws IOException;
}
