package fencing.grader.pipeline;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The shape of {@code grader/grading-policy.yml} as written, read by Jackson into records: what {@link GradingPolicy}
 * is made from once every value has been checked. A key the shape does not know is refused, so that a misspelt key
 * never silently leaves a default in force.
 *
 * @param countExtensions whether the extension properties count ({@code count-extensions})
 * @param limits          the {@code limits:} section
 * @param explanations    who sees the open explanations; hidden when left out
 * @param tags            the properties, in the file's order
 */
record PolicyFile(@JsonProperty("count-extensions") Boolean countExtensions, LimitsSection limits,
                  GradingPolicy.Visibility explanations, LinkedHashMap<String, TagEntry> tags) {

    /**
     * The {@code limits:} section, in whole seconds.
     *
     * @param testCpuSeconds  {@code test-cpu-seconds}
     * @param testWallSeconds {@code test-wall-seconds}
     * @param runSeconds      {@code run-seconds}
     * @param byTag           {@code by-tag}: lower limits of the tests of some properties
     */
    record LimitsSection(@JsonProperty("test-cpu-seconds") Integer testCpuSeconds,
                         @JsonProperty("test-wall-seconds") Integer testWallSeconds,
                         @JsonProperty("run-seconds") Integer runSeconds,
                         @JsonProperty("by-tag") LinkedHashMap<String, TagLimits> byTag) {
    }

    /**
     * One property's own limits under {@code limits: by-tag:}, in whole seconds; either may be left out.
     *
     * @param testCpuSeconds  {@code test-cpu-seconds}
     * @param testWallSeconds {@code test-wall-seconds}
     */
    record TagLimits(@JsonProperty("test-cpu-seconds") Integer testCpuSeconds,
                     @JsonProperty("test-wall-seconds") Integer testWallSeconds) {
    }

    /**
     * One property under {@code tags:}.
     *
     * @param title      what a student reads; the tag's own name when left out
     * @param points     what the property is worth
     * @param part       core or extension
     * @param visibility who sees its tests' names and messages
     */
    record TagEntry(String title, Integer points, GradingPolicy.Part part, GradingPolicy.Visibility visibility) {
    }

    // Without these, Jackson would take "3" for 3, 2.5 for 2 and "true" for true: a policy means what it says or is refused.
    private static final ObjectMapper MAPPER = JsonMapper.builder(new YAMLFactory())
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /**
     * Reads {@code file}.
     *
     * @throws GradingPolicy.Invalid if it is no YAML, holds a key the shape does not know, or a value of the wrong kind
     */
    static PolicyFile read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the grading policy " + file, e);
        }
        try {
            PolicyFile read = text.isBlank() ? null : MAPPER.readValue(text, PolicyFile.class);
            return read != null ? read : new PolicyFile(null, null, null, null);
        } catch (UnrecognizedPropertyException e) {
            List<JsonMappingException.Reference> path = e.getPath();
            String section = where(path.subList(0, path.size() - 1));
            throw new GradingPolicy.Invalid(file, (section.isEmpty() ? "" : section + ": ") + "unknown key '" + e.getPropertyName()
                    + "' (known here: " + e.getKnownPropertyIds().stream().map(String::valueOf).sorted()
                    .collect(Collectors.joining(", ")) + ")");
        } catch (JsonMappingException e) {
            throw new GradingPolicy.Invalid(file, wrongValue(text, e));
        } catch (JsonProcessingException e) {
            throw new GradingPolicy.Invalid(file, "not valid YAML: " + e.getOriginalMessage());
        }
    }

    /** Says which value is wrong, in the words a policy's reader uses, and what was found instead. */
    private static String wrongValue(String text, JsonMappingException e) {
        List<JsonMappingException.Reference> path = e.getPath();
        String key = path.isEmpty() || path.get(path.size() - 1).getFieldName() == null ? ""
                : path.get(path.size() - 1).getFieldName();
        String found = e instanceof InvalidFormatException format ? "'" + format.getValue() + "'" : found(text, path);
        if (path.size() == 2 && "tags".equals(path.get(0).getFieldName())) {
            return "tag " + key + " must be a section of title, points, part and visibility, got " + found;
        }
        String where = where(path.subList(0, Math.max(0, path.size() - 1)));
        String prefix = where.isEmpty() ? "" : where + ": ";
        return prefix + switch (key) {
            case "count-extensions" -> "count-extensions must be true or false, got " + found;
            case "points" -> "points must be a whole number, 0 or more, got " + found;
            case "part" -> GradingPolicy.Part.EXPECTED + ", got " + found;
            case "visibility", "explanations" -> key + " " + GradingPolicy.Visibility.EXPECTED + ", got " + found;
            case "test-cpu-seconds", "test-wall-seconds", "run-seconds" -> key + " must be a whole number of seconds, 1 or more, got "
                    + found;
            case "tags", "limits" -> "'" + key + ":' must be a section of keys, got " + found;
            default -> (key.isEmpty() ? "the file" : key) + " has a value of the wrong kind, got " + found;
        };
    }

    /** Names the value at {@code path} of the YAML {@code text} as a policy's reader would, read again as a tree. */
    private static String found(String text, List<JsonMappingException.Reference> path) {
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return "a value that is not valid YAML";
        }
        for (JsonMappingException.Reference step : path) {
            node = node == null ? null : step.getFieldName() != null ? node.get(step.getFieldName()) : node.get(step.getIndex());
        }
        if (node == null || node.isNull()) {
            return "nothing";
        }
        return node.isArray() ? "a list" : node.isObject() ? "a section of keys" : node.isTextual() ? "the text '" + node.asText() + "'"
                : node.toString();
    }

    /** Names a place in the file as a reader does: "tag quorum", "limits", "limits.by-tag.quorum", or nothing at the top. */
    private static String where(List<JsonMappingException.Reference> path) {
        if (path.size() >= 2 && "tags".equals(path.get(0).getFieldName())) {
            return "tag " + path.get(1).getFieldName();
        }
        if (path.size() >= 3 && "by-tag".equals(path.get(1).getFieldName())) {
            return "limits.by-tag." + path.get(2).getFieldName();
        }
        return path.isEmpty() ? "" : path.get(0).getFieldName();
    }
}
