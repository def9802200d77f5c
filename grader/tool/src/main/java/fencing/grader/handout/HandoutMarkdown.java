package fencing.grader.handout;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns one of the kit's Markdown files into the handout's version of it, by two kinds of marked blocks.
 *
 * <p>Lines from {@code <!-- kit-only -->} to {@code <!-- /kit-only -->} are for the kit's readers only
 * (its maintainers, its own paths and commands) and are left out. The text of a comment that opens with
 * the line {@code <!-- handout-only} and closes with the line {@code -->} is hidden in the kit and shown
 * in the handout: there it says the same as the kit-only block beside it, in the handout's paths and
 * commands. Each marker stands on a line of its own; blocks do not nest.
 */
final class HandoutMarkdown {

    static final String KIT_ONLY = "<!-- kit-only -->";
    static final String KIT_ONLY_END = "<!-- /kit-only -->";
    static final String HANDOUT_ONLY = "<!-- handout-only";
    static final String HANDOUT_ONLY_END = "-->";

    private enum Block { SHARED, KIT_ONLY, HANDOUT_ONLY }

    private HandoutMarkdown() {
    }

    /**
     * Returns {@code markdown} as the handout shows it.
     *
     * @param source where {@code markdown} comes from, for error messages
     * @throws IllegalStateException naming the line, if a marker is misplaced or a block is not closed
     */
    static String forHandout(String markdown, String source) {
        List<String> kept = new ArrayList<>();
        Block block = Block.SHARED;
        int opened = 0;
        boolean closed = false;
        List<String> lines = markdown.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String marker = line.strip();
            int number = i + 1;
            // A removed block leaves no second blank line behind it.
            boolean doubleBlank = closed && marker.isEmpty() && (kept.isEmpty() || kept.get(kept.size() - 1).isBlank());
            closed = false;
            switch (block) {
                case SHARED -> {
                    if (doubleBlank) {
                        continue;
                    } else if (marker.equals(KIT_ONLY)) {
                        block = Block.KIT_ONLY;
                        opened = number;
                    } else if (marker.equals(HANDOUT_ONLY)) {
                        block = Block.HANDOUT_ONLY;
                        opened = number;
                    } else if (marker.equals(KIT_ONLY_END)) {
                        throw misplaced(source, number, KIT_ONLY_END + " without an opening " + KIT_ONLY);
                    } else {
                        kept.add(line);
                    }
                }
                case KIT_ONLY -> {
                    if (marker.equals(KIT_ONLY_END)) {
                        block = Block.SHARED;
                        closed = true;
                    } else if (marker.equals(KIT_ONLY) || marker.equals(HANDOUT_ONLY)) {
                        throw misplaced(source, number, marker + " inside the kit-only block opened on line " + opened);
                    }
                }
                case HANDOUT_ONLY -> {
                    if (marker.equals(HANDOUT_ONLY_END)) {
                        block = Block.SHARED;
                        closed = true;
                    } else if (marker.startsWith("<!--") || marker.contains("-->")) {
                        throw misplaced(source, number, "a comment inside the handout-only block opened on line " + opened
                                + " (close it with a line holding only " + HANDOUT_ONLY_END + ")");
                    } else {
                        kept.add(line);
                    }
                }
                default -> throw new IllegalStateException(block.toString());
            }
        }
        if (block != Block.SHARED) {
            throw misplaced(source, opened, "the " + (block == Block.KIT_ONLY ? "kit-only" : "handout-only")
                    + " block opened here is never closed");
        }
        return String.join("\n", kept) + "\n";
    }

    private static IllegalStateException misplaced(String source, int line, String what) {
        return new IllegalStateException(source + ", line " + line + ": " + what);
    }
}
