package fencing.grader.batch;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * One of {@code count} stable parts of a class: a student belongs to the shard its name hashes to, so that adding
 * or removing a student moves no one else to another shard.
 *
 * @param index from 1 to {@code count}
 * @param count how many shards the class is cut into
 */
public record Shard(int index, int count) {

    /** The whole class, in one shard. */
    public static final Shard ALL = new Shard(1, 1);

    /** Checks that the shard is one of the {@code count} parts. */
    public Shard {
        if (count < 1 || index < 1 || index > count) {
            throw new IllegalArgumentException("a shard is I/N with 1 <= I <= N, got " + index + "/" + count);
        }
    }

    /**
     * Reads {@code I/N}.
     *
     * @throws IllegalArgumentException if {@code text} is not of that form
     */
    public static Shard parse(String text) {
        String[] parts = text.strip().split("/", -1);
        try {
            if (parts.length == 2) {
                return new Shard(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
            }
        } catch (NumberFormatException e) {
            // Reported below, with the expected form.
        }
        throw new IllegalArgumentException("--shard must be I/N, for example 2/3, got " + text);
    }

    /** Whether the submission named {@code name} is graded in this shard. */
    public boolean contains(String name) {
        CRC32 hash = new CRC32();
        hash.update(name.getBytes(StandardCharsets.UTF_8));
        return hash.getValue() % count == index - 1;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
