package fencing.grader;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A structural check of a GitHub Actions workflow file, read with Jackson's YAML parser.
 *
 * <p>It finds the mistakes a hand edit makes: text that is not YAML (a tab, a line indented under a key that
 * holds a value), a workflow without {@code name}, {@code on} or {@code jobs}, a job without {@code runs-on}
 * or {@code steps}, a step that neither runs nor uses anything, and an unclosed {@code ${{ }}}.
 */
final class WorkflowShape {

    private static final YAMLMapper YAML = new YAMLMapper();

    private WorkflowShape() {
    }

    /**
     * Reads {@code text} as YAML.
     *
     * @throws IllegalArgumentException if it is not YAML, with the parser's line and reason
     */
    static JsonNode read(String text) {
        try {
            return YAML.readTree(text);
        } catch (JsonProcessingException e) {
            String line = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr() + ": ";
            throw new IllegalArgumentException(line + "not YAML: " + e.getOriginalMessage(), e);
        }
    }

    /** Returns what is wrong with {@code text} as a workflow; empty when it has the expected shape. */
    static List<String> problems(String text) {
        JsonNode root;
        try {
            root = read(text);
        } catch (IllegalArgumentException e) {
            return List.of(e.getMessage());
        }
        if (root == null || !root.isObject()) {
            return List.of("the workflow is not a mapping of keys to values");
        }
        List<String> problems = new ArrayList<>();
        for (String required : List.of("name", "on", "jobs")) {
            if (!root.has(required)) {
                problems.add("no top-level '" + required + ":'");
            }
        }
        JsonNode jobs = root.path("jobs");
        if (root.has("jobs") && (!jobs.isObject() || jobs.isEmpty())) {
            problems.add("'jobs:' holds no job");
        }
        for (Map.Entry<String, JsonNode> job : jobs.properties()) {
            for (String required : List.of("runs-on", "steps")) {
                if (!job.getValue().has(required)) {
                    problems.add("job '" + job.getKey() + "' has no '" + required + ":'");
                }
            }
            JsonNode steps = job.getValue().path("steps");
            for (int i = 0; i < steps.size(); i++) {
                JsonNode step = steps.get(i);
                if (!step.has("run") && !step.has("uses")) {
                    problems.add("job '" + job.getKey() + "', step " + (i + 1) + " neither runs a command nor uses an action");
                }
            }
        }
        unclosedExpressions(root, "", problems);
        return problems;
    }

    /** Returns the steps of every job in {@code workflow}, in order. */
    static List<JsonNode> steps(JsonNode workflow) {
        List<JsonNode> steps = new ArrayList<>();
        workflow.path("jobs").forEach(job -> job.path("steps").forEach(steps::add));
        return steps;
    }

    private static void unclosedExpressions(JsonNode node, String path, List<String> problems) {
        if (node.isTextual()) {
            if (count(node.asText(), "${{") != count(node.asText(), "}}")) {
                problems.add(path + ": an expression ${{ ... }} is not closed: " + node.asText());
            }
            return;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                unclosedExpressions(node.get(i), path + "[" + i + "]", problems);
            }
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            unclosedExpressions(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), problems);
        }
    }

    private static int count(String text, String part) {
        int found = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            found++;
        }
        return found;
    }
}
