package fencing.grader.pipeline;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * Drains a process's output, keeping only its last bytes, so that a flood of output costs no memory.
 *
 * <p>Once {@link #awaitThreadDump(Duration, Ask)} is called, a thread dump the JVM prints is set apart: it is returned to
 * the caller and never part of {@link #text()}, and neither is anything printed after it, since the JVM is stopped
 * right after its dump.
 */
final class OutputTail {

    private static final int KEEP = 16 * 1024;
    /** Far above a test JVM's dump (a few KiB for its few dozen threads); what is beyond is dropped. */
    private static final int DUMP_KEEP = 1024 * 1024;
    private static final String DUMP_START = "Full thread dump ";
    /** The last line of the threads' part of a HotSpot thread dump; the heap's summary that follows is not needed. */
    private static final String DUMP_THREADS_END = "\nJNI global refs:";

    private final byte[] ring = new byte[KEEP];
    private long total;
    /** How many bytes went to {@link #ring}. */
    private long kept;
    private final Thread reader;
    /** From the moment a dump is asked for, everything read, or {@code null} before then. */
    private ByteArrayOutputStream afterRequest;
    private boolean ended;

    OutputTail(InputStream stream, String name) {
        this.reader = new Thread(() -> drain(stream), name);
        reader.setDaemon(true);
        reader.start();
    }

    private void drain(InputStream stream) {
        byte[] buffer = new byte[8192];
        try (stream) {
            int read;
            while ((read = stream.read(buffer)) >= 0) {
                append(buffer, read);
            }
        } catch (IOException streamClosed) {
            // The process was killed: what was read so far is all there is.
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    private synchronized void append(byte[] buffer, int length) {
        total += length;
        if (afterRequest != null) {
            afterRequest.write(buffer, 0, Math.min(length, Math.max(0, DUMP_KEEP - afterRequest.size())));
            notifyAll();
            return;
        }
        for (int i = 0; i < length; i++) {
            ring[(int) (kept % KEEP)] = buffer[i];
            kept++;
        }
    }

    /** How a thread dump is asked for: by a signal to the JVM. */
    interface Ask {
        void run() throws IOException;
    }

    /**
     * Sets apart from now on what the process prints, and asks for a thread dump with {@code ask}, and waits up to {@code limit}
     * for the dump's threads; the JVM is to be stopped after it.
     *
     * @return the dump's text, from its {@code Full thread dump} line, or empty if none came in time or the output ended
     */
    synchronized Optional<String> awaitThreadDump(Duration limit, Ask ask) throws IOException, InterruptedException {
        if (afterRequest == null) {
            afterRequest = new ByteArrayOutputStream();
        }
        ask.run();
        long end = System.nanoTime() + limit.toNanos();
        while (true) {
            String text = afterRequest.toString(StandardCharsets.UTF_8);
            int start = text.indexOf(DUMP_START);
            int threadsEnd = start < 0 ? -1 : text.indexOf(DUMP_THREADS_END, start);
            if (threadsEnd > 0 && text.indexOf('\n', threadsEnd + 1) > 0) {
                return Optional.of(text.substring(start));
            }
            long left = end - System.nanoTime();
            if (ended || left <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Waits briefly for the reader to reach the end of the stream. */
    void awaitEnd() throws InterruptedException {
        reader.join(2000);
    }

    /** Returns how many bytes the process wrote. */
    synchronized long total() {
        return total;
    }

    /**
     * Returns the last bytes written, as text: of what came after a thread dump was asked for, only what came before
     * the dump's first line (its time stamp's line).
     */
    synchronized String text() {
        int length = (int) Math.min(kept, KEEP);
        byte[] last = new byte[length];
        for (int i = 0; i < length; i++) {
            last[i] = ring[(int) ((kept - length + i) % KEEP)];
        }
        String text = new String(last, StandardCharsets.UTF_8);
        if (afterRequest == null) {
            return text;
        }
        String after = afterRequest.toString(StandardCharsets.UTF_8);
        int start = after.indexOf(DUMP_START);
        if (start >= 0) {
            // The JVM writes the dump's time stamp on the line before it.
            int stamp = after.lastIndexOf('\n', Math.max(0, start - 2));
            after = after.substring(0, Math.max(0, stamp + 1));
        }
        String all = text + after;
        return all.length() > KEEP ? all.substring(all.length() - KEEP) : all;
    }
}
