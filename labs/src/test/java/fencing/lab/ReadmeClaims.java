package fencing.lab;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the lab's README claims about the files a run writes and the events it records, checked against a real
 * {@code --case all} run: each claim that does not hold is one line.
 */
final class ReadmeClaims {

    /** A backticked name in capitals joined by underscores or hyphens, the way the README names an event kind. */
    private static final Pattern EVENT = Pattern.compile("`([A-Z]{2,}(?:[_-][A-Z]+)+)`");
    /** The environment variables the README names, which look like event kinds but are not. */
    private static final Set<String> ENVIRONMENT = Set.of("ETCD_ENDPOINTS", "KIT_REQUIRE_BROWSER");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");

    private ReadmeClaims() {
    }

    /**
     * Returns every event kind {@code readme} names that no case of the run in {@code out} recorded (a sampled kind, which
     * a run can miss, need only be a kind the lab records), and every name that is no kind at all.
     */
    static List<String> events(String readme, Path out) {
        Set<String> recorded = new TreeSet<>();
        for (Evidence.Study study : studies(out)) {
            study.repeats().forEach(repeat -> repeat.trace().events().forEach(e -> recorded.add(e.kind().name())));
        }
        Set<String> known = new TreeSet<>(Arrays.stream(EventKind.values()).map(Enum::name).toList());
        List<String> problems = new ArrayList<>();
        Matcher named = EVENT.matcher(readme);
        while (named.find()) {
            String kind = named.group(1);
            if (ENVIRONMENT.contains(kind)) {
                continue;
            }
            if (!known.contains(kind)) {
                problems.add("the README names an event " + kind + ", which is no kind of event the lab records " + known);
            } else if (!recorded.contains(kind) && !EventKind.valueOf(kind).sampled()) {
                problems.add("the README names the event " + kind + ", which no case of the run recorded");
            }
        }
        return problems;
    }

    /**
     * Returns every file the README's "What is in the out directory" table lists that is in no case folder of {@code out}
     * ({@code repeat-NN} is any repeat, {@code *} any part of a name; a bare name is in the folder of the name before it).
     */
    static List<String> files(String readme, Path out) {
        String table = readme.split("## What is in the out directory", 2)[1].split("\n### |\n## ", 2)[0];
        List<String> problems = new ArrayList<>();
        for (String row : table.lines().filter(line -> line.startsWith("| `")).toList()) {
            String cell = row.split("\\|")[1];
            Matcher names = BACKTICKED.matcher(cell);
            String folder = "";
            while (names.find()) {
                String name = names.group(1);
                String path = name.contains("/") ? name : folder + name;
                folder = path.contains("/") ? path.substring(0, path.lastIndexOf('/') + 1) : "";
                if (!existsInSomeCase(out, path)) {
                    problems.add("the README lists " + path + " in the out directory, and no case of the run wrote it");
                }
            }
        }
        return problems;
    }

    private static boolean existsInSomeCase(Path out, String path) {
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + path.replace("NN", "[0-9][0-9]"));
        try (Stream<Path> folders = Files.list(out)) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(folder)) {
                    if (files.anyMatch(file -> matcher.matches(folder.relativize(file)))) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("could not list the run in " + out, e);
        }
    }

    private static List<Evidence.Study> studies(Path out) {
        List<Evidence.Study> studies = new ArrayList<>();
        try (Stream<Path> folders = Files.list(out)) {
            for (Path folder : folders.filter(Files::isDirectory).sorted().toList()) {
                Path evidence = folder.resolve(Evidence.FILE);
                if (Files.isRegularFile(evidence)) {
                    studies.add(Evidence.read(evidence));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the run's evidence in " + out, e);
        }
        return studies;
    }
}
