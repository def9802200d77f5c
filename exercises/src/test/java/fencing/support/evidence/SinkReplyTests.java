package fencing.support.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each kind of the sink server's answer and of its clients' requests is read back as itself, from the JSON the server writes. */
class SinkReplyTests {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Test
    @DisplayName("Every kind of answer reads back as the same record, from the field names it has on the wire")
    void everyKindReadsBackAsItself() throws Exception {
        Map<String, String> modes = new LinkedHashMap<>();
        modes.put("plain", "fencing.sink.PlainSink");
        modes.put("fenced", "fencing.sink.FencedSink");
        List<SinkReply> replies = List.of(
                new SinkReply.ModeState("fenced", "FencedSink", "B-current", 8),
                new SinkReply.ModeState("plain", "PlainSink", null, 0),
                new SinkReply.WriteVerdict("fenced", "FencedSink", "A", 7, "A-late", "rejected", false,
                        new SinkReply.ModeAfter("B-current", 8), 1_700_000_000_000_000L, "2023-11-14T22:13:20Z"),
                new SinkReply.WriteVerdict("plain", "PlainSink", "A", 7, "A-late", "accepted", true,
                        new SinkReply.ModeAfter(null, 0), 1, "1970-01-01T00:00:00.000001Z"),
                new SinkReply.LedgerState("idempotent", "IdempotentLedger", 5, 8),
                new SinkReply.LedgerVerdict("fenced-counter", "FencedCounter", "B", 8, "B-1", 5, "accepted", true, false,
                        new SinkReply.LedgerAfter(10, 8), 2, "1970-01-01T00:00:00.000002Z"),
                new SinkReply.Failure(400, "token is missing"),
                new SinkReply.HoldStatus(false, true, 7, 0, 3, ""),
                new SinkReply.Losing("B-1", "the first answer of each ledger to request B-1"),
                new SinkReply.Health("ok", 42, "/tmp/sink", modes, Map.of("idempotent", "fencing.sink.IdempotentLedger"), null, List.of()),
                new SinkReply.Health("ok", 42, "/tmp/sink", modes, Map.of(),
                        new SinkReply.CurrentOwner("http://127.0.0.1:2379", "/lab/lock", "fencing.etcd.EtcdOwnerCheck"), List.of("a stub")));
        for (SinkReply reply : replies) {
            String json = MAPPER.writeValueAsString(reply);
            assertThat(MAPPER.readValue(json, SinkReply.class)).as("%s read back", json).isEqualTo(reply);
        }
    }

    @Test
    @DisplayName("The answers keep the sink server's field names: class for a ledger's class, no currentOwner without that mode")
    void keepsTheWireFieldNames() throws Exception {
        assertThat(MAPPER.writeValueAsString(new SinkReply.ModeState("plain", "PlainSink", null, 0)))
                .isEqualTo("{\"mode\":\"plain\",\"sink\":\"PlainSink\",\"value\":null,\"highWaterMark\":0}");
        assertThat(MAPPER.writeValueAsString(new SinkReply.LedgerState("idempotent", "IdempotentLedger", 5, 8)))
                .isEqualTo("{\"ledger\":\"idempotent\",\"class\":\"IdempotentLedger\",\"total\":5,\"highWaterMark\":8}");
        assertThat(MAPPER.writeValueAsString(new SinkReply.Health("ok", 1, "d", Map.of(), Map.of(), null, List.of())))
                .isEqualTo("{\"status\":\"ok\",\"pid\":1,\"dir\":\"d\",\"modes\":{},\"ledgers\":{},\"notImplementedYet\":[]}");
        assertThat(MAPPER.readValue("{\"status\":404,\"error\":\"no such path\"}", SinkReply.class))
                .isEqualTo(new SinkReply.Failure(404, "no such path"));
    }

    @Test
    @DisplayName("A body of no known kind is refused, not read as the nearest kind")
    void refusesABodyOfNoKind() {
        assertThatThrownBy(() -> MAPPER.readValue("{\"mode\":\"plain\",\"sink\":\"PlainSink\"}", SinkReply.class))
                .as("fields that two kinds share do not decide").isInstanceOf(java.io.IOException.class);
        assertThatThrownBy(() -> MAPPER.readValue("{\"hello\":1}", SinkReply.class)).isInstanceOf(java.io.IOException.class);
    }

    @Test
    @DisplayName("A write and a ledger request read back as themselves")
    void requestsReadBackAsThemselves() throws Exception {
        for (SinkRequest request : List.of(new SinkRequest.Write("A", 7, "A-late"), new SinkRequest.LedgerAdd("B", 8, "B-1", 5))) {
            String json = MAPPER.writeValueAsString(request);
            assertThat(MAPPER.readValue(json, SinkRequest.class)).as("%s read back", json).isEqualTo(request);
        }
        assertThat(MAPPER.writeValueAsString(new SinkRequest.Write("A", 7, "A-late")))
                .isEqualTo("{\"writer\":\"A\",\"token\":7,\"value\":\"A-late\"}");
    }
}
