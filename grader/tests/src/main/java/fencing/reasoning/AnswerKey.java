package fencing.reasoning;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The model answers and the rubric for {@code ANSWERS.md}: kept with the hidden tests, never in the handout.
 *
 * <p>Each question has a closed part, graded automatically, and an explanation that a person reads with the rubric.
 */
public final class AnswerKey {

    /**
     * One question.
     *
     * @param number   its number in {@code ANSWERS.md}
     * @param title    its heading
     * @param form     what the {@code Answer:} line must hold, in words a student reads
     * @param expected the closed answer, normalised: one word or phrase, or {@code key=value} pairs
     * @param rule     the lesson's rule that the closed answer rests on, quoted when the answer is wrong
     * @param model    a model explanation
     * @param rubric   what a person looks for in the explanation
     */
    public record Question(int number, String title, String form, String expected, String rule, String model, String rubric) {

        /** Returns whether {@code closed}, as a student wrote it, is this question's answer. */
        public boolean accepts(String closed) {
            return normalise(closed).equals(normalise(expected));
        }
    }

    /** The questions, in order. */
    public static final List<Question> QUESTIONS = List.of(
            new Question(1, "Where is the comparison?", "the SQL statement that opens the transaction holding your comparison",
                    "BEGIN IMMEDIATE",
                    "read, compare and update in one BEGIN IMMEDIATE transaction",
                    "The comparison token >= high_water_mark runs after BEGIN IMMEDIATE and before COMMIT, on the same"
                            + " connection as the UPDATE, so the write lock is held from the read to the update.",
                    "Quotes the comparing line; names BEGIN IMMEDIATE as the opening statement and COMMIT (or ROLLBACK on"
                            + " rejection) as the end; says the read, the comparison and the update share one connection."),
            new Question(2, "Why must the comparison be inside the transaction?", "yes or no: can the mark go down when"
                    + " it is read and compared outside the transaction",
                    "yes",
                    "a check outside the transaction lets another writer commit between the check and the update, so a"
                            + " lower token overwrites a higher one: read, compare and update in one BEGIN IMMEDIATE transaction",
                    "A reads mark 3 and decides its token 3 is fine; B then commits token 5; A's update runs with its old"
                            + " decision and writes 3 over 5: the mark went down and B's write is lost.",
                    "Names the two racing writes and gives the order of their statements (A read, B commit, A write);"
                            + " says the lock taken by BEGIN IMMEDIATE is what forbids that order."),
            new Question(3, "The pre-contact extension", "fenced=accepted or fenced=rejected, and lost=yes or lost=no",
                    "fenced=accepted lost=no",
                    "fencing rejects a write only when a higher token has already reached the resource; it orders the"
                            + " writes the resource sees, it does not promise that only the current lock holder writes",
                    "B held the lock but had not written yet, so the mark was still A's token and A's write was not stale"
                            + " to the sink; B's first write then replaced it. Nothing was lost: every accepted write is"
                            + " ordered by token, and no lower token landed after a higher one.",
                    "Says the mark had not seen B's token yet; states what fencing promises (no write with a lower token"
                            + " after a higher one) and what it does not (mutual exclusion in time); says no write was lost."),
            new Question(4, "Is the lease ID a fencing token?", "yes or no",
                    "no",
                    "lease IDs are not ordered by grant; the fencing token is the lock key's create_revision, which grows"
                            + " with every write to the cluster",
                    "No: over the repeats the lease IDs do not grow with each grant (B's can be below A's), while the"
                            + " tokens, the lock key's create_revision, always do; a sink keeping the highest lease ID"
                            + " would reject the current owner or accept a stale one.",
                    "Compares lease IDs and tokens from at least three repeats; points at a pair of lease IDs out of"
                            + " order; names create_revision as the token."),
            new Question(5, "Does fencing remove the need for idempotency?", "yes or no",
                    "no",
                    "the fenced sink accepts a token equal to its mark, so a retried or repeated write from the current"
                            + " holder is applied again: fencing stops stale owners, not duplicates",
                    "No: a retry of a write whose response was lost carries the same token, which equals the mark, so it"
                            + " is accepted and applied twice; the writer needs request IDs or the sink an idempotent"
                            + " update.",
                    "Uses the equal-token rule; gives the lost-response retry (or two writes of one owner); names a remedy"
                            + " (request IDs, idempotent operations, deduplication at the sink)."),
            new Question(6, "Why does the mark survive a restart?", "accepted or rejected: what a sink whose mark is a"
                    + " field in FencedSink would have done with A's late write after the restart",
                    "accepted",
                    "the mark must live in the same durable database as the value: a mark kept in memory starts again"
                            + " at 0 after a restart, and the stale write gets in",
                    "The mark is a column of the SQLite table, committed with the value under synchronous=FULL, so the"
                            + " restarted sink read mark B's token and rejected A; a field would have started at 0 and"
                            + " accepted A's token.",
                    "Says where the mark lives and that it is committed with the value; explains the field's reset to 0"
                            + " and the stale write accepted."),
            new Question(7, "What the timings say", "keepalive or sigstop: from which event the lease's TTL runs out",
                    "keepalive",
                    "a lease runs out a TTL after its last answered keepalive, not after the holder stopped; etcd then"
                            + " notices the expiry a little later",
                    "The lease expires a TTL after the last keepalive answered before SIGSTOP, which came up to a third of"
                            + " a TTL earlier, so the wait after SIGSTOP can be shorter than the TTL; etcd's expiry check"
                            + " adds a little on top.",
                    "Gives the median and the max from the repeats; uses expiry.lastKeepAliveMicros; explains both the"
                            + " shorter side (keepalive phase) and the longer side (etcd's lag)."),
            new Question(8, "Would checking the lease be enough?", "yes or no: would checking the lease right before"
                    + " every write make fencing unnecessary",
                    "no",
                    "a pause can fall between the check and the write; only the resource, which sees every write, can"
                            + " reject a stale one",
                    "No: A checks its lease, is then paused (a GC, SIGSTOP) past the expiry, and writes when it wakes; the"
                            + " check was true when made and false when the write arrived.",
                    "Describes a schedule: check, pause longer than the remaining lease, write; concludes the check and"
                            + " the write are not atomic, so the resource must check the token."),
            new Question(14, "What the chaos run's counts say", "fenced-stale=N: how many stale writes the fenced mode"
                    + " accepted",
                    "fenced-stale=0",
                    "the fenced mode rejects every write whose token is below the mark, whatever the writer's lease"
                            + " says: it accepts no stale write, only writes no newer token has overtaken yet",
                    "The plain mode took stale writes and lost updates, the fenced mode none: the fenced sink accepted"
                            + " expired holders' writes only while no newer token had reached it (the pre-contact"
                            + " contract). A stale write needs a writer frozen while holding the lock past its TTL, a"
                            + " newer owner writing meanwhile, and the frozen writer resuming; the seed fixes the freezes,"
                            + " not the writers' timing around them, so the plain counts vary.",
                    "Quotes the plain mode's stale writes and lost updates; distinguishes stale writes from"
                            + " expired-holder writes; names the freeze pattern (freeze while holding, newer owner"
                            + " writes, resume); explains that the seed replays faults, not interleavings."),
            new Question(15, "Why did the lease outlive its TTL after the failover?", "keepalive, sigstop or election: from"
                    + " which event A's lease last ran its full TTL",
                    "election",
                    "a new etcd leader gives every lease its full TTL again when it takes office, so a lease can outlive"
                            + " its TTL counted from the holder's last keepalive: a timeout cannot establish a remote"
                            + " process's state, only observing the key's absence is safe",
                    "The leader alone tracks lease deadlines; the newly elected one cannot tell when A last kept its"
                            + " lease alive, so on promotion it restarted every lease at its TTL plus an election timeout."
                            + " The key went roughly two TTLs after SIGSTOP, after the election (and where the sampler saw"
                            + " it, the time-to-live of A's lease rose while A was frozen: LEASE_RENEWED). Anyone who waited one TTL and assumed A gone was wrong about"
                            + " A's lock; only a watch event or a read showing the key absent tells, and fencing still"
                            + " rejected A's late write.",
                    "Says the new leader renews every lease on taking office (TTL plus an election timeout), because"
                            + " it cannot know the last keepalive; quotes the wait after SIGSTOP from the failover run against"
                            + " the TTL (and LEASE_RENEWED where it was seen); concludes that a timeout proves nothing about A and only"
                            + " observing the key's absence is safe; notes fencing still rejected A's late write."));

