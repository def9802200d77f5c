package fencing.basics;

/** A helper the student put in a file of its own. */
final class ScenarioSteps {

    private ScenarioSteps() {
    }

    static long next(long token) {
        return token + 1;
    }
}
