package fencing.grader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The {@code ./kit} and {@code ./mvnw} commands and the relative paths that a handout's Markdown files quote,
 * and whether each works in the handout, as a student would type it from the handout's root.
 *
 * <p>A command is a line of a fenced code block, or an inline code span, that starts with {@code ./kit} or
 * {@code ./mvnw}; a trailing {@code # comment} is not part of it. A path is an inline code span or a link
 * target with a {@code /} in it, taken from the handout's root. Not paths: absolute ones, URLs, media types
 * ({@code application/json}), spans with spaces or patterns ({@code {a,b}}, {@code *}), and what the lab
 * writes when it runs: {@code build/...} (its out directory), {@code target/...} and {@code repeat-NN/...}
 * (a repeat's folder inside the out directory).
 */
final class HandoutCommands {

    /** The Markdown files of a handout that a student reads. */
    static final List<String> MARKDOWN = List.of("README.md", "lab/README.md", "ANSWERS.md");

    private static final Pattern INLINE_CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern COMMAND = Pattern.compile("\\./(kit|mvnw)(\\s.*)?");
    private static final Pattern NOT_A_PATH = Pattern.compile(
            "(/|~|\\.\\.\\.|https?:|application/|text/|build/|target/|repeat-[\\w]+/).*|.*[\\s{}*$<>=:,].*");
    private static final long LIMIT_MINUTES = 5;

    /** One command or path as quoted, with where it is quoted. */
    record Quoted(String file, int line, String text) {
        @Override
        public String toString() {
            return "`" + text + "` (" + file + ", line " + line + ")";
        }
    }

    /** What running one command gave. */
    record Run(Quoted command, List<String> argv, int exitCode, String output) {
        /** The end of the output, for failure messages. */
        String tail() {
            return output.length() > 4000 ? "..." + output.substring(output.length() - 4000) : output;
        }

        @Override
        public String toString() {
            return command + " ran as " + String.join(" ", argv) + " and exited with " + exitCode + ":\n" + tail();
        }
    }

    private HandoutCommands() {
    }

    /** Returns every {@code ./kit} and {@code ./mvnw} command the handout's Markdown files quote. */
    static List<Quoted> commands(Path handout) throws IOException {
        List<Quoted> found = new ArrayList<>();
        forEachLine(handout, (file, number, line, inFence) -> {
            if (inFence) {
                commandIn(line.strip()).ifPresent(command -> found.add(new Quoted(file, number, command)));
            } else {
                Matcher code = INLINE_CODE.matcher(line);
                while (code.find()) {
                    commandIn(code.group(1).strip()).ifPresent(command -> found.add(new Quoted(file, number, command)));
                }
            }
        });
        return found;
    }

    /** Returns every relative path the handout's Markdown files name outside code blocks. */
    static List<Quoted> paths(Path handout) throws IOException {
        List<Quoted> found = new ArrayList<>();
        forEachLine(handout, (file, number, line, inFence) -> {
            if (inFence) {
                return;
            }
            for (Pattern quoted : List.of(INLINE_CODE, LINK)) {
                Matcher span = quoted.matcher(line);
                while (span.find()) {
                    String text = span.group(1).strip();
                    if (text.contains("/") && !NOT_A_PATH.matcher(text).matches() && !COMMAND.matcher(text).matches()) {
                        found.add(new Quoted(file, number, text));
                    }
                }
            }
        });
        return found;
    }

    /** Returns the quoted paths that do not exist in the handout. */
    static List<Quoted> missing(Path handout, List<Quoted> paths) {
        Path root = handout.toAbsolutePath().normalize();
        return paths.stream().filter(path -> {
            Path resolved = root.resolve(path.text()).normalize();
            return !resolved.startsWith(root) || !Files.exists(resolved);
        }).toList();
    }

    /**
     * Runs each command in {@code handout} in the form that shows it works without doing the whole job, and
     * returns the runs that failed. {@code ./kit ARGS} runs as {@code ./kit ARGS --help}: it must exit with 0 and
     * print a usage that names each option and each word value in {@code ARGS} (numbers and paths aside), so that
     * the launcher knows the command and the command knows its options ({@code --help} wins over an unknown option
     * in the lab's parser, so the exit code alone would not tell). {@code ./mvnw ARGS} runs with {@code -DskipTests}
     * added (the build, its plugins and goals work; the tests' verdict on the stubs is not this check's business)
     * and, where it starts the lab, with {@code --help} added to the lab's options; {@code ./mvnw} alone, naming
     * the wrapper, runs as {@code ./mvnw --version}. Maven runs offline.
     */
    static List<Run> failures(Path handout, List<Quoted> commands, Path logs) throws IOException, InterruptedException {
        Files.createDirectories(logs);
        Map<List<String>, Run> runs = new LinkedHashMap<>();
        List<Run> failed = new ArrayList<>();
        for (Quoted command : commands) {
            List<String> argv;
            try {
                argv = checkedForm(words(command.text()));
            } catch (IllegalArgumentException e) {
                failed.add(new Run(command, List.of(), -1, e.getMessage()));
                continue;
            }
            Run run = runs.get(argv);
            if (run == null) {
                run = run(handout, command, argv, logs.resolve("command-" + runs.size() + ".log"));
                runs.put(argv, run);
            }
            List<String> unknown = argv.get(0).equals("./kit") ? notInUsage(argv, run.output()) : List.of();
            if (run.exitCode() != 0 || !unknown.isEmpty()) {
                String why = unknown.isEmpty() ? "" : "its usage does not name " + unknown + "\n";
                failed.add(new Run(command, run.argv(), run.exitCode(), why + run.output()));
            }
        }
        return failed;
    }

    /** Splits a command into words the way a POSIX shell would for plain words and quotes; shell syntax is refused. */
    static List<String> words(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (char c : command.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                break;
            } else if ("$`|;&<>()\\".indexOf(c) >= 0) {
                throw new IllegalArgumentException("uses shell syntax (" + c + ") that this check does not run: " + command);
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("has an unclosed " + quote + ": " + command);
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    /** Returns the words of a {@code ./kit} command (after its subcommand) that its usage does not name. */
    private static List<String> notInUsage(List<String> argv, String output) {
        // The launcher's echo of the Maven command it runs names every word; only the usage counts.
        String usage = output.lines().filter(line -> !line.startsWith("+ ")).collect(Collectors.joining("\n"));
        if (!usage.contains("Usage")) {
            return List.of("(no usage printed)");
        }
        return argv.subList(Math.min(2, argv.size()), argv.size()).stream()
                .filter(word -> !word.equals("--help") && !word.matches("\\d+") && !word.contains("/"))
                .filter(word -> !Pattern.compile("(?<![\\w-])" + Pattern.quote(word) + "(?![\\w-])").matcher(usage).find())
                .toList();
    }

    private static List<String> checkedForm(List<String> words) {
        List<String> argv = new ArrayList<>(words);
        if (argv.get(0).equals("./kit")) {
            if (!argv.contains("--help")) {
                argv.add("--help");
            }
            return argv;
        }
        if (argv.size() == 1) {
            argv.add("--version");
            return argv;
        }
        boolean lab = false;
        for (int i = 0; i < argv.size(); i++) {
            String word = argv.get(i);
            if (word.startsWith("-Dstudy.args=")) {
                String options = word.substring("-Dstudy.args=".length()).strip();
                argv.set(i, "-Dstudy.args=" + (options.contains("--help") ? options : (options + " --help").strip()));
                lab = true;
            }
        }
        if (!lab && argv.stream().anyMatch(word -> word.startsWith("exec:exec"))) {
            argv.add("-Dstudy.args=--help");
        }
        argv.add("-DskipTests");
        return argv;
    }

    private static Optional<String> commandIn(String text) {
        if (!COMMAND.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(stripComment(text));
    }

    /** Cuts a trailing {@code # comment} that stands outside quotes. */
    private static String stripComment(String text) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))) {
                return text.substring(0, i).strip();
            }
        }
        return text.strip();
    }

    private static Run run(Path handout, Quoted command, List<String> argv, Path log) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(argv).directory(handout.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeAll(List.of("MAVEN_BASEDIR", "MAVEN_PROJECTBASEDIR"));
        // Offline: the kit's own checks have the handout's dependencies in the local repository, and no network.
        environment.put("MAVEN_ARGS", "-o");
        // Maven's JVM gets the flags of the handout's .mvn/jvm.config, as a student's does, and no others.
        environment.remove("MAVEN_OPTS");
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        try {
            if (!process.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
                return new Run(command, argv, -1, "did not finish in " + LIMIT_MINUTES + " minutes; output so far:\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        return new Run(command, argv, process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private interface LineVisitor {
        void visit(String file, int number, String line, boolean inFence);
    }

    private static void forEachLine(Path handout, LineVisitor visitor) throws IOException {
        for (String file : MARKDOWN) {
            Path markdown = handout.resolve(file);
            if (!Files.isRegularFile(markdown)) {
                continue;
            }
            List<String> lines = Files.readAllLines(markdown, StandardCharsets.UTF_8);
            boolean inFence = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    inFence = !inFence;
                    continue;
                }
                visitor.visit(file, i + 1, line, inFence);
            }
        }
    }
}
