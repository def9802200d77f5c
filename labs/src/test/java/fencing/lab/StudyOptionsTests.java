package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
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

    @Test
    @DisplayName("--faults takes freeze, partition or both, and only with chaos or all; anything else is refused before anything runs")
    void theFaultsAreCheckedBeforeAnythingRuns(@TempDir Path dir) {
        StudyRun unknown = StudyRun.of(dir.resolve("out"), "--case", "chaos", "--faults", "freeze,flood");
        assertThat(unknown.exitCode).as("an unknown fault is a usage error").isEqualTo(2);
        assertThat(unknown.err).as("the message names the fault and the faults there are").contains("unknown fault 'flood'")
                .contains("freeze or partition");
        assertThat(StudyRun.of(dir.resolve("out"), "--case", "chaos", "--faults", "").exitCode).as("an empty list of faults").isEqualTo(2);
        assertThat(StudyRun.of(dir.resolve("out"), "--faults", "partition").exitCode).as("--faults with the late-write case").isEqualTo(2);
        assertThat(Files.exists(dir.resolve("out"))).as("nothing is written for a usage error").isFalse();
    }
}
