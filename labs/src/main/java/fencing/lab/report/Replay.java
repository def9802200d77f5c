package fencing.lab.report;

import fencing.support.evidence.Evidence;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A repeat's timeline replayed event by event: after each event, each sink's value and mark, what etcd says of the lock,
 * and who believes it holds it; computed from the recorded events alone.
 */
final class Replay {

    /** What the sinks, etcd and the holders are after one event. */
    record Step(int index, double tMillis, String lane, String kind, String label, String detail, String mode, String verdict, Long token,
                String from, Map<String, Sink> sinks, String etcdSays, String believes) {
    }

    /**
     * One mode's or ledger's state: {@code value} is {@code null} until its first verdict (for a ledger, its total).
     *
     * @param last the last verdict it gave, with the writer's token, e.g. {@code rejected A (token 5)}
     */
    record Sink(String value, Long mark, String last) {
    }

    private Replay() {
    }

    /** Returns the steps of {@code repeat}, one per event, in time order. */
    static List<Step> steps(Evidence.Repeat repeat) {
        Map<String, Sink> sinks = new LinkedHashMap<>();
        repeat.modes().keySet().forEach(mode -> sinks.put(mode, new Sink(null, null, null)));
        repeat.ledgers().keySet().forEach(ledger -> sinks.put(ledger, new Sink(null, null, null)));
        Map<Long, String> owners = new LinkedHashMap<>();
        Map<String, Long> held = new LinkedHashMap<>();
        Set<String> frozen = new LinkedHashSet<>();
        Set<String> cutOff = new LinkedHashSet<>();
        Long key = null;
        String etcdNote = "";
        List<Step> steps = new ArrayList<>();
        for (Evidence.Event e : repeat.trace().events()) {
            String by = e.lane().label();
            Evidence.About about = e.about();
            switch (e.kind()) {
                case ACQUIRED -> {
                    owners.put(about.token(), by);
                    held.put(by, about.token());
                }
                case KEY_CREATED -> key = about.token();
                case KEY_DELETED -> key = null;
                case RELEASED -> {
                    held.remove(by);
                    key = null;
                }
                case FROZEN -> frozen.add(by);
                case RESUMED -> frozen.remove(by);
                case CUT_OFF -> cutOff.add(by);
                case VERDICT -> sinks.put(about.mode(), new Sink(about.value(), about.mark(), decided(about)));
                case LEDGER_VERDICT -> sinks.put(about.mode(), new Sink("total " + about.total(), about.mark(), decided(about)));
                case SINK_RESTORED_FROM_BACKUP -> sinks.replaceAll((mode, sink) -> new Sink(sink.value() == null ? null : "(from the backup)", null,
                        "restored from the backup"));
                case ETCD_RESTORED -> key = null;
                default -> {
                }
            }
            if (e.lane() == Lane.ETCD) {
                // What etcd said last about the lease or its members, until the key itself changes.
                etcdNote = e.kind() == EventKind.KEY_CREATED || e.kind() == EventKind.KEY_DELETED ? "" : "; " + e.label();
            }
            String etcd = (key == null ? "no lock key: nobody holds the lock" : "the lock key is " + owners.getOrDefault(key, "?")
                    + "'s (token " + key + ")") + etcdNote;
            List<String> beliefs = new ArrayList<>();
            held.forEach((who, token) -> beliefs.add(who + " believes it holds token " + token + (frozen.contains(who) ? " (frozen)" : "")
                    + (cutOff.contains(who) ? " (cut off from etcd)" : "")));
            steps.add(new Step(steps.size(), e.tMillis(), by, e.kind().name(), e.label(), e.detail(), about.mode(), about.verdict(), about.token(),
                    about.from(), java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sinks)), etcd, beliefs.isEmpty() ? "nobody believes it holds the lock" : String.join("; ", beliefs)));
        }
        return steps;
    }

    private static String decided(Evidence.About about) {
        return about.verdict() + " " + about.from() + " (token " + about.token() + ")";
    }
}
