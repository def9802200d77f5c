package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.StudyZips.Entry;
import fencing.grader.pipeline.AnswerSheet;
import fencing.grader.pipeline.SubmissionIntake;
import fencing.support.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code study.zip}, the lab's study zipped for an upload of flat files: each case's {@code evidence.json} reaches the
 * grader, and an archive that could lead anywhere else is refused whole, before anything of it is written.
 */
class StudyArchiveTests {

    private static final String EVIDENCE = "{\"case\": \"late-write\"}";

    @TempDir
    Path dir;

    @Test
    @DisplayName("the solutions' study, zipped with its reports: each case's evidence.json is taken, nothing else, and the"
            + " answers' figures find their evidence, which without the archive they do not")
    void theZippedStudyReachesTheGrader() throws Exception {
        Path study = dir.resolve("out");
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.STUDY), study);
        Files.writeString(study.resolve("late-write/report.md"), "# the late write\n");
        Files.writeString(study.resolve("index.html"), "<html></html>\n");
        Path zipped = submission("zipped");
        StudyZips.of(study, zipped.resolve(StudentFiles.STUDY_ARCHIVE));

        Path copies = taken(zipped, "work-zipped");
        AnswerSheet withArchive = AnswerSheet.prepare(copies, Files.createDirectories(dir.resolve("answers-zipped")));
        AnswerSheet without = AnswerSheet.prepare(taken(submission("flat"), "work-flat"),
                Files.createDirectories(dir.resolve("answers-flat")));

        try (Stream<Path> cases = Files.list(KitLocations.solutions().resolve(StudentFiles.STUDY))) {
            for (Path caseDir : cases.toList()) {
                Path copy = copies.resolve(StudentFiles.STUDY).resolve(caseDir.getFileName()).resolve(StudentFiles.EVIDENCE);
                assertThat(copy).as("the evidence of %s, taken from the archive", caseDir.getFileName())
                        .hasSameBinaryContentAs(caseDir.resolve(StudentFiles.EVIDENCE));
            }
        }
        assertThat(copies.resolve("study/late-write/report.md")).as("a report in the archive, which the grader never reads").doesNotExist();
        assertThat(copies.resolve("study/index.html")).as("the study's index, which the grader never reads").doesNotExist();
        assertThat(withArchive.notes()).as("notes on the solutions' answers, their study zipped").noneMatch(note -> note.contains("no evidence"));
        assertThat(without.notes()).as("notes on the solutions' answers, uploaded without their study")
                .anyMatch(note -> note.contains("no evidence of the"));
    }

    @Test
    @DisplayName("the out folder zipped from outside it (FOLDER/CASE/evidence.json) is taken the same way")
    void anArchiveOfTheFolderItselfIsTaken() throws Exception {
        Path submission = submission("folder");
        StudyZips.write(submission.resolve(StudentFiles.STUDY_ARCHIVE), List.of(Entry.file("my-fence-study/", ""),
                Entry.file("my-fence-study/late-write/evidence.json", EVIDENCE)));

        Path copies = taken(submission, "work");

        assertThat(copies.resolve("study/late-write/evidence.json")).as("the evidence of late-write").hasContent(EVIDENCE);
    }

    @Test
    @DisplayName("an archive with a .., an absolute path, a link, a backslash or too many entries is refused whole, naming"
            + " the entry, and nothing of it is written anywhere")
    void anUnsafeArchiveIsRefusedWhole() throws Exception {
        List<Entry> many = new ArrayList<>(IntStream.range(0, 1_001).mapToObj(i -> Entry.file("late-write/report-" + i + ".md", "")).toList());
        Map<String, List<Entry>> archives = Map.of(
                "whose .. leads out of the study's out folder", List.of(Entry.file("late-write/evidence.json", EVIDENCE),
                        Entry.file("../../escaped/evidence.json", EVIDENCE)),
                "an absolute path", List.of(Entry.file("/tmp/fencing-escaped/late-write/evidence.json", EVIDENCE)),
                "a symbolic link", List.of(new Entry("late-write/evidence.json",
                        KitLocations.solutions().resolve("study/late-write/evidence.json").toString().getBytes(), StudyZips.LINK)),
                "with a backslash", List.of(Entry.file("..\\late-write\\evidence.json", EVIDENCE)),
                "entries, over the limit of 1000", many,
                "over the limit of 1048576 bytes for one student file",
                        List.of(Entry.file("late-write/evidence.json", " ".repeat(2 * 1024 * 1024))));

        for (Map.Entry<String, List<Entry>> archive : archives.entrySet()) {
            String name = "unsafe-" + Math.abs(archive.getKey().hashCode());
            Path submission = submission(name);
            Path zip = StudyZips.write(submission.resolve(StudentFiles.STUDY_ARCHIVE), archive.getValue());
            byte[] before = Files.readAllBytes(zip);
            Path copies = dir.resolve("work-" + name).resolve(StudentFiles.SOURCE_ROOT);

            SubmissionIntake.Result result = SubmissionIntake.take(submission, copies, Set.of());

            assertThat(result.accepted()).as("a submission whose study.zip holds an entry %s", archive.getKey()).isFalse();
            assertThat(result.refusal()).as("why it is not graded").startsWith("study.zip ").contains(archive.getKey());
            assertThat(dir.resolve("work-" + name).resolve(StudentFiles.STUDY)).as("the study taken from it").doesNotExist();
            assertThat(Files.readAllBytes(zip)).as("the uploaded archive, after its refusal").isEqualTo(before);
        }
        assertThat(dir.resolve("escaped")).as("where the .. entry pointed").doesNotExist();
        assertThat(Path.of("/tmp/fencing-escaped")).as("where the absolute entry pointed").doesNotExist();
    }

    @Test
    @DisplayName("a study.zip that is no zip, or one beside a study/ folder, is refused saying so")
    void anArchiveThatIsNotOneOrIsTwiceIsRefused() throws Exception {
        Path notZip = submission("not-zip");
        Files.writeString(notZip.resolve(StudentFiles.STUDY_ARCHIVE), "late-write/evidence.json\n");
        Path both = submission("both");
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.STUDY), both.resolve(StudentFiles.STUDY));
        StudyZips.of(KitLocations.solutions().resolve(StudentFiles.STUDY), both.resolve(StudentFiles.STUDY_ARCHIVE));

        assertThat(SubmissionIntake.take(notZip, dir.resolve("work-not-zip/src/main/java"), Set.of()).refusal())
                .as("why a study.zip that is text is refused").startsWith("study.zip is not a zip archive");
        assertThat(SubmissionIntake.take(both, dir.resolve("work-both/src/main/java"), Set.of()).refusal())
                .as("why a submission with both study/ and study.zip is refused").contains("both study/ and study.zip");
    }

    /** Makes a submission of the solutions' sources and answers, laid out like exercises/, without their study. */
    private Path submission(String name) throws Exception {
        Path submission = dir.resolve(name);
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT), submission.resolve(StudentFiles.SOURCE_ROOT));
        Files.copy(KitLocations.solutions().resolve("ANSWERS.md"), submission.resolve("ANSWERS.md"));
        return submission;
    }

    /** Takes {@code submission} as the grader does and returns the folder its copies are in. */
    private Path taken(Path submission, String work) throws Exception {
        Path copies = dir.resolve(work).resolve(StudentFiles.SOURCE_ROOT);
        SubmissionIntake.Result result = SubmissionIntake.take(submission, copies, Set.of());
        assertThat(result.refusal()).as("why %s was refused", submission.getFileName()).isNull();
        return dir.resolve(work);
    }
}
