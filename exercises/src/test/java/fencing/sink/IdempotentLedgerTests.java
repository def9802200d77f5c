package fencing.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("extension")
@DisplayName("IdempotentLedger (Part 4): a fenced counter that applies each request once")
class IdempotentLedgerTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("A retried request is applied once")
    void appliesARetriedRequestOnce() {
        IdempotentLedger ledger = new IdempotentLedger(ConnectionSource.sqlite(dir.resolve("ledger.db")));

        RequestResult first = ledger.add(4, "deposit-1", 10);
        RequestResult retry = ledger.add(4, "deposit-1", 10);

        assertThat(first)
                .as("the first request with token 4 on a new ledger must be accepted: total 10, mark 4")
                .isEqualTo(new RequestResult(true, false, 4, 10));
        assertThat(retry)
                .as("a retry of request \"deposit-1\" must return its recorded verdict with duplicate = true, "
                        + "and change nothing: total still 10")
                .isEqualTo(new RequestResult(true, true, 4, 10));
        assertThat(ledger.total()).as("the ledger's total after one request of 10 and its retry").isEqualTo(10);
    }

    @Test
    @DisplayName("A stale token is rejected, even with a fresh request id")
    void rejectsAStaleToken() {
        IdempotentLedger ledger = new IdempotentLedger(ConnectionSource.sqlite(dir.resolve("ledger.db")));
        ledger.add(8, "new owner", 5);

        RequestResult stale = ledger.add(7, "old owner", 100);

        assertThat(stale)
                .as("a request with token 7 after token 8 must be rejected: the ledger has seen a newer owner")
                .isEqualTo(new RequestResult(false, false, 8, 5));
    }
}
