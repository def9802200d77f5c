package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad options get exit code 2 and a message that says what was wrong, before anything starts or is written. */
class StudyOptionsTests {

    @Test
    void rejectsZeroRepeatsBeforeStartingAnything(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir.resolve("out"), "--repeats", "0");

        assertThat(run.exitCode).as("--repeats 0 is a usage error; the study said:%n%s", run.err).isEqualTo(2);
        assertThat(run.err).as("the message says the allowed range").contains("--repeats must be between 1 and 1000, got 0");
        assertThat(dir.resolve("out")).as("nothing is written for a usage error").doesNotExist();
    }

    @Test
    void rejectsAnUnknownCaseNamingTheKnownOnes(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir.resolve("out"), "--case", "early-write");

        assertThat(run.exitCode).as("an unknown --case is a usage error; the study said:%n%s", run.err).isEqualTo(2);
        assertThat(run.err).as("the message names the known cases")
                .contains("unknown case 'early-write'").contains("late-write, pre-contact, restart, check-outside-transaction, restore, failover, forged, retry, slow-clock, partition or chaos");
        assertThat(Files.exists(dir.resolve("out"))).as("nothing is written for a usage error").isFalse();
    }
}
