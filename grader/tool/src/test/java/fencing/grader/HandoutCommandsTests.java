package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.handout.Handout;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** Every command a handout's Markdown quotes works in the handout as written, and every path it names is there. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HandoutCommandsTests {

    /** One handout for the class: the planted check copies it once the first Maven runs have compiled it. */
    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private static Path handout;

    @BeforeAll
    static void writeHandout() throws IOException {
        handout = shared.resolve("handout");
        new Handout(KitLocations.root()).write(handout);
    }

    @Test
    @Order(1)
    @DisplayName("every ./kit and ./mvnw command in the handout's README, lab/README.md and ANSWERS.md runs there")
    void everyQuotedCommandRunsInTheHandout() throws Exception {
        List<HandoutCommands.Quoted> commands = HandoutCommands.commands(handout);

        assertThat(commands).as("commands quoted in the handout's Markdown").extracting(HandoutCommands.Quoted::text)
                .contains("./kit check", "./kit study", "./kit study --case pre-contact", "./mvnw test")
                .anyMatch(command -> command.startsWith("./mvnw") && command.contains("exec:exec"));
        assertThat(commands).as("commands quoted in each Markdown file").extracting(HandoutCommands.Quoted::file)
                .contains("README.md", "lab/README.md", "ANSWERS.md");

        assertThat(HandoutCommands.failures(handout, commands, dir.resolve("logs")))
                .as("commands quoted in the handout that do not work there as written").isEmpty();
    }

    @Test
    @DisplayName("every relative path the handout's Markdown names exists in the handout")
    void everyNamedPathExists() throws IOException {
        List<HandoutCommands.Quoted> paths = HandoutCommands.paths(handout);

        assertThat(paths).as("paths named in the handout's Markdown").extracting(HandoutCommands.Quoted::text)
                .contains("lab/README.md", "src/main/java/fencing/sink/FencedSink.java");
        assertThat(HandoutCommands.missing(handout, paths)).as("paths named in the handout's Markdown that it lacks").isEmpty();
    }

    @Test
    @DisplayName("a made-up command, a bad option, a wrong Maven phase and a kit-only path planted in a handout are all caught")
    void catchesWhatIsPlanted() throws Exception {
        Path copy = dir.resolve("planted");
        FileTrees.copy(handout, copy);
        Files.writeString(copy.resolve("lab/README.md"), String.join("\n",
                "",
                "Planted: run `./kit frobnicate`, then read `exercises/src/main/java/fencing/sink/FencedSink.java`",
                "and `labs/src/main/java/fencing/lab/` and [the answers](exercises/ANSWERS.md).",
                "",
                "```",
                "./kit study --colour red      # an option the lab does not have",
                "./mvnw tset",
                "```",
                ""), StandardOpenOption.APPEND);

        List<HandoutCommands.Quoted> planted = HandoutCommands.commands(copy).stream()
                .filter(command -> List.of("./kit frobnicate", "./kit study --colour red", "./mvnw tset").contains(command.text()))
                .toList();
        assertThat(planted).as("the planted commands, found in lab/README.md").hasSize(3)
                .allMatch(command -> command.file().equals("lab/README.md"));
        List<HandoutCommands.Run> failures = HandoutCommands.failures(copy, planted, dir.resolve("logs"));
        assertThat(failures).as("the planted commands that the check reports as not working").hasSize(3);
        assertThat(failures).as("what each failure shows")
                .anyMatch(run -> run.exitCode() != 0 && run.output().contains("unknown command 'frobnicate'"))
                .anyMatch(run -> run.output().contains("its usage does not name [--colour, red]"))
                .anyMatch(run -> run.exitCode() != 0 && run.output().contains("Unknown lifecycle phase \"tset\""));

        assertThat(HandoutCommands.missing(copy, HandoutCommands.paths(copy))).as("the planted paths that the check reports")
                .extracting(HandoutCommands.Quoted::text).containsExactlyInAnyOrder(
                        "exercises/src/main/java/fencing/sink/FencedSink.java", "labs/src/main/java/fencing/lab/", "exercises/ANSWERS.md");
    }

    @Test
    @DisplayName("a command is split into words like a shell would, its comment cut, and shell syntax refused")
    void splitsCommandsLikeAShell() {
        assertThat(HandoutCommands.words("./mvnw -q exec:exec -Dstudy.args=\"--repeats 20 --out 'my dir'\" # twenty"))
                .as("the words of a quoted Maven command").containsExactly("./mvnw", "-q", "exec:exec",
                        "-Dstudy.args=--repeats 20 --out 'my dir'");
        assertThatThrownBy(() -> HandoutCommands.words("./kit study $(rm -rf x)")).as("a command with shell syntax")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shell syntax");
        assertThatThrownBy(() -> HandoutCommands.words("./kit study --out 'build/x")).as("a command with an unclosed quote")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unclosed");
    }
}
