package fencing.grader.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code results.json} written and read back, and as the kit wrote it before it recorded a grade's status: the
 * {@code before-codec} files are a real grade of the solutions, a real refusal (its tests cut to two) and a grade that
 * could not run, written as the grader of that time wrote it.
 */
class ResultsFileTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("a results.json written and read back is the same record, for a graded, a refused and an ungraded submission")
    void aWrittenFileReadsBackAsTheSameRecord() throws IOException {
        ResultsFile.Test passed = new ResultsFile.Test("QuorumGradedTests › a majority", 2, 2, ResultsFile.Verdict.PASSED, "",
                "text", List.of("quorum"), "visible");
        ResultsFile.Test explanation = new ResultsFile.Test("ANSWERS.md question 9: Why? (explanation, for staff)", 0, 0,
                ResultsFile.Verdict.FAILED, "nothing written", "text", List.of("reasoning", ResultsFile.Test.EXPLANATION_TAG), "hidden");
        ResultsFile.Extra extra = new ResultsFile.Extra(List.of(new ResultsFile.Explanation(9, "Why?", "Because, \"quoted\".",
                "Names the mark.", List.of("token=7 is not in evidence.json"))), List.of("predictions committed after the code"));
        List<ResultsFile> files = List.of(
                new ResultsFile(2, 2, "Score: 2 / 2", "text", "visible", "hidden", List.of(passed, explanation), extra, GradeStatus.GRADED),
                new ResultsFile(0, 2, "not graded: it is empty", "text", "visible", "hidden", List.of(), null, GradeStatus.NOT_GRADED),
                new ResultsFile(null, 2, "grading could not run: etcd", "text", "visible", "hidden", List.of(), null,
                        GradeStatus.COULD_NOT_RUN));

        for (ResultsFile file : files) {
            file.write(dir.resolve(ResultsFile.FILE));
            assertThat(ResultsFile.read(dir.resolve(ResultsFile.FILE))).as("%s read back", file.status()).isEqualTo(file);
        }
    }

    @Test
    @DisplayName("a results.json written before the status was recorded reads with the status its score and output imply")
    void anEarlierFileReadsWithItsStatusDerived() throws IOException {
        ResultsFile graded = ResultsFile.parse(resource("results-graded.json"));
        ResultsFile refused = ResultsFile.parse(resource("results-not-graded.json"));
        ResultsFile failed = ResultsFile.parse(resource("results-could-not-run.json"));

        assertThat(graded.status()).as("the status of the solutions' grade").isEqualTo(GradeStatus.GRADED);
        assertThat(graded.score()).as("the solutions' score").isEqualTo(178);
        assertThat(graded.tests()).as("the solutions' tests").hasSize(97).allMatch(ResultsFile.Test::passed);
        assertThat(graded.explanations()).as("the explanations kept for staff").isNotEmpty();
        assertThat(refused.status()).as("the status of a refusal").isEqualTo(GradeStatus.NOT_GRADED);
        assertThat(failed.status()).as("the status of a grade without a score").isEqualTo(GradeStatus.COULD_NOT_RUN);
        assertThat(failed.score()).as("the score of a grade that could not run").isNull();
    }

    @Test
    @DisplayName("an earlier results.json written again is the same text with the status added last: no key renamed or moved")
    void anEarlierFileIsWrittenAgainWithTheSameKeys() throws IOException {
        for (String name : List.of("results-graded.json", "results-not-graded.json", "results-could-not-run.json")) {
            String before = resource(name);
            ResultsFile file = ResultsFile.parse(before);
            String status = switch (file.status()) {
                case GRADED -> "graded";
                case NOT_GRADED -> "not_graded";
                case COULD_NOT_RUN -> "could_not_run";
            };

            assertThat(file.json()).as("%s written again", name)
                    .isEqualTo(before.substring(0, before.lastIndexOf('\n')) + ",\n  \"status\" : \"" + status + "\"\n}");
        }
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ResultsFileTests.class.getResourceAsStream("before-codec/" + name)) {
            assertThat(in).as("the test resource %s", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