    private AnswerKey() {
    }

    /**
     * A question with no closed answer: its explanation is passed on to a person with the rubric, and earns no points.
     *
     * @param number its number in {@code ANSWERS.md}
     * @param title  its heading
     * @param model  a model explanation
     * @param rubric what a person looks for in the explanation
     */
    public record OpenQuestion(int number, String title, String model, String rubric) {
    }

    /** The questions only a person grades: Part 4's and the restore drill's, in order. */
    public static final List<OpenQuestion> OPEN_QUESTIONS = List.of(
            new OpenQuestion(9, "Why may the high-water mark accept A?",
                    "A high-water mark only promises that no write is accepted after one with a larger token; when A"
                            + " wrote, the sink had seen no token above A's, so accepting A broke nothing it promises, and"
                            + " B's later write with a larger token still won. Mutual exclusion in time was lost, ordering"
                            + " at the sink was not. OwnerCheckingSink adds current ownership: it asks etcd, inside the"
                            + " transaction, whether the token is the current holder's, and rejects A.",
                    "States the narrower contract (no write accepted after a newer one); explains the sink had not yet"
                            + " seen B's token; says B still won; names what OwnerCheckingSink adds (asking the lock"
                            + " service for the current holder, inside the transaction)."),
            new OpenQuestion(10, "What does checking the current owner cost?",
                    "Every write pays one linearizable read of the lock key, a round trip to etcd's leader and a quorum"
                            + " confirmation, made while SQLite's write lock is held. A serializable read may come from a"
                            + " member's stale local state and call a replaced holder current. When etcd is slow or"
                            + " unreachable, writes wait or fail: the lock service is now on the write path, and the sink"
                            + " must reject (fail closed), since an owner that cannot be confirmed is not the owner.",
                    "Counts one linearizable read per write (under the write lock); says why serializable is unsafe;"
                            + " says etcd's availability now limits the sink's; says the sink rejects when the check fails."),
            new OpenQuestion(11, "Why is a forged token a denial of service?",
                    "The fenced sink accepts C's token 10^12, since it is above the mark, and raises the mark to it; every"
                            + " real owner's token (an etcd revision) is far below, so each later legitimate write is"
                            + " rejected: the sink is locked out for good. OwnerCheckingSink asks etcd whether 10^12 is the"
                            + " current holder's create_revision; it is not, so C is rejected and the mark never moves.",
                    "Says C's write is accepted and raises the mark; says every later real write is rejected (locked"
                            + " out); explains that OwnerCheckingSink rejects a token etcd did not grant to the current holder."),
            new OpenQuestion(12, "Fencing and deduplication protect different invariants",
                    "The retry carries B's token, equal to the mark, so fencing accepts it again: fencing orders"
                            + " generations, it does not recognise a repeated operation. IdempotentLedger records each"
                            + " request id with its verdict, in the same transaction as the effect, so a crash or a racing"
                            + " retry can never leave an effect without its record or a record without its effect."
                            + " A fresh id does not make a stale token fresh: the ledger still fences by token.",
                    "Says equal tokens pass the fence, so fencing cannot deduplicate; names the recorded request id and"
                            + " verdict; explains why record and effect commit together; says a new id does not let a stale"
                            + " owner in."),
            new OpenQuestion(13, "The restore drill",
                    "The snapshot predates C1–C3, so the restored etcd's revision counter went back and its next"
                            + " create_revision was below the tokens the sink had already seen: the fenced sink rejected D,"
                            + " which is safe (no stale write got in) but stuck (the rightful owner cannot write). Recovery"
                            + " must take max(stored epoch, epoch of the sink's mark) + 1, since the restored epoch key may"
                            + " itself be older than the mark's epoch. Restoring the sink's database lowered its mark and"
                            + " let A's late write in again: the mark must be durable and never restored backwards.",
                    "Explains the revision going backwards after the restore; says D's rejection is safe but stuck;"
                            + " justifies the max(...) + 1 epoch with the mark's epoch; concludes the mark must be kept"
                            + " durably and never rolled back."),
            new OpenQuestion(16, "Whose clock said the lease was valid?",
                    "When A checked, the machine's clock (on which etcd counts the lease) had counted more than the TTL"
                            + " since A asked for the lock, and etcd had no lease of A's: it had expired it and deleted the"
                            + " key, and B had written. A's own clock, at half speed, had counted about half as much, less"
                            + " than the TTL, so A's timer said valid. A reads only its own clock and nothing tells it"
                            + " that clock is slow, so it could not know. The fenced sink read no clock: it compared A's"
                            + " token with the mark B's write had left, and rejected A. A timer is safe only if the"
                            + " client's clock drift and its pauses (between the check and the write's arrival) are"
                            + " bounded and the TTL allows for both, which nothing in an ordinary process guarantees:"
                            + " the critique of Redlock's timing assumptions.",
                    "Quotes both clocks at A's check from the run (A's clock below the TTL, the machine's above it)"
                            + " and etcd's answer that the lease was gone; says A's timer cannot see its own clock's"
                            + " drift; says the fenced sink read no clock and compared tokens; names the assumptions a"
                            + " timer needs (bounded drift, bounded pauses) and why they do not hold in general."),
            new OpenQuestion(17, "Who told A that it had lost the lock?",
                    "The key was seen gone about a TTL after the last keepalive etcd heard, which came before the cut,"
                            + " so a little under a TTL plus etcd's expiry check after the cut. Nobody told A: the cut"
                            + " holds its keepalives and their answers, so A sees silence, not an error, and its client"
                            + " had not given up on the lease when A's work was done; A wrote with its old token believing"
                            + " it held the lock. Asking etcd first would only have timed out across the cut, and even an"
                            + " answer leaves a gap between the check and the write's arrival. The fenced sink compared"
                            + " A's token with the mark B's write left and rejected it; the current-owner sink reaches etcd"
                            + " on its own path and was told the key is B's. A partition cuts a holder off without"
                            + " stopping it; only the resource, which sees every write, can refuse the stale one.",
                    "Quotes the wait from the cut to the key seen gone and says etcd counts the TTL from the last"
                            + " keepalive it heard; says A saw silence and never learned of the expiry; says a check"
                            + " before writing times out across the cut and leaves a gap anyway; says why fenced and"
                            + " current-owner rejected A (the mark; etcd on the sink's own path)."));

