package fencing.lab.sink;

import static fencing.lab.sink.SeededSinkServer.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencing.sink.ConnectionSource;
import fencing.sink.IdempotentLedger;
import fencing.support.evidence.SinkReply;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The sink server's ledgers over real HTTP and real SQLite files: the fenced counter, the idempotent ledger and the lost answer. */
class SinkServerLedgerTests {

    @TempDir
    Path dir;

    private SeededSinkServer sink;

    @BeforeEach
    void startServerWithRequestB1InBothLedgers() throws Exception {
        sink = SeededSinkServer.start(dir);
        for (String ledger : SinkServer.LEDGERS) {
            HttpResponse<String> seeded = sink.post("/ledgers/" + ledger + "/add", add("B", 8, "B-1", 5));
            assertThat(seeded.statusCode()).as("seeding %s with B-1: %s", ledger, seeded.body()).isEqualTo(200);
        }
    }

    @AfterEach
    void stopServer() {
        sink.close();
    }

    @Test
    @DisplayName("An owner's repeated request is added twice by the fenced counter and once by the idempotent ledger, reported as duplicate")
    void theCounterAppliesARepeatedRequestTwiceAndTheLedgerOnce() throws Exception {
        SinkReply.LedgerVerdict counter = reply(sink.post("/ledgers/fenced-counter/add", add("B", 8, "B-1", 5)), SinkReply.LedgerVerdict.class);
        SinkReply.LedgerVerdict ledger = reply(sink.post("/ledgers/idempotent/add", add("B", 8, "B-1", 5)), SinkReply.LedgerVerdict.class);

        assertThat(counter.verdict()).as("the counter fences by token only, and token 8 equals its mark: %s", counter)
                .isEqualTo("accepted");
        assertThat(counter.after().total()).as("so it adds B-1's amount a second time: %s", counter).isEqualTo(10);
        assertThat(ledger.verdict()).as("the ledger knows B-1 already: %s", ledger).isEqualTo("duplicate");
        assertThat(ledger.accepted()).as("a duplicate reports the recorded verdict: %s", ledger).isTrue();
        assertThat(ledger.after().total()).as("and changes nothing: %s", ledger).isEqualTo(5);
        assertThat(new FencedCounter(ConnectionSource.sqlite(dir.resolve("counter.db"))).read().total()).as("counter.db's total").isEqualTo(10);
        assertThat(new IdempotentLedger(ConnectionSource.sqlite(dir.resolve("ledger.db"))).total()).as("ledger.db's total").isEqualTo(5);
    }

    @Test
    @DisplayName("Both ledgers reject a stale token with a fresh request id, and say their unchanged total")
    void bothLedgersRejectAStaleToken() throws Exception {
        for (String ledger : SinkServer.LEDGERS) {
            SinkReply.LedgerVerdict answer = reply(sink.post("/ledgers/" + ledger + "/add", add("A", 7, "A-1", 3)), SinkReply.LedgerVerdict.class);

            assertThat(answer.verdict()).as("%s: token 7 after mark 8 is stale: %s", ledger, answer).isEqualTo("rejected");
            assertThat(answer.after().total()).as("%s: a rejection adds nothing: %s", ledger, answer).isEqualTo(5);
        }
    }

    @Test
    @DisplayName("A lost answer: the request is applied, the connection closes with no response, and the retry finds it applied")
    void losesTheFirstAnswerOfAnArmedRequestAfterApplyingIt() throws Exception {
        HttpResponse<String> armed = sink.post("/control/lose-first-response/B-2", "");
        assertThat(armed.statusCode()).as("arming the lost answer: %s", armed.body()).isEqualTo(200);

        for (String ledger : SinkServer.LEDGERS) {
            assertThatThrownBy(() -> sink.post("/ledgers/" + ledger + "/add", add("B", 8, "B-2", 4)))
                    .as("%s: the first answer to B-2 is lost, so the client gets no response at all", ledger).isInstanceOf(IOException.class);
        }
        SinkReply.LedgerVerdict counterRetry = reply(sink.post("/ledgers/fenced-counter/add", add("B", 8, "B-2", 4)), SinkReply.LedgerVerdict.class);
        SinkReply.LedgerVerdict ledgerRetry = reply(sink.post("/ledgers/idempotent/add", add("B", 8, "B-2", 4)), SinkReply.LedgerVerdict.class);

        assertThat(counterRetry.after().total()).as("the counter applied B-2 before losing its answer, and again on the retry: %s",
                counterRetry).isEqualTo(5 + 4 + 4);
        assertThat(ledgerRetry.verdict()).as("the ledger applied B-2 before losing its answer: the retry is a duplicate: %s",
                ledgerRetry).isEqualTo("duplicate");
        assertThat(ledgerRetry.after().total()).as("and B-2 is in the total once: %s", ledgerRetry).isEqualTo(5 + 4);
        assertThat(sink.post("/ledgers/idempotent/add", add("B", 8, "B-3", 1)).statusCode())
                .as("only the armed request's first answer is lost").isEqualTo(200);
    }

