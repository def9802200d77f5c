package fencing.grader;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import fencing.grader.pipeline.Grade;
import fencing.grader.pipeline.TestResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The catalog's recorded verdicts, {@code grader/tests/catalog/verdicts.yml}: for every entry, the tests it fails; every
 * other test of its grade passes.
 *
 * <p>The catalog is graded once per run and each grade is held to this record, so that a verdict can move from one commit
 * to the next only where the record's diff says so. {@code ./kit catalog --record} grades the catalog and writes the
 * record again, printing each change ({@link #changes}).
 *
 * @param failing each entry's failing tests ({@code kind/name} to the tests' names, {@code Class › display name}), sorted
 */
record CatalogVerdicts(Map<String, List<String>> failing) {

    /** The system property that makes the catalog's check write the record instead of holding grades to it. */
    static final String RECORD_PROPERTY = "catalog.record";

    private static final String HEADER = """
            # The catalog's recorded verdicts: for each entry (kind/name), the tests it fails; every other test passes.
            # The catalog's checks grade every entry once and fail on any verdict that differs from this record.
            # Written by ./kit catalog --record, which prints what changed; review that diff as you review code.
            """;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES));

    CatalogVerdicts {
        Map<String, List<String>> sorted = new TreeMap<>();
        failing.forEach((entry, tests) -> sorted.put(entry, List.copyOf(new TreeSet<>(tests))));
        failing = java.util.Collections.unmodifiableMap(sorted);
    }

    /** Returns the record's file in this kit. */
    static Path file() {
        return KitLocations.catalog().resolve("verdicts.yml");
    }

    /** Whether this run writes the record ({@value #RECORD_PROPERTY}{@code =true}) rather than holds grades to it. */
    static boolean recording() {
        return Boolean.getBoolean(RECORD_PROPERTY);
    }

    /** Reads the record at {@code file}; a missing file is an empty record. */
    static CatalogVerdicts read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return new CatalogVerdicts(Map.of());
        }
        Map<String, List<String>> read = YAML.readValue(Files.readString(file, StandardCharsets.UTF_8),
                new TypeReference<Map<String, List<String>>>() { });
        Map<String, List<String>> failing = new TreeMap<>();
        // An entry written with nothing after its colon fails no test, as one written with [] does.
        (read == null ? Map.<String, List<String>>of() : read).forEach((entry, tests) -> failing.put(entry, tests == null ? List.of() : tests));
        return new CatalogVerdicts(failing);
    }

    /** Writes this record to {@code file}, with a header that says what it is. */
    void write(Path file) throws IOException {
        Files.writeString(file, HEADER + YAML.writeValueAsString(failing), StandardCharsets.UTF_8);
    }

    /** Returns the entry's key in the record: its kind and name, {@code wrong/ledger-applies-twice}. */
    static String key(Path entry) {
        return entry.getParent().getFileName() + "/" + entry.getFileName();
    }

    /** Returns the tests {@code grade} failed, by name. */
    static List<String> failedIn(Grade grade) {
        return grade.results().stream().filter(result -> !result.passed()).map(result -> result.test().name()).sorted().toList();
    }

    /** Returns this record with {@code entry}'s failing tests set to those of {@code grade}. */
    CatalogVerdicts with(Path entry, Grade grade) {
        Map<String, List<String>> updated = new TreeMap<>(failing);
        updated.put(key(entry), failedIn(grade));
        return new CatalogVerdicts(updated);
    }

    /**
     * Lists every way {@code grade} of {@code entry} differs from the record, each naming the entry, the test and both
     * verdicts; empty when they agree.
     */
    List<String> differences(Path entry, Grade grade) {
        String key = key(entry);
        List<String> recorded = failing.get(key);
        if (recorded == null) {
            return List.of(key + ": not in " + file().getFileName() + "; record it with ./kit catalog --record");
        }
        List<String> differences = new ArrayList<>();
        if (grade.status() != Grade.Status.GRADED) {
            differences.add(key + ": " + grade.status() + " (" + grade.reason() + "), recorded as graded");
        }
        Set<String> expectedFailing = Set.copyOf(recorded);
        Set<String> seen = new TreeSet<>();
        for (TestResult result : grade.results()) {
            String name = result.test().name();
            seen.add(name);
            boolean expectedPass = !expectedFailing.contains(name);
            if (result.passed() != expectedPass) {
                differences.add(key + ": " + name + ": " + (result.passed() ? "passed" : "failed (" + firstLine(result.message()) + ")")
                        + ", recorded as " + (expectedPass ? "passed" : "failed"));
            }
        }
        recorded.stream().filter(name -> !seen.contains(name))
                .forEach(name -> differences.add(key + ": " + name + ": recorded as failed, but the grade has no such test"));
        return differences;
    }

    /** Lists what changed from {@code before} to {@code after}, a line per entry and test, for a maintainer to review. */
    static List<String> changes(CatalogVerdicts before, CatalogVerdicts after) {
        List<String> changes = new ArrayList<>();
        Set<String> entries = new TreeSet<>(before.failing.keySet());
        entries.addAll(after.failing.keySet());
        for (String entry : entries) {
            List<String> was = before.failing.get(entry);
            List<String> now = after.failing.get(entry);
            if (was == null) {
                changes.add("+ " + entry + ": new entry, failing " + now.size() + " test(s)");
            } else if (now == null) {
                changes.add("- " + entry + ": entry gone");
            } else {
                now.stream().filter(test -> !was.contains(test)).forEach(test -> changes.add("~ " + entry + ": " + test + ": now fails"));
                was.stream().filter(test -> !now.contains(test)).forEach(test -> changes.add("~ " + entry + ": " + test + ": now passes"));
            }
        }
        return changes;
    }

    private static String firstLine(String message) {
        String line = message.lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
