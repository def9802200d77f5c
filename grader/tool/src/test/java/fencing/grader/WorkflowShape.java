package fencing.grader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A structural check of a GitHub Actions workflow file, without a YAML parser.
 *
 * <p>It reads the block-style YAML these templates use: two-space indentation, {@code key: value}
 * mappings, {@code - } list items and {@code |} block scalars. It finds the mistakes a hand edit makes
 * (tabs, a line indented under a key that holds a value, a job without {@code runs-on} or
 * {@code steps}, a step that neither runs nor uses anything, an unclosed {@code ${{ }}}); it does not
 * claim to accept only valid YAML.
 */
final class WorkflowShape {

    private static final Pattern KEY = Pattern.compile("^(- )?([A-Za-z0-9_.\"'-]+):(\\s.*)?$");

    private WorkflowShape() {
    }

    /** Returns what is wrong with {@code text} as a workflow; empty when it has the expected shape. */
    static List<String> problems(String text) {
        List<String> problems = new ArrayList<>();
        List<String> lines = text.lines().toList();
        Map<String, Integer> topLevel = new LinkedHashMap<>();
        int blockIndent = -1;
        int previousIndent = 0;
        boolean previousOpens = true;
        String job = null;
        Map<String, List<String>> jobKeys = new LinkedHashMap<>();
        int stepsIndent = -1;
        List<List<String>> steps = new ArrayList<>();
        for (int number = 1; number <= lines.size(); number++) {
            String line = lines.get(number - 1);
            if (line.contains("\t")) {
                problems.add("line " + number + ": a tab (YAML indents with spaces)");
                continue;
            }
            String content = line.strip();
            int indent = line.indexOf(content.isEmpty() ? line : content);
            if (content.isEmpty() || content.startsWith("#")) {
                continue;
            }
            if (blockIndent >= 0) {
                if (indent > blockIndent) {
                    continue;
                }
                blockIndent = -1;
            }
            if (indent % 2 != 0) {
                problems.add("line " + number + ": indented by " + indent + " spaces, not a multiple of 2");
            }
            if (indent > previousIndent && !previousOpens) {
                problems.add("line " + number + ": indented under a line that opens nothing");
            }
            if (count(content, "${{") != count(content, "}}")) {
                problems.add("line " + number + ": an expression ${{ ... }} is not closed on its line");
            }
            Matcher key = KEY.matcher(content);
            if (!key.matches() && !content.startsWith("- ")) {
                problems.add("line " + number + ": neither 'key: value' nor a list item: " + content);
            }
            String name = key.matches() ? key.group(2).replace("\"", "").replace("'", "") : null;
            String value = key.matches() && key.group(3) != null ? key.group(3).strip() : "";
            if (indent == 0 && name != null) {
                topLevel.put(name, number);
                job = null;
            }
            if (indent == 2 && name != null && topLevel.containsKey("jobs") && lastKey(topLevel).equals("jobs")) {
                job = name;
                jobKeys.put(job, new ArrayList<>());
                stepsIndent = -1;
            }
            if (job != null && indent == 4 && name != null) {
                jobKeys.get(job).add(name);
                stepsIndent = name.equals("steps") ? indent + 2 : -1;
            }
            if (stepsIndent >= 0 && indent == stepsIndent && content.startsWith("- ")) {
                steps.add(new ArrayList<>());
            }
            if (stepsIndent >= 0 && !steps.isEmpty() && name != null
                    && (indent == stepsIndent || indent == stepsIndent + 2)) {
                steps.get(steps.size() - 1).add(name);
            }
            boolean opensBlock = value.startsWith("|") || value.startsWith(">");
            if (opensBlock) {
                blockIndent = indent + (content.startsWith("- ") ? 2 : 0);
            }
            previousIndent = indent;
            previousOpens = content.startsWith("- ") || (name != null && value.isEmpty()) || opensBlock;
        }
        for (String required : List.of("name", "on", "jobs")) {
            if (!topLevel.containsKey(required)) {
                problems.add("no top-level '" + required + ":'");
            }
        }
        if (jobKeys.isEmpty() && topLevel.containsKey("jobs")) {
            problems.add("'jobs:' holds no job");
        }
        jobKeys.forEach((name, keys) -> {
            for (String required : List.of("runs-on", "steps")) {
                if (!keys.contains(required)) {
                    problems.add("job '" + name + "' has no '" + required + ":'");
                }
            }
        });
        for (int i = 0; i < steps.size(); i++) {
            if (!steps.get(i).contains("run") && !steps.get(i).contains("uses")) {
                problems.add("step " + (i + 1) + " neither runs a command nor uses an action");
            }
        }
        return problems;
    }

    private static String lastKey(Map<String, Integer> keys) {
        return keys.keySet().stream().reduce((first, second) -> second).orElse("");
    }

    private static int count(String text, String part) {
        int found = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            found++;
        }
        return found;
    }
}
