package fencing.lab;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.lab.run.cases.Cases;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The cases' names exist once, in {@link Cases#names()}: the help is made from it, and every text that names a case is checked against it. */
class CaseNamesTests {

    private static final Path KIT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    private static final Pattern CASE_OPTION = Pattern.compile("--case[ =]([a-z-]+)");
    private static final Pattern STUDY_FOLDER = Pattern.compile("study/([a-z-]+)/");

    @Test
    @DisplayName("./kit study --help names every case of the list, and all")
    void helpNamesEveryCase() {
        StringWriter out = new StringWriter();
        CommandLine study = Study.commandLine();
        study.setOut(new PrintWriter(out, true));
        study.execute("--help");

        // The help wraps its lines where the list of names reaches them: read it with the wraps undone.
        String help = out.toString().replaceAll("\\s+", " ");
        for (String name : Cases.names()) {
            assertThat(help).as("the help's --case names %s", name).contains(name);
        }
        assertThat(help).as("the help names --case all").contains("or all");
    }

    @Test
    @DisplayName("the READMEs, ANSWERS.md and the kit script name only cases of the list, and the lab's table of cases lists them all")
    void textsNameOnlyCasesOfTheList() throws IOException {
        List<String> names = new ArrayList<>(Cases.names());
        names.add(Study.ALL);
        for (String text : List.of("README.md", "grader/README.md", ".ci/README.md", "labs/README.md", "labs/MAINTAINERS.md",
                "exercises/ANSWERS.md",
                "solutions/ANSWERS.md", "kit")) {
            assertThat(unknown(Files.readString(KIT.resolve(text)), names)).as("cases named in %s that the study does not have", text).isEmpty();
        }
        assertThat(unknown("run ./kit study --case early-write first", names)).as("a made-up case").containsExactly("early-write");
        String labReadme = Files.readString(KIT.resolve("labs/README.md"));
        String table = labReadme.split("## The cases", 2)[1].split("\n## ", 2)[0];
        List<String> listed = table.lines().filter(line -> line.startsWith("| `") && !line.startsWith("| `--case`")).map(line -> line.split("`")[1]).toList();
        assertThat(listed).as("the lab README's table of cases").containsExactlyInAnyOrderElementsOf(Cases.names());
    }

    private static List<String> unknown(String text, List<String> names) {
        List<String> unknown = new ArrayList<>();
        for (Pattern pattern : List.of(CASE_OPTION, STUDY_FOLDER)) {
            Matcher named = pattern.matcher(text);
            while (named.find()) {
                if (!names.contains(named.group(1))) {
                    unknown.add(named.group(1));
                }
            }
        }
        return unknown;
    }
}
