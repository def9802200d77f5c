package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.files.ResultsFile;
import fencing.grader.pipeline.AnswerSheet;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.report.GradescopeResults;
import fencing.grader.report.Platform;
import fencing.grader.report.Reports;
import fencing.reasoning.AnswerKey;
import fencing.reasoning.Answers;
import fencing.reasoning.EvidenceFigures;
import fencing.support.FileTrees;
import fencing.support.evidence.Evidence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ANSWERS.md: read as the grader reads it, checked against the lab's evidence, passed on to staff only. */
class AnswersTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("the template answers nothing: every question of the key is there, under its number and title, with no closed answer and no explanation")
    void templateAnswersNothing() throws Exception {
        Answers template = Answers.parse(Files.readString(KitLocations.exercises().resolve(Answers.FILE)));

        for (AnswerKey.Question question : AnswerKey.QUESTIONS) {
            assertThat(template.question(question.number())).as("question %d in the template", question.number())
                    .hasValueSatisfying(answer -> {
                        assertThat(answer.title()).as("the title of the template's question %d: the key grades the question"
                                + " of that number, so the two must be the same question", question.number())
                                .isEqualTo(question.title());
                        assertThat(answer.closed()).as("the template's answer to %d", question.number()).isEmpty();
                        assertThat(answer.explanation()).as("the template's explanation of %d", question.number()).isEmpty();
                    });
        }
        for (AnswerKey.OpenQuestion question : AnswerKey.OPEN_QUESTIONS) {
            assertThat(template.question(question.number())).as("open question %d in the template", question.number())
                    .hasValueSatisfying(answer -> {
                        assertThat(answer.title()).as("the title of the template's question %d", question.number())
                                .isEqualTo(question.title());
                        assertThat(answer.explanation()).as("the template's explanation of %d", question.number()).isEmpty();
                    });
        }
    }

    @Test
    @DisplayName("the solutions answer every question as the key does, with an explanation, and each figure matches its own case's run")
    void solutionsAnswerEverything() throws Exception {
        Answers solutions = Answers.parse(Files.readString(KitLocations.solutions().resolve(Answers.FILE)));

        for (AnswerKey.Question question : AnswerKey.QUESTIONS) {
            Answers.Answer answer = solutions.question(question.number()).orElseThrow();
            assertThat(question.accepts(answer.closed())).as("the solutions' answer %s to %d", answer.closed(), question.number()).isTrue();
            assertThat(answer.explanation()).as("the solutions' explanation of %d", question.number()).isNotBlank();
            assertFiguresMatch(answer);
        }
        for (AnswerKey.OpenQuestion question : AnswerKey.OPEN_QUESTIONS) {
            Answers.Answer answer = solutions.question(question.number()).orElseThrow();
            assertThat(answer.explanation()).as("the solutions' explanation of open question %d", question.number()).isNotBlank();
            assertFiguresMatch(answer);
        }
    }

    private static void assertFiguresMatch(Answers.Answer answer) {
        if (answer.figures().isBlank()) {
            return;
        }
        List<String> notes = new java.util.ArrayList<>();
        String caseName = AnswerKey.caseOf(answer.number()).orElseThrow();
        EvidenceFigures evidence = EvidenceFigures.forCase(KitLocations.solutions(), caseName, notes).orElseThrow();
        assertThat(evidence.problems(answer.figures())).as("figures of %d against %s: %s", answer.number(), caseName, answer.figures())
                .isEmpty();
        assertThat(notes).as("notes on reading the evidence of %s", caseName).isEmpty();
    }

    @Test
    @DisplayName("every question about a run names its case in the template, as the key does, and every question with figures has a case")
    void templateNamesEachQuestionsCase() throws Exception {
        String template = Files.readString(KitLocations.exercises().resolve(Answers.FILE));
        Answers parsed = Answers.parse(template);

        for (Answers.Answer answer : parsed.questions().values()) {
            String section = template.split("(?m)^## " + answer.number() + "\\. ", 2)[1].split("(?m)^## ", 2)[0];
            java.util.Optional<String> caseName = AnswerKey.caseOf(answer.number());
            if (caseName.isPresent()) {
                assertThat(section).as("question %d names its case, %s", answer.number(), caseName.get())
                        .contains("Case: `" + caseName.get() + "`\n");
            } else {
                assertThat(section).as("question %d asks about no run, so it names no case", answer.number()).doesNotContain("Case: ");
            }
            if (section.contains("Figures:")) {
                assertThat(caseName).as("question %d asks for figures, so the key says which case they come from", answer.number()).isPresent();
            }
        }
    }

    @Test
    @DisplayName("each question's figures are checked against its own case: true figures from other cases match, the same figures under the wrong question do not")
    void figuresAreCheckedAgainstTheirOwnCase() throws Exception {
        Path submission = Files.createDirectories(dir.resolve("careful"));
        FileTrees.copy(KitLocations.solutions().resolve(EvidenceFigures.STUDY), submission.resolve(EvidenceFigures.STUDY));
        String answers = Files.readString(KitLocations.solutions().resolve(Answers.FILE));
        Files.writeString(submission.resolve(Answers.FILE), answers);

        AnswerSheet careful = AnswerSheet.prepare(submission, Files.createDirectories(dir.resolve("work-careful")));

        assertThat(careful.notes()).as("notes for a student whose figures each come from the case its question names").isEmpty();
        assertThat(careful.explanations()).as("figure problems").allSatisfy(e -> assertThat(e.figureProblems()).isEmpty());

        Answers.Answer failover = Answers.parse(answers).question(15).orElseThrow();
        Files.writeString(submission.resolve(Answers.FILE), answers.replaceFirst("Figures: mark=30", "Figures: " + failover.figures()));
        AnswerSheet swapped = AnswerSheet.prepare(submission, Files.createDirectories(dir.resolve("work-swapped")));

        assertThat(swapped.notes()).as("the failover's wait quoted under question 2, about check-outside-transaction").singleElement().asString()
                .contains("question 2").contains(failover.figures().replace("=", " "))
                .contains("study/check-outside-transaction/evidence.json");
    }

    @Test
    @DisplayName("a question that asks for figures and quotes none, or has no evidence to check them against, says they were not checked")
    void uncheckedFiguresAreNamed() throws Exception {
        Path submission = Files.createDirectories(dir.resolve("placeholders"));
        String template = Files.readString(KitLocations.exercises().resolve(Answers.FILE));
        String solved = Files.readString(KitLocations.solutions().resolve(Answers.FILE));
        // The solutions' closed answers, with every "Figures:" line the template's placeholder again, and no study/.
        Files.writeString(submission.resolve(Answers.FILE), solved.replaceAll("(?m)^Figures:.*$", "Figures: <!-- e.g. mark=N -->"));

        AnswerSheet sheet = AnswerSheet.prepare(submission, Files.createDirectories(dir.resolve("work-placeholders")));

        java.util.Set<Integer> asking = AnswerSheet.askingForFigures(template);
        assertThat(asking).as("the template's questions with a Figures: line").contains(2, 3, 4, 7);
        for (int number : asking) {
            assertThat(sheet.notes()).as("notes for question %d, whose figures are the template's placeholder", number)
                    .anySatisfy(note -> assertThat(note).contains("question " + number + " asks for figures")
                            .contains("none were checked").contains("score no points"));
        }

        Files.writeString(submission.resolve(Answers.FILE), solved);
        AnswerSheet noEvidence = AnswerSheet.prepare(submission, Files.createDirectories(dir.resolve("work-no-evidence")));

        assertThat(noEvidence.notes()).as("notes for figures quoted with no study/ folder to check them against")
                .anySatisfy(note -> assertThat(note).contains("question 2").contains("no evidence of the check-outside-transaction case")
                        .contains("none were checked"));
    }

    @Test
    @DisplayName("an older submission's single evidence.json checks the questions of its own case only, and names the missing cases")
    void singleEvidenceFileChecksItsOwnCaseOnly() throws Exception {
        Path submission = Files.createDirectories(dir.resolve("older"));
        Files.copy(KitLocations.solutions().resolve(EvidenceFigures.STUDY).resolve("pre-contact/evidence.json"), submission.resolve("evidence.json"));
        Files.copy(KitLocations.solutions().resolve(Answers.FILE), submission.resolve(Answers.FILE));

        AnswerSheet sheet = AnswerSheet.prepare(submission, Files.createDirectories(dir.resolve("work")));

        assertThat(sheet.explanations().stream().filter(e -> e.number() == 3).findFirst().orElseThrow().figureProblems())
                .as("question 3's figures, about pre-contact, against the pre-contact evidence.json").isEmpty();
        assertThat(sheet.explanations().stream().filter(e -> e.number() == 15).findFirst().orElseThrow().figureProblems())
                .as("question 15's figures, about the failover, with no failover evidence").singleElement().asString()
                .contains("no evidence of the failover case").contains("study/failover/evidence.json");
    }

    @Test
    @DisplayName("closed answers are read forgiving case, emphasis, a final period and the order of key=value pairs, and nothing else")
    void closedAnswersAreNormalised() {
        AnswerKey.Question leaseId = AnswerKey.question(4).orElseThrow();
        AnswerKey.Question preContact = AnswerKey.question(3).orElseThrow();

        assertThat(leaseId.accepts("**No.**")).as("'**No.**' for question 4").isTrue();
        assertThat(leaseId.accepts("yes")).as("'yes' for question 4").isFalse();
        assertThat(leaseId.accepts("no, not really")).as("'no, not really' for question 4").isFalse();
        assertThat(preContact.accepts("lost = no, fenced = Accepted")).as("pairs in another order").isTrue();
        assertThat(preContact.accepts("fenced=rejected lost=no")).as("a wrong pair").isFalse();
    }

    @Test
    @DisplayName("quoted figures are checked against a real lab run's evidence.json, and each one that does not match is named")
    void figuresAreCheckedAgainstTheEvidence() throws Exception {
        Evidence.Study run = Evidence.read(KitLocations.solutions().resolve("study/late-write/evidence.json"));
        Evidence.Holder a = run.repeats().get(0).lock().a();
        EvidenceFigures evidence = new EvidenceFigures(run, "study/late-write/evidence.json");
        String good = "token=" + a.token() + " lease=" + a.leaseIdHex() + " wait-ms=" + Math.round(run.repeats().get(0).lock().expiry().waitAfterStopMillis());

        assertThat(evidence.problems(good)).as("problems with figures taken from the run: %s", good).isEmpty();
        assertThat(evidence.problems("token=999999 lease=12345 wait-ms=1 speed=3"))
                .as("problems with figures the run never had")
                .hasSize(4)
                .anySatisfy(problem -> assertThat(problem).contains("token 999999"))
                .anySatisfy(problem -> assertThat(problem).contains("lease 12345"))
                .anySatisfy(problem -> assertThat(problem).contains("wait-ms 1"))
                .anySatisfy(problem -> assertThat(problem).contains("unknown figure"));
    }

    @Test
    @DisplayName("figures are read in exactly the forms ANSWERS.md gives: whole tokens and marks, a decimal or 0x lease, "
            + "milliseconds whole or with a decimal point")
    void figuresAreReadInTheFormsTheTemplateGives() throws Exception {
        Evidence.Study run = Evidence.read(KitLocations.solutions().resolve("study/late-write/evidence.json"));
        Evidence.Holder a = run.repeats().get(0).lock().a();
        double wait = run.repeats().get(0).lock().expiry().waitAfterStopMillis();
        EvidenceFigures evidence = new EvidenceFigures(run, "study/late-write/evidence.json");
        String forms = "token=" + a.token() + ", lease=" + a.leaseId() + " lease=" + a.leaseIdHex() + " wait-ms=" + Math.round(wait)
                + " wait-ms=" + String.format(java.util.Locale.ROOT, "%.1f", wait);

        assertThat(evidence.problems(forms)).as("problems with the template's forms of the run's own figures: %s", forms).isEmpty();
        for (String looser : List.of("token=+" + a.token(), "token=" + a.token() + ".0", "lease=" + a.leaseIdHex().substring(2),
                "wait-ms=" + String.format(java.util.Locale.ROOT, "%.3e", wait), "wait-ms=" + Math.round(wait) + "ms")) {
            assertThat(evidence.problems(looser)).as("problems with %s, a form the template does not give", looser).hasSize(1);
        }
    }

    @Test
    @DisplayName("a submission's explanations reach results.json's extra_data (entries only where the policy shows them to students)"
            + " and staff-notes.md, with the rubric, never the student's summary.md")
    void explanationsArePassedOnToStaff() throws Exception {
        Path submission = Files.createDirectories(dir.resolve("alice"));
        String answers = Files.readString(KitLocations.exercises().resolve(Answers.FILE))
                .replaceFirst("<!-- Your explanation\\. -->", "The lease ID is not ordered by grant.")
                .replaceFirst("Figures: <!--[^>]*-->", "Figures: token=999999");
        Files.writeString(submission.resolve(Answers.FILE), answers);
        FileTrees.copy(KitLocations.solutions().resolve(EvidenceFigures.STUDY), submission.resolve(EvidenceFigures.STUDY));

        AnswerSheet sheet = AnswerSheet.prepare(submission, Files.createDirectories(dir.resolve("work")));
        Grade grade = new Grade("alice", true, "", List.of(), sheet.notes(), "", 1.0, sheet.explanations());
        GradingPolicy policy = GradingPolicy.load();
        ResultsFile results = ResultsFile.parse(GradescopeResults.json(grade, policy));
        String staffNotes = Reports.staffNotes(grade);

        assertThat(grade.answersToRead()).as("explanations written").isEqualTo(1);
        int questions = AnswerKey.QUESTIONS.size() + AnswerKey.OPEN_QUESTIONS.size();
        assertThat(results.tests()).as("results.json's tests: no entry hidden from students, which would hide their"
                + " total").isEmpty();
        assertThat(results.explanations()).as("the explanations kept for staff in extra_data")
                .hasSize(questions).allSatisfy(kept -> assertThat(kept.rubric()).as("rubric of question %s",
                        kept.number()).isNotBlank())
                .anySatisfy(kept -> {
                    assertThat(kept.text()).as("the written explanation").isEqualTo("The lease ID is not ordered by grant.");
                    assertThat(kept.figureProblems()).as("its figure problems")
                            .anySatisfy(problem -> assertThat(problem).contains("token 999999"));
                });
        GradingPolicy shown = new GradingPolicy(policy.countExtensions(), GradingPolicy.Visibility.AFTER_PUBLISHED, policy.tags(),
                policy.limits());
        assertThat(ResultsFile.parse(GradescopeResults.json(grade, shown)).tests())
                .as("results.json's entries when the policy shows the explanations to students after publishing").hasSize(questions)
                .allSatisfy(entry -> {
                    assertThat(entry.maxScore()).as("points of %s", entry.name()).isZero();
                    assertThat(entry.visibility()).as("visibility of %s", entry.name()).isEqualTo("after_published");
                    assertThat(entry.output()).as("output of %s", entry.name()).contains("Rubric: ");
                });
        assertThat(staffNotes).as("staff-notes.md").startsWith(Reports.STAFF_HEADING).contains("1 of " + questions + " explanations")
                .contains("The lease ID is not ordered by grant.").contains("token 999999").contains("Rubric: ");
        assertThat(sheet.notes()).as("notes for the student").anySatisfy(note -> assertThat(note).contains("token 999999"));
        Path reports = dir.resolve("reports");
        Reports.write(grade, reports, policy, java.util.EnumSet.allOf(Platform.class), ReportAgreement.CLASSROOM50);
        assertThat(Files.readString(reports.resolve(Reports.SUMMARY)))
                .as("summary.md, the student's, which Classroom 50 shows as the Release body").doesNotContain("Rubric").doesNotContain(Reports.STAFF_HEADING)
                .doesNotContain("The lease ID is not ordered by grant.").contains("Score:");
        for (Path platformFile : List.of(Platform.CLASSROOM50.file(reports), Platform.PRAIRIELEARN.file(reports))) {
            assertThat(Files.readString(platformFile)).as("%s, which the student reads whole", platformFile)
                    .doesNotContain("Rubric").doesNotContain("The lease ID is not ordered by grant.");
        }
    }
}
