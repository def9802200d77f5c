package fencing.grader;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes GitHub Classroom's {@code autograding.json} from the grading policy, so that Classroom's score is the one in
 * {@code results.json}.
 *
 * <p>A Classroom check passes or fails whole, so a property worth {@code n} points becomes {@code n} checks of one
 * point each, the {@code k}-th passing when the submission earned at least {@code k} of the property's points. The
 * checks depend on the policy only: adding a test changes nothing here.
 */
public final class ClassroomChecks {

    /** Where the checks live in the kit's templates. */
    public static final String FILE = "grader/templates/github-classroom/.github/classroom/autograding.json";

    /** Where {@code grade.sh} writes the report, relative to the student's repository. */
    static final String RESULTS = "../fencing-report/results.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ClassroomChecks() {
    }

    /** Rewrites the kit's {@code autograding.json} from its grading policy. */
    public static void main(String[] args) throws IOException {
        Path file = KitLocations.root().resolve(FILE);
        Files.writeString(file, json(GradingPolicy.load()) + "\n", StandardCharsets.UTF_8);
        System.out.println("Wrote " + file);
    }

    /** Returns the checks for {@code policy}, as GitHub Classroom reads them. */
    public static String json(GradingPolicy policy) throws IOException {
        List<Map<String, Object>> tests = new ArrayList<>();
        policy.tags().forEach((tag, property) -> {
            int points = policy.points(tag);
            for (int k = 1; k <= points; k++) {
                Map<String, Object> check = new LinkedHashMap<>();
                check.put("name", property.title() + " (" + tag + "): point " + k + " of " + points);
                check.put("setup", "");
                check.put("run", "jq -e '[.tests[] | select(.tags[0] == \"" + tag + "\") | .score] | add >= " + k + "' " + RESULTS);
                check.put("input", "");
                check.put("output", "");
                check.put("comparison", "included");
                check.put("timeout", 1);
                check.put("points", 1);
                tests.add(check);
            }
        });
        return JSON.writeValueAsString(Map.of("tests", tests));
    }
}
