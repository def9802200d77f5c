package fencing.grader.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Drains a process's output, keeping only its last bytes, so that a flood of output costs no memory. */
final class OutputTail {

    private static final int KEEP = 16 * 1024;

    private final byte[] ring = new byte[KEEP];
    private long total;
    private final Thread reader;

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
        }
    }

    private synchronized void append(byte[] buffer, int length) {
        for (int i = 0; i < length; i++) {
            ring[(int) (total % KEEP)] = buffer[i];
            total++;
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

    /** Returns the last bytes written, as text. */
    synchronized String text() {
        int length = (int) Math.min(total, KEEP);
        byte[] last = new byte[length];
        for (int i = 0; i < length; i++) {
            last[i] = ring[(int) ((total - length + i) % KEEP)];
        }
        return new String(last, StandardCharsets.UTF_8);
    }
}
