package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.grader.handout.Handout;
import fencing.support.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The handout students start from: nothing hidden in it, it builds on its own, and its tests tell stubs from solutions. */
class HandoutTests {

    /** The kit's own tests of its test infrastructure, which the handout leaves out. */
    private static final String KIT_OWN_TESTS = "src/test/java/fencing/support";

    private static final Pattern HIDDEN_MARKERS = Pattern.compile("@Graded\\b|fencing\\.grader\\b");

    @TempDir
    Path dir;

    @Test
    @DisplayName("the handout holds no solution, no hidden test and nothing of the grader")
    void holdsNoSolutionNoHiddenTestNoGrader() throws IOException {
        Path handout = write(dir.resolve("handout"));

        assertThat(leaks(handout)).as("what the handout gives away (solutions, hidden tests, the grader)").isEmpty();
    }

    @Test
    @DisplayName("the leak check finds a solution file, a hidden test class and a grader reference planted in a handout")
    void leakCheckFindsWhatIsPlanted() throws IOException {
        Path handout = write(dir.resolve("handout"));
        Path resource = handout.resolve("src/main/java/fencing/basics/Resource.java");
        Files.copy(KitLocations.solutions().resolve("src/main/java/fencing/basics/Resource.java"), resource,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(handout.resolve("src/main/java/fencing/basics/Planted.java"),
                "package fencing.basics;\nimport fencing.grading.Graded;\nclass Planted {\n    @Graded(points = 1, tags = \"quorum\")\n    void test() {\n    }\n}\n");

        assertThat(leaks(handout)).as("the leak check on a handout with a solution and a graded test planted in it")
                .anyMatch(leak -> leak.contains("Resource.java") && leak.contains("solution"))
                .anyMatch(leak -> leak.contains("Planted.java") && leak.contains("hidden-test marker"));
    }

    @Test
    @DisplayName("the handout has the provided code, the stubs and the public tests exactly as in exercises/, the wrapper, and"
            + " Maven's JVM flags")
    void copiesExercisesUnchanged() throws IOException {
        Path handout = write(dir.resolve("handout"));
        Path exercises = KitLocations.exercises();

        for (Path file : files(exercises.resolve("src"))) {
            if (file.startsWith(exercises.resolve(KIT_OWN_TESTS))) {
                continue;
            }
            Path copy = handout.resolve("src").resolve(exercises.resolve("src").relativize(file).toString());
            assertThat(copy).as("the handout's copy of exercises/src/%s", exercises.resolve("src").relativize(file))
                    .exists().hasSameBinaryContentAs(file);
        }
        assertThat(handout.resolve("mvnw")).as("the Maven wrapper, runnable").isExecutable();
        assertThat(handout.resolve(".mvn/wrapper/maven-wrapper.properties")).exists();
        assertThat(handout.resolve(".mvn/jvm.config")).as("Maven's JVM flags, the kit's own").exists()
                .hasSameTextualContentAs(KitLocations.root().resolve(".mvn/jvm.config"));
        assertThat(handout.resolve("kit")).as("the handout's launcher, runnable").isExecutable();
        assertThat(handout.resolve(".gitignore")).as("the handout's .gitignore").content()
                .contains("target/").contains("build/");
        for (String owned : StudentFiles.PATHS) {
            assertThat(handout.resolve("README.md")).as("the handout's README, on the files to fill in").content()
                    .contains("`" + StudentFiles.SOURCE_ROOT + "/" + owned + "`");
        }
        assertThat(handout.resolve("README.md")).content().contains("./kit check").contains("./mvnw test")
                .as("the handout's README, on the activity to play before Part 1").contains("`lab/activity.html`");
        assertThat(handout.resolve("lab/activity.html")).as("the lab's activity, beside the lab's README")
                .hasSameBinaryContentAs(exercises.getParent().resolve("labs/activity.html"));
        if (Files.exists(exercises.resolve("ANSWERS.md"))) {
            assertThat(handout.resolve("ANSWERS.md")).hasSameTextualContentAs(exercises.resolve("ANSWERS.md"));
        }
    }

    @Test
    @DisplayName("the handout is a git repository whose one commit, by a neutral author, holds every file and ignores none")
    void isAGitRepositoryWithEverythingInItsFirstCommit() throws Exception {
        Path handout = write(dir.resolve("handout"));

        assertThat(git(handout, "rev-list", "--count", "HEAD").output()).as("commits in a fresh handout").isEqualTo("1");
        assertThat(git(handout, "status", "--porcelain", "--ignored").output())
                .as("files of a fresh handout that are not committed, or ignored").isEmpty();
        assertThat(git(handout, "ls-files").output().lines()).as("the files of the first commit")
                .contains(STUDENT_PREDICTIONS, StudentFiles.SOURCE_ROOT + "/fencing/basics/Resource.java", "kit", "mvnw");
        assertThat(git(handout, "log", "-1", "--format=%an <%ae>").output()).as("the first commit's author, not whoever wrote the handout")
                .isEqualTo("Fencing kit handout <handout@fencing-kit.invalid>");
    }

    @Test
    @DisplayName("the README's predict-first commands, run word for word on a fresh handout, commit Predictions.java alone")
    void predictFirstCommandsCommitThePredictionsAlone() throws Exception {
        Path handout = write(dir.resolve("handout"));
        List<String> commands = predictFirstCommands(Files.readString(handout.resolve("README.md")));
        Path predictions = handout.resolve(STUDENT_PREDICTIONS);
        Path resource = handout.resolve(StudentFiles.SOURCE_ROOT + "/fencing/basics/Resource.java");
        Files.writeString(predictions, Files.readString(predictions) + "// filled in\n");
        Files.writeString(resource, Files.readString(resource) + "// started\n");

        assertThat(commands).as("the git commands of the README's Predict first section").isNotEmpty();
        for (String command : commands) {
            List<String> words = HandoutCommands.words(command);
            assertThat(words.get(0)).as("the program of `%s`", command).isEqualTo("git");
            Git run = git(handout, words.subList(1, words.size()).toArray(String[]::new));
            assertThat(run.exit()).as("exit code of `%s` on a fresh handout; it said:%n%s", command, run.output()).isZero();
        }
        assertThat(git(handout, "show", "--format=", "--name-only", "HEAD").output().lines())
                .as("the files the predict-first commit changed").containsExactly(STUDENT_PREDICTIONS);
        assertThat(git(handout, "rev-list", "--count", "HEAD").output()).as("commits: the handout's, then the predictions").isEqualTo("2");
        assertThat(git(handout, "status", "--porcelain").output()).as("what is left to commit: the started Resource")
                .contains("Resource.java").doesNotContain("Predictions.java");
    }

    @Test
    @DisplayName("the handout's .gitignore keeps every file of the lab's out folder that the questions and READMEs cite, "
            + "committed as study/, and ignores logs elsewhere")
    void gitignoreKeepsEveryCitedStudyFile() throws Exception {
        Path handout = write(dir.resolve("handout"));
        List<String> cited = citedStudyFiles(Files.readString(handout.resolve("lab/README.md")),
                Files.readString(handout.resolve("ANSWERS.md")));

        assertThat(cited).as("files of the lab's out folder that the handout's Markdown names")
                .contains("repeat-01/worker-A.log", "evidence.json", "history.jsonl", "repeat-01/sink/fenced.db");
        for (String file : cited) {
            for (String caseFolder : List.of("study/late-write/", "study/chaos/")) {
                assertThat(git(handout, "check-ignore", "-q", caseFolder + file).exit())
                        .as("git check-ignore on %s%s, which the handout cites (1: not ignored, committed with study/)", caseFolder, file)
                        .isEqualTo(1);
            }
        }
        assertThat(git(handout, "check-ignore", "-q", "kit-run.log").exit())
                .as("git check-ignore on a log outside study/ (0: ignored)").isZero();
        assertThat(git(handout, "check-ignore", "-q", "build/my-fence-study/late-write/repeat-01/worker-A.log").exit())
                .as("git check-ignore on the build folder's copy (0: ignored)").isZero();
    }

    private static final String STUDENT_PREDICTIONS = StudentFiles.SOURCE_ROOT + "/fencing/basics/Predictions.java";

    /** A file name of the lab's out folder as the Markdown quotes it: {@code repeat-NN/worker-A.log}, {@code evidence.json}. */
    private static final Pattern OUT_FILE = Pattern.compile("`((?:repeat-\\w+/)?(?:sink/)?[\\w*-]+\\.(?:log|json|jsonl|html|md|db))`");

    /** Returns the git commands in the fenced blocks of the README's "Predict first" section. */
    private static List<String> predictFirstCommands(String readme) {
        String section = readme.split("### Predict first", 2)[1].split("\n##", 2)[0];
        List<String> commands = new ArrayList<>();
        boolean inFence = false;
        for (String line : section.lines().toList()) {
            if (line.strip().startsWith("```")) {
                inFence = !inFence;
            } else if (inFence && line.strip().startsWith("git ")) {
                commands.add(line.strip());
            }
        }
        return commands;
    }

    /**
     * Returns the out-folder files the lab README and the questions name, as paths in one case's folder: {@code NN}
     * becomes {@code 01}, {@code *} nothing, and a bare name listed after a path ({@code plain.db}, {@code fenced.db})
     * lies in that path's folder. The handout's own files ({@code ANSWERS.md}, {@code README.md}) are not the lab's.
     */
    private static List<String> citedStudyFiles(String labReadme, String answers) {
        List<String> files = new ArrayList<>();
        for (String line : (labReadme + "\n" + answers).lines().toList()) {
            String folder = "";
            java.util.regex.Matcher quoted = OUT_FILE.matcher(line);
            while (quoted.find()) {
                String name = quoted.group(1).replace("-NN/", "-01/").replace("*", "");
                if (name.contains("/")) {
                    folder = name.substring(0, name.lastIndexOf('/') + 1);
                } else if (line.startsWith("| `")) {
                    name = folder + name;
                }
                if (!List.of("ANSWERS.md", "README.md").contains(name) && !files.contains(name)) {
                    files.add(name);
                }
            }
        }
        return files;
    }

    /** What one git command did. */
    private record Git(int exit, String output) {
    }

    /**
     * Runs git in {@code dir} as a student would, with an identity of the student's own and none of this machine's
     * git configuration (a global ignore file would change what check-ignore says).
     */
    private Git git(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("GIT_"));
        environment.put("HOME", Files.createDirectories(this.dir.resolve("student-home")).toString());
        environment.put("GIT_CONFIG_NOSYSTEM", "1");
        environment.putAll(Map.of("GIT_AUTHOR_NAME", "A Student", "GIT_AUTHOR_EMAIL", "student@example.invalid",
                "GIT_COMMITTER_NAME", "A Student", "GIT_COMMITTER_EMAIL", "student@example.invalid"));
        Process git = builder.start();
        String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!git.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            git.destroyForcibly();
            throw new IllegalStateException("git " + String.join(" ", args) + " did not end");
        }
        return new Git(git.exitValue(), output.strip());
    }

    @Test
    @DisplayName("the handout's pom has no parent and the kit's versions, Java release 17 and enforcer rules")
    void pomStandsAlone() throws Exception {
        Path pomFile = write(dir.resolve("handout")).resolve("pom.xml");
        String pom = Files.readString(pomFile);
        Element handout = parse(pomFile);
        Element kit = parse(KitLocations.root().resolve("pom.xml"));

        assertThat(pom).as("the handout's pom.xml").doesNotContain("<parent>").doesNotContain("<module>")
                .contains("<maven.compiler.release>17</maven.compiler.release>")
                .contains("maven-enforcer-plugin").contains("<requireJavaVersion>");
        assertThat(pom).as("the handout's pom.xml, every template placeholder filled").doesNotContainPattern("@[\\w.:-]+@");
        Map<String, String> kitValues = versions(kit);
        Map<String, String> handoutValues = versions(handout);
        assertThat(handoutValues).as("versions the handout's pom declares").hasSizeGreaterThan(10);
        handoutValues.forEach((name, value) -> assertThat(value).as("the handout's %s, the kit's being %s", name, kitValues.get(name))
                .isEqualTo(kitValues.get(name)));
        assertThat(handoutValues).as("the handout's versions").containsKeys("junit.version", "jetcd.version",
                "plugin:maven-surefire-plugin", "plugin:maven-compiler-plugin", "plugin:exec-maven-plugin");
    }

    @Test
    @DisplayName("a template naming a value the kit's pom does not define is refused, naming it")
    void unknownPlaceholderIsRefused() throws IOException {
        Map<String, String> values = new Handout(KitLocations.root()).kitValues();

        assertThat(Handout.fill("<v>@junit.version@</v>", values, "a template")).as("a known placeholder, filled")
                .isEqualTo("<v>" + values.get("junit.version") + "</v>");
        assertThatThrownBy(() -> Handout.fill("<v>@junit.versoin@</v>", values, "a template"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("@junit.versoin@");
    }

    @Test
    @DisplayName("the kit's own tests of fencing.support stay out of the handout")
    void leavesOutTheKitsOwnSupportTests() throws IOException {
        Path kit = dir.resolve("kit");
        Path real = KitLocations.root();
        for (String file : List.of("pom.xml", "kit", "mvnw", "exercises/pom.xml", "labs/pom.xml", "labs/README.md")) {
            Files.createDirectories(kit.resolve(file).getParent());
            Files.copy(real.resolve(file), kit.resolve(file));
        }
        for (String tree : List.of("exercises/src", "labs/src/main", ".mvn/wrapper")) {
            FileTrees.copy(real.resolve(tree), kit.resolve(tree));
        }
        Path planted = kit.resolve("exercises").resolve(KIT_OWN_TESTS).resolve("EtcdProvisioningTests.java");
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, "package fencing.support;\nclass EtcdProvisioningTests {\n}\n");

        Path handout = dir.resolve("handout");
        new Handout(kit).write(handout);

        assertThat(handout.resolve("src/test/java/fencing/support")).as("the kit's own fencing.support tests in the handout")
                .doesNotExist();
        assertThat(handout.resolve("src/test/java/fencing/basics/FencingTests.java")).as("a public test beside them").exists();
    }

    @Test
    @DisplayName("the kit's README lists exactly the student files the grader takes, and the study folder beside them")
    void readmeListsTheStudentFilesTheGraderTakes() throws IOException {
        String readme = Files.readString(KitLocations.root().resolve("README.md"));
        String paragraph = readme.split("Student-owned files", 2)[1].split("\n\n", 2)[0];

        assertThat(studentFiles(paragraph)).as("the student files the README lists, against StudentFiles.PATHS")
                .containsExactlyInAnyOrderElementsOf(StudentFiles.PATHS);
        assertThat(paragraph).as("the README names what the grader takes beside the sources")
                .contains("`" + StudentFiles.STUDY + "/`").contains("`ANSWERS.md`");
        assertThat(studentFiles("`fencing/basics/{LockService,Resource}.java`, `fencing/etcd/EtcdLockService.java`"))
                .as("the reading of a list that leaves files out").containsExactly("fencing/basics/LockService.java",
                        "fencing/basics/Resource.java", "fencing/etcd/EtcdLockService.java");
    }

    @Test
    @DisplayName("the handout's lab README keeps what a student needs and stays short: the maintainers' parts stay in the kit")
    void labReadmeStaysShort() throws IOException {
        Path handout = write(dir.resolve("handout"));
        String lab = Files.readString(handout.resolve("lab/README.md"));

        assertThat(lab.getBytes(StandardCharsets.UTF_8).length).as("the handout's lab/README.md, in bytes").isLessThan(20_000);
        assertThat(lab).as("the handout's lab README").contains("## Running it").contains("### What to look for").contains("ANSWERS.md")
                .doesNotContain("## For maintainers").doesNotContain("## The sink server on its own").doesNotContain("history format");
    }

    /** Returns the {@code fencing/...java} paths a README paragraph names, with {@code {A,B}} groups spelled out. */
    private static List<String> studentFiles(String paragraph) {
        List<String> files = new ArrayList<>();
        java.util.regex.Matcher named = Pattern.compile("`(fencing/[a-z]+/)(?:\\{([A-Za-z,]+)\\}|([A-Za-z]+))\\.java`").matcher(paragraph);
        while (named.find()) {
            for (String name : (named.group(2) != null ? named.group(2) : named.group(3)).split(",")) {
                files.add(named.group(1) + name + ".java");
            }
        }
        return files;
    }

    @Test
    @DisplayName("writing a handout over a directory that holds anything is refused and changes nothing")
    void refusesNonEmptyDirectory() throws IOException {
        Path out = Files.createDirectories(dir.resolve("taken"));
        Files.writeString(out.resolve("notes.txt"), "mine");

        assertThatThrownBy(() -> new Handout(KitLocations.root()).write(out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing or empty");
        try (Stream<Path> left = Files.list(out)) {
            assertThat(left).as("what is left in the refused directory").containsExactly(out.resolve("notes.txt"));
        }
    }

    @Test
    @DisplayName("in the handout, mvn test fails on the stubs, and every failure says what is not implemented or answered yet")
    void stubsFailOnlyAsNotImplemented() throws Exception {
        Path handout = write(dir.resolve("handout"));

        MavenBuild build = MavenBuild.test(handout, dir.resolve("stubs.log"));

        assertThat(build.exitCode()).as("exit code of mvn test on the stubs; output:%n%s", build.tail()).isNotZero();
        assertThat(build.cases()).as("tests run in the handout; output:%n%s", build.tail()).isNotEmpty();
        assertThat(build.cases()).as("tests skipped in the handout (etcd is given to them)")
                .noneMatch(MavenBuild.Case::skipped);
        assertThat(build.failures()).as("tests failed on the stubs").isNotEmpty().allSatisfy(failure ->
                assertThat(failure.message()).as("why %s failed on the stubs", failure.name()).matches(ReferenceGradesTests.NOT_DONE_YET));
    }

    @Test
    @DisplayName("with the solution files copied in, mvn test passes in the handout")
    void passesWithTheSolutions() throws Exception {
        Path handout = write(dir.resolve("handout"));
        FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT),
                handout.resolve(StudentFiles.SOURCE_ROOT));

        MavenBuild build = MavenBuild.test(handout, dir.resolve("solutions.log"));

        assertThat(build.cases()).as("tests run in the handout; output:%n%s", build.tail()).isNotEmpty();
        assertThat(build.failures()).as("tests failed on the solutions").isEmpty();
        assertThat(build.exitCode()).as("exit code of mvn test on the solutions; output:%n%s", build.tail()).isZero();
    }

    /** Versions a pom declares: its {@code *.version} properties, its Java release and its managed plugins' versions. */
    private static Map<String, String> versions(Element project) {
        Map<String, String> versions = new TreeMap<>();
        NodeList properties = ((Element) project.getElementsByTagName("properties").item(0)).getChildNodes();
        for (int i = 0; i < properties.getLength(); i++) {
            if (properties.item(i) instanceof Element property
                    && (property.getTagName().endsWith(".version") || property.getTagName().equals("maven.compiler.release"))) {
                versions.put(property.getTagName(), property.getTextContent().strip());
            }
        }
        Element management = (Element) project.getElementsByTagName("pluginManagement").item(0);
        NodeList plugins = management.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            NodeList version = plugin.getElementsByTagName("version");
            if (version.getLength() > 0 && version.item(0).getParentNode() == plugin) {
                versions.put("plugin:" + plugin.getElementsByTagName("artifactId").item(0).getTextContent().strip(),
                        version.item(0).getTextContent().strip());
            }
        }
        return versions;
    }

    private static Element parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
    }

    private static Path write(Path out) throws IOException {
        new Handout(KitLocations.root()).write(out);
        return out;
    }

    /** Lists what a handout gives away: solution lines, hidden test class names, grader references, kit-only folders. */
    static List<String> leaks(Path handout) throws IOException {
        Path kit = KitLocations.root();
        Set<String> provided = new HashSet<>();
        for (Path root : List.of(kit.resolve("exercises/src"), kit.resolve("labs/src/main"))) {
            for (Path file : files(root)) {
                text(file).ifPresent(text -> text.lines().map(String::strip).forEach(provided::add));
            }
        }
        text(kit.resolve("exercises/ANSWERS.md")).ifPresent(text -> text.lines().map(String::strip).forEach(provided::add));
        Set<String> solutionOnly = new HashSet<>();
        List<Path> solutionFiles = new ArrayList<>(files(kit.resolve("solutions/src")));
        solutionFiles.add(kit.resolve("solutions/ANSWERS.md"));
        for (Path file : solutionFiles) {
            text(file).ifPresent(text -> text.lines().map(String::strip)
                    .filter(line -> line.length() >= 12 && !provided.contains(line))
                    .forEach(solutionOnly::add));
        }
        if (solutionOnly.isEmpty()) {
            throw new IllegalStateException("found no line that only the solutions have: the leak check would be blind");
        }
        List<Pattern> hiddenClasses = new ArrayList<>();
        for (Path file : files(kit.resolve("grader/tests/src/main/java"))) {
            String name = file.getFileName().toString();
            if (name.endsWith("Tests.java")) {
                hiddenClasses.add(Pattern.compile("\\b" + Pattern.quote(name.substring(0, name.length() - 5)) + "\\b"));
            }
        }
        List<String> leaks = new ArrayList<>();
        for (Path file : files(handout)) {
            String relative = handout.relativize(file).toString();
            for (String kitOnly : List.of("solutions", "grader", "catalog")) {
                if (List.of(relative.split("/")).contains(kitOnly)) {
                    leaks.add(relative + ": a kit-only folder (" + kitOnly + ")");
                }
            }
            var text = text(file);
            if (text.isEmpty()) {
                continue;
            }
            text.get().lines().map(String::strip).filter(solutionOnly::contains).findFirst()
                    .ifPresent(line -> leaks.add(relative + ": a line of a solution file: " + line));
            if (HIDDEN_MARKERS.matcher(text.get()).find()) {
                leaks.add(relative + ": a hidden-test marker (@Graded or fencing.grader)");
            }
            hiddenClasses.stream().filter(name -> name.matcher(text.get()).find()).findFirst()
                    .ifPresent(name -> leaks.add(relative + ": the name of a hidden test class, " + name.pattern()));
            for (fencing.reasoning.AnswerKey.Question question : fencing.reasoning.AnswerKey.QUESTIONS) {
                for (String secret : List.of(question.model(), question.rubric())) {
                    if (text.get().contains(secret.substring(0, Math.min(60, secret.length())))) {
                        leaks.add(relative + ": the model answer or rubric of question " + question.number());
                    }
                }
            }
            for (fencing.reasoning.AnswerKey.OpenQuestion question : fencing.reasoning.AnswerKey.OPEN_QUESTIONS) {
                for (String secret : List.of(question.model(), question.rubric())) {
                    if (text.get().contains(secret.substring(0, Math.min(60, secret.length())))) {
                        leaks.add(relative + ": the model answer or rubric of open question " + question.number());
                    }
                }
            }
        }
        return leaks;
    }

    private static java.util.Optional<String> text(Path file) throws IOException {
        try {
            return java.util.Optional.of(StandardCharsets.UTF_8.newDecoder().decode(
                    java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString());
        } catch (CharacterCodingException binary) {
            return java.util.Optional.empty();
        }
    }

    private static List<Path> files(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(root)) {
            // Git's own files (.git/) are git's: the handout's committed files are the ones beside them.
            return paths.filter(Files::isRegularFile).filter(path -> !root.relativize(path).toString().contains("target/"))
                    .filter(path -> !root.relativize(path).startsWith(".git"))
                    .sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
