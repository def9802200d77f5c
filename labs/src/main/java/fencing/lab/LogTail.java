package fencing.lab;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Follows a child process's log file and hands over its protocol lines ({@code WORD {json}}).
 *
 * <p>A supervised child writes to a file rather than a pipe, so the runner reads that file as it
 * grows. Lines that are not protocol lines (a library's log output) stay in the file only.
 */
final class LogTail implements AutoCloseable {

    /** One protocol line: its word, e.g. {@code READY}, and the JSON after it. */
    record Line(String type, String json, long seenAtMicros) {
    }

    private final Path file;
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private final Thread reader;
    private volatile boolean closed;

    private LogTail(Path file) {
        this.file = file;
        this.reader = new Thread(this::follow, "tail " + file.getFileName());
        reader.setDaemon(true);
    }

    /** Starts following {@code file} from its beginning; it need not exist yet. */
    static LogTail follow(Path file) {
        LogTail tail = new LogTail(file);
        tail.reader.start();
        return tail;
    }

    /** Returns the next protocol line, or {@code null} if none comes within {@code timeoutMillis}. */
    Line next(long timeoutMillis) throws InterruptedException {
        return lines.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    Path file() {
        return file;
    }

    /** Returns the last lines of the file, for error messages. */
    String lastLines(int count) {
        try {
            if (!Files.exists(file)) {
                return "(no log yet at " + file + ")";
            }
            var all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - count), all.size()));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
    }

    private void follow() {
        ByteArrayOutputStream partial = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            while (!closed && !Files.exists(file)) {
                Thread.sleep(2);
            }
            // A supervised child's log is only ever appended to, so one open file follows it to the end.
            try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                while (!closed) {
                    int read = in.read(buffer);
                    if (read <= 0) {
                        // Short, because the runner's figures include how fast it notices a child's line.
                        Thread.sleep(2);
                        continue;
                    }
                    for (int i = 0; i < read; i++) {
                        if (buffer[i] == '\n') {
                            offer(partial.toString(StandardCharsets.UTF_8));
                            partial.reset();
                        } else {
                            partial.write(buffer[i]);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not follow " + file, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void offer(String text) {
        int space = text.indexOf(' ');
        if (space > 0 && text.startsWith("{", space + 1) && text.substring(0, space).matches("[A-Z][A-Z-]*")) {
            lines.add(new Line(text.substring(0, space), text.substring(space + 1), Times.nowMicros()));
        }
    }

    @Override
    public void close() {
        closed = true;
        reader.interrupt();
    }
}
