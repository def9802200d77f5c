package fencing.lab.report;

import fencing.support.evidence.Evidence;

/** The HTML tables of how each mode and each ledger of a repeat ended, against what the case expects. */
final class HtmlOutcomes {

    private HtmlOutcomes() {
    }

    static void append(StringBuilder html, Evidence.Repeat repeat) {
        if (!repeat.modes().isEmpty()) {
            boolean forged = repeat.modes().values().stream().anyMatch(m -> m.cVerdict() != null);
            html.append("<table class=\"modes\"><thead><tr><th>mode</th><th>sink</th>")
                    .append(forged ? "<th>C's forged write</th><th>expected</th>" : "")
                    .append("<th>A's late write</th><th>expected</th><th>B's write</th><th>expected</th>"
                            + "<th>final value</th><th>expected</th><th>mark</th></tr></thead><tbody>\n");
            for (Evidence.ModeOutcome mode : repeat.modes().values()) {
                html.append("<tr data-mode=\"").append(Reports.esc(mode.mode())).append("\" class=\"").append(mode.asExpected() ? "pass" : "fail")
                        .append("\"><td>").append(Reports.esc(mode.mode())).append("</td><td>").append(Reports.esc(mode.sink())).append("</td>");
                if (forged) {
                    verdictCells(html, mode.cVerdict(), mode.expectedCVerdict());
                }
                verdictCells(html, mode.aLateVerdict(), mode.expectedALateVerdict());
                verdictCells(html, mode.bVerdict(), mode.expectedBVerdict());
                html.append("<td>").append(Reports.esc(mode.finalValue())).append("</td><td>").append(Reports.esc(mode.expectedFinalValue()))
                        .append("</td><td>").append(mode.finalHighWaterMark()).append("</td></tr>\n");
            }
            html.append("</tbody></table>\n");
        }
        if (!repeat.ledgers().isEmpty()) {
            html.append("<table class=\"ledgers\"><thead><tr><th>ledger</th><th>class</th><th>request</th><th>B's attempts</th><th>expected</th>"
                    + "<th>total</th><th>expected</th><th>applied</th><th>mark</th></tr></thead><tbody>\n");
            for (Evidence.LedgerOutcome ledger : repeat.ledgers().values()) {
                html.append("<tr data-ledger=\"").append(Reports.esc(ledger.ledger())).append("\" class=\"").append(ledger.asExpected() ? "pass" : "fail")
                        .append("\"><td>").append(Reports.esc(ledger.ledger())).append("</td><td>").append(Reports.esc(ledger.implementation()))
                        .append("</td><td>").append(Reports.esc(ledger.requestId())).append(" (+").append(ledger.amount()).append(")</td><td>");
                for (String verdict : ledger.verdicts()) {
                    html.append("<span class=\"verdict-").append(Reports.esc(verdict)).append("\">").append(Reports.esc(verdict)).append("</span> ");
                }
                html.append("</td><td>").append(Reports.esc(String.join(", ", ledger.expectedVerdicts()))).append("</td><td>").append(ledger.finalTotal())
                        .append("</td><td>").append(ledger.expectedFinalTotal()).append("</td><td>").append(ledger.applied()).append("×</td><td>")
                        .append(ledger.finalHighWaterMark()).append("</td></tr>\n");
            }
            html.append("</tbody></table>\n");
        }
    }

    private static void verdictCells(StringBuilder html, String verdict, String expected) {
        html.append("<td class=\"verdict-").append(Reports.esc(verdict)).append("\">").append(Reports.esc(verdict)).append("</td><td>")
                .append(Reports.esc(expected)).append("</td>");
    }
}
