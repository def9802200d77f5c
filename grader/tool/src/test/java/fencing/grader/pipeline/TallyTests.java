package fencing.grader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TallyTests {

    private static final String ENGINE = "[engine:junit-jupiter]";
    private static final String FIRST = ENGINE + "/[class:fencing.basics.FirstTests]";
    private static final String SECOND = ENGINE + "/[class:fencing.basics.SecondTests]";
    private static final TestCase FIRST_TEST = test(FIRST, "passes");
    private static final TestCase SECOND_TEST = test(SECOND, "waits");

    private final Map<String, TestResult> results = new LinkedHashMap<>();
    private final Tally tally = new Tally(List.of(FIRST_TEST, SECOND_TEST), results);

    @Test
    @DisplayName("a JVM that ends between two classes, with only the engine's container open, has no class running")
    void betweenClassesNoClassIsRunning() {
        tally.record(new TestEvent.Started(ENGINE));
        tally.record(new TestEvent.Started(FIRST));
        tally.record(new TestEvent.Started(FIRST_TEST.uniqueId()));
        tally.record(new TestEvent.Finished(FIRST_TEST.uniqueId(), "SUCCESSFUL", null, null));
        tally.record(new TestEvent.Finished(FIRST, "SUCCESSFUL", null, null));

        assertThat(tally.running()).as("the running test after %s finished", FIRST_TEST.name()).isEmpty();
        assertThat(tally.runningClass())
                .as("the running class once %s finished and %s has not started: the engine holds the left test, but is no class",
                        FIRST, SECOND)
                .isEmpty();
    }

    @Test
    @DisplayName("a JVM that ends in a class's set-up, before its first test, has that class running")
    void inSetUpTheClassIsRunning() {
        tally.record(new TestEvent.Started(ENGINE));
        tally.record(new TestEvent.Started(FIRST));
        tally.record(new TestEvent.Started(FIRST_TEST.uniqueId()));
        tally.record(new TestEvent.Finished(FIRST_TEST.uniqueId(), "SUCCESSFUL", null, null));
        tally.record(new TestEvent.Finished(FIRST, "SUCCESSFUL", null, null));
        tally.record(new TestEvent.Started(SECOND));

        assertThat(tally.runningClass()).as("the running class once %s started and none of its tests had", SECOND)
                .contains(SECOND);
        assertThat(tally.failClass(SECOND, "exited in set-up")).as("the tests failed with %s's set-up", SECOND).isEqualTo(1);
        assertThat(results).as("results after %s's set-up failed", SECOND).containsOnlyKeys(FIRST_TEST.uniqueId(), SECOND_TEST.uniqueId());
        assertThat(results.get(FIRST_TEST.uniqueId()).passed()).as("%s, which finished before the exit", FIRST_TEST.name()).isTrue();
    }

    @Test
    @DisplayName("with groups side by side, every test and every class in set-up that has not finished is running")
    void sideBySideEverythingUnfinishedIsRunning() {
        tally.record(new TestEvent.Started(ENGINE));
        tally.record(new TestEvent.Started(FIRST));
        tally.record(new TestEvent.Started(ENGINE));
        tally.record(new TestEvent.Started(SECOND));
        tally.record(new TestEvent.Started(FIRST_TEST.uniqueId()));

        assertThat(tally.allRunning()).as("what runs once %s started and %s is in its set-up, each launcher with its engine:"
                + " %s's class is measured by its test", FIRST_TEST.name(), SECOND, FIRST_TEST.name())
                .containsExactlyInAnyOrder(FIRST_TEST.uniqueId(), SECOND);

        tally.record(new TestEvent.Finished(FIRST_TEST.uniqueId(), "SUCCESSFUL", null, null));
        tally.record(new TestEvent.Finished(FIRST, "SUCCESSFUL", null, null));
        tally.record(new TestEvent.Finished(ENGINE, "SUCCESSFUL", null, null));

        assertThat(tally.allRunning()).as("what runs once %s's class finished, with %s still in its set-up", FIRST_TEST.name(), SECOND)
                .containsExactly(SECOND);
    }

    @Test
    @DisplayName("a failure a time bound ended (a call's timeout, etcd's commit timeout, a lease etcd expired, SQLite's busy"
            + " timeout) is told apart from one the code under test made")
    void failuresOnATimeBoundAreToldApart() {
        Map<String, Boolean> timeBound = new LinkedHashMap<>();
        timeBound.put("java.util.concurrent.TimeoutException", true);
        timeBound.put("io.grpc.StatusRuntimeException: DEADLINE_EXCEEDED: deadline exceeded after 4.9s", true);
        timeBound.put("etcd call failed: UNAVAILABLE: etcdserver: request timed out", true);
        timeBound.put("etcd call failed: NOT_FOUND: etcdserver: requested lease not found", true);
        timeBound.put("org.sqlite.SQLiteException: [SQLITE_BUSY] The database file is locked", true);
        timeBound.put("expected the late write with token 3 to be rejected, but the sink accepted it", false);
        timeBound.put("etcd call failed: FAILED_PRECONDITION: etcdserver: key is not provided", false);
        tally.record(new TestEvent.Started(ENGINE));
        tally.record(new TestEvent.Started(FIRST));
        int n = 0;
        for (Map.Entry<String, Boolean> failure : timeBound.entrySet()) {
            String id = FIRST + "/[method:failure" + n++ + "()]";
            tally.record(new TestEvent.Started(id));
            tally.record(new TestEvent.Finished(id, "FAILED", failure.getKey(), "\tat fencing.etcd.EtcdLockService.acquire"));

            assertThat(tally.failedOnATimeBound(id)).as("whether \"%s\" is a failure on a time bound", failure.getKey())
                    .isEqualTo(failure.getValue());
        }
    }

    private static TestCase test(String classId, String method) {
        String className = classId.substring(classId.indexOf(":fencing") + 1, classId.length() - 1);
        return new TestCase(classId + "/[method:" + method + "()]", className, method, method, 1, List.of("tag"));
    }
}
