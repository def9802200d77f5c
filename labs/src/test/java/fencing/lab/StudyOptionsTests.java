package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.run.chaos.ChaosPlan;
import fencing.lab.run.chaos.Fault;
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

    @Test
    void rejectsAnUnknownFaultNamingTheFaultsBeforeStartingAnything(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir.resolve("out"), "--case", "chaos", "--faults", "freeze,pause");

        assertThat(run.exitCode).as("an unknown --faults value is a usage error; the study said:%n%s", run.err).isEqualTo(2);
        assertThat(run.err).as("the message names the value and the faults there are")
                .contains("--faults: no such fault 'pause'").contains("use freeze or partition, comma-separated");
        assertThat(dir.resolve("out")).as("nothing is written for a usage error").doesNotExist();
    }

    @Test
    void rejectsFaultsOutsideTheChaosCase(@TempDir Path dir) {
        StudyRun run = StudyRun.of(dir.resolve("out"), "--case", "partition", "--faults", "partition");

        assertThat(run.exitCode).as("--faults with a case that has no nemesis is a usage error; the study said:%n%s", run.err).isEqualTo(2);
        assertThat(run.err).as("the message says which case takes it").contains("--faults apply to --case chaos (or all) only");
        assertThat(dir.resolve("out")).as("nothing is written for a usage error").doesNotExist();
    }

    @Test
    void replaysNameTheFaultsOnlyWhenTheyAreNotTheDefault(@TempDir Path dir) {
        ChaosPlan freezes = new ChaosPlan(3, 8, 11, Fault.DEFAULT);
        ChaosPlan both = new ChaosPlan(3, 8, 11, Fault.parse("partition,freeze"));

        assertThat(freezes.replay()).as("a run of freezes alone replays as it did before --faults")
                .isEqualTo("./kit study --case chaos --writers 3 --duration 8 --seed 11");
        assertThat(both.replay()).as("a run with partitions must say so to replay them")
                .isEqualTo("./kit study --case chaos --writers 3 --duration 8 --seed 11 --faults freeze,partition");
    }
}