    /**
     * The case of {@code ./kit study} each question's evidence comes from, by question number: its figures are checked
     * against that case's {@code study/CASE/evidence.json}, and {@code ANSWERS.md} names the case under the question.
     */
    public static final Map<Integer, String> CASES = Map.ofEntries(Map.entry(2, "check-outside-transaction"), Map.entry(3, "pre-contact"),
            Map.entry(4, "late-write"), Map.entry(6, "restart"), Map.entry(7, "late-write"), Map.entry(8, "late-write"),
            Map.entry(9, "pre-contact"), Map.entry(11, "forged"), Map.entry(12, "retry"), Map.entry(13, "restore"), Map.entry(14, "chaos"),
            Map.entry(15, "failover"), Map.entry(16, "slow-clock"),
            Map.entry(17, "partition"));

    /** Returns the case question {@code number}'s evidence comes from, if it asks about a run. */
    public static Optional<String> caseOf(int number) {
        return Optional.ofNullable(CASES.get(number));
    }

    /** Returns question {@code number}. */
    public static Optional<Question> question(int number) {
        return QUESTIONS.stream().filter(question -> question.number() == number).findFirst();
    }

    /**
     * Returns a closed answer in a form that ignores case, spacing, Markdown emphasis, quotes, a final period and
     * the order of {@code key=value} pairs.
     */
    static String normalise(String closed) {
        String text = closed.toLowerCase(Locale.ROOT).replaceAll("[`*_\"']", " ").replaceAll("\\s*=\\s*", "=")
                .replaceAll("[,;]", " ").strip();
        while (text.endsWith(".")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        text = text.replaceAll("\\s+", " ");
        if (!text.contains("=")) {
            return text;
        }
        Map<String, String> pairs = new TreeMap<>();
        for (String pair : text.split(" ")) {
            String[] parts = pair.split("=", 2);
            pairs.put(parts[0], parts.length > 1 ? parts[1] : "");
        }
        return pairs.toString();
    }
}
