package fencing.grader.classpage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.files.GradeStatus;
import fencing.grader.files.GradebookRow;
import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.Explanation;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import fencing.grader.pipeline.TestResult;
import fencing.grader.report.Reports;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class page reads the explanations back from the results.json the grader writes, and refuses what is not a batch. */
class ExplanationsTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("an explanation written into results.json by the grader's reports is read back whole: text, rubric, figures")
    void anExplanationIsReadBackWhole() throws IOException {
        String text = "The mark had not seen B's token.\n\nRubric: this line is the student's, not the rubric.";
        TestCase test = new TestCase("[engine:junit-jupiter]/[class:T]/[method:m()]", "fencing.T", "m", "A rule", 2, List.of("reasoning"));
        Grade grade = new Grade("ada", true, "", List.of(new TestResult(test, true, "", 5)), List.of(), "", 1.0,
                List.of(new Explanation(9, "Why may the high-water mark accept A?", text, "States the narrower contract.",
                                List.of("token=7 is not in evidence.json")),
                        new Explanation(10, "What does checking the current owner cost?", "", "Counts one read per write.", List.of())));
        Reports.write(grade, dir.resolve("ada"), GradingPolicy.load());
        ResultsFile results = ResultsFile.read(dir.resolve("ada/results.json"));
        ClassRecords.Student ada = new ClassRecords.Student(new GradebookRow("ada", 2, 2, List.of(), GradeStatus.GRADED, "", 2, 2, 0, 0, 1),
                "ada", results);

        List<Explanations.Question> questions = Explanations.of(List.of(ada));

        assertThat(questions).as("the questions read from ada's results.json").extracting(Explanations.Question::number).containsExactly(9, 10);
        Explanations.Question nine = questions.get(0);
        assertThat(nine.title()).as("question 9's title").isEqualTo("Why may the high-water mark accept A?");
        assertThat(nine.rubric()).as("question 9's rubric").isEqualTo("States the narrower contract.");
        assertThat(nine.answers()).as("question 9's answers")
                .containsExactly(new Explanations.Answer("ada", text, List.of("token=7 is not in evidence.json")));
        assertThat(questions.get(1).answers()).as("question 10's answers: ada wrote none").isEmpty();
        assertThat(questions.get(1).unanswered()).as("who left question 10 unanswered").containsExactly("ada");
    }

    @Test
    @DisplayName("a folder that is not a batch's output is refused with a message that says so")
    void aFolderThatIsNotABatchIsRefused() {
        assertThatThrownBy(() -> ClassPage.write(dir, ClassPage.DEFAULT_THRESHOLD)).as("the class page of an empty folder")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not the output of ./kit grade --batch");
        assertThatThrownBy(() -> ClassPage.write(dir, 101)).as("the class page with a threshold of 101 %")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("percentage from 0 to 100");
        assertThat(dir.resolve(ClassPage.FILE)).as("the page of a refused folder").doesNotExist();
    }
}