    @Test
    void readsALedgersTotalAndMarkWithGet() throws Exception {
        for (String ledger : SinkServer.LEDGERS) {
            SinkReply.LedgerState state = reply(sink.get("/ledgers/" + ledger), SinkReply.LedgerState.class);

            assertThat(state.total()).as("%s's total after B-1: %s", ledger, state).isEqualTo(5);
            assertThat(state.highWaterMark()).as("%s's mark after B-1: %s", ledger, state).isEqualTo(8);
        }
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("no request id", "{\"writer\":\"B\",\"token\":9,\"amount\":1}", "requestId is missing"),
                Arguments.of("a blank request id", "{\"writer\":\"B\",\"token\":9,\"requestId\":\"  \",\"amount\":1}", "requestId must name the request"),
                Arguments.of("no amount", "{\"writer\":\"B\",\"token\":9,\"requestId\":\"B-9\"}", "amount is missing"),
                Arguments.of("a zero amount", "{\"writer\":\"B\",\"token\":9,\"requestId\":\"B-9\",\"amount\":0}", "amount must be between 1 and"),
                Arguments.of("a fractional amount", "{\"writer\":\"B\",\"token\":9,\"requestId\":\"B-9\",\"amount\":1.5}", "amount must be a whole number"),
                Arguments.of("an amount in a string", "{\"writer\":\"B\",\"token\":9,\"requestId\":\"B-9\",\"amount\":\"1\"}", "amount must be a JSON integer"),
                Arguments.of("a negative token", "{\"writer\":\"B\",\"token\":-9,\"requestId\":\"B-9\",\"amount\":1}", "token must not be negative"),
                Arguments.of("an unknown field", "{\"writer\":\"B\",\"token\":9,\"requestId\":\"B-9\",\"amount\":1,\"value\":\"x\"}", "unknown field 'value'"),
                Arguments.of("malformed JSON", "{\"writer\":\"B\",", "malformed JSON"),
                Arguments.of("an empty body", "", "the body is empty"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    @DisplayName("A bad ledger request gets 400 that says what was wrong, and changes neither ledger")
    void rejectsABadLedgerRequestWithAClearMessageAndChangesNothing(String what, String body, String message) throws Exception {
        for (String ledger : SinkServer.LEDGERS) {
            HttpResponse<String> response = sink.post("/ledgers/" + ledger + "/add", body);

            assertThat(response.statusCode()).as("%s sent to %s must get 400, got %s", what, ledger, response.body()).isEqualTo(400);
            assertThat(reply(response, SinkReply.Failure.class).error()).as("the error for %s says what was wrong", what).contains(message);
        }
        assertUnchanged(what);
    }

    @Test
    void rejectsAnUnknownLedgerABadRequestIdToLoseAndAWrongMethod() throws Exception {
        HttpResponse<String> unknown = sink.post("/ledgers/ledgerless/add", add("B", 9, "B-9", 1));
        HttpResponse<String> badId = sink.post("/control/lose-first-response/B%201", "");
        HttpResponse<String> getAdd = sink.get("/ledgers/idempotent/add");

        assertThat(unknown.statusCode()).as("an unknown ledger: %s", unknown.body()).isEqualTo(404);
        assertThat(reply(unknown, SinkReply.Failure.class).error()).as("the 404 names the ledgers").contains("fenced-counter and idempotent");
        assertThat(badId.statusCode()).as("a request id with a space: %s", badId.body()).isEqualTo(400);
        assertThat(getAdd.statusCode()).as("GET on the add path: %s", getAdd.body()).isEqualTo(405);
        assertUnchanged("an unknown ledger, a bad id to lose and a wrong method");
    }

    private void assertUnchanged(String what) throws Exception {
        for (String ledger : SinkServer.LEDGERS) {
            SinkReply.LedgerState state = reply(sink.get("/ledgers/" + ledger), SinkReply.LedgerState.class);
            assertThat(state.total() + "@" + state.highWaterMark())
                    .as("after %s, %s must still hold B-1's +5 with mark 8", what, ledger).isEqualTo("5@8");
        }
    }

    private static String add(String writer, long token, String requestId, long amount) {
        return "{\"writer\":\"" + writer + "\",\"token\":" + token + ",\"requestId\":\"" + requestId + "\",\"amount\":" + amount + "}";
    }
}
