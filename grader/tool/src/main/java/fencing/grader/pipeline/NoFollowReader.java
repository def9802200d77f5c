package fencing.grader.pipeline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a submission's files for the intake ({@link SubmissionIntake}): each below a folder already open, each folder on
 * the way opened relative to its parent and never through a symbolic link ({@code openat} with {@code O_NOFOLLOW}), and
 * a student file's bytes checked before anything is written from them.
 */
final class NoFollowReader {

    /** The largest student file taken: a source file of this exercise is a few KiB. */
    static final int MAX_FILE_BYTES = 1024 * 1024;

    /** Why one file or directory is refused; its message names the file. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    private NoFollowReader() {
    }

    /** Reads the student file {@code path} below {@code root} without following links; null when it does not exist. */
    static byte[] read(SecureDirectoryStream<Path> root, String path) throws Refused, IOException {
        byte[] bytes = readAtMost(root, path, MAX_FILE_BYTES, "for one source file");
        return bytes == null ? null : checked(path, bytes);
    }

    /**
     * Reads {@code path} below {@code root} without following links, refusing it over {@code limit} bytes; null when it
     * does not exist.
     */
    static byte[] readAtMost(SecureDirectoryStream<Path> root, String path, int limit, String what)
            throws Refused, IOException {
        String[] names = path.split("/");
        List<SecureDirectoryStream<Path>> opened = new ArrayList<>();
        try {
            SecureDirectoryStream<Path> dir = root;
            StringBuilder sofar = new StringBuilder();
            for (int i = 0; i < names.length; i++) {
                Path name = Path.of(names[i]);
                sofar.append(i == 0 ? "" : "/").append(names[i]);
                BasicFileAttributes attributes;
                try {
                    attributes = dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                            .readAttributes();
                } catch (NoSuchFileException absent) {
                    return null;
                }
                if (attributes.isSymbolicLink()) {
                    throw new Refused(sofar + " is a symbolic link; the grader reads only regular files inside the"
                            + " submission folder, never through a link");
                }
                boolean last = i == names.length - 1;
                if (!last) {
                    if (!attributes.isDirectory()) {
                        throw new Refused(sofar + " is not a folder");
                    }
                    dir = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                    opened.add(dir);
                    continue;
                }
                if (!attributes.isRegularFile()) {
                    throw new Refused(sofar + " is not a regular file (" + (attributes.isDirectory() ? "a folder"
                            : "a device, a pipe or a socket") + ")");
                }
                if (attributes.size() > limit) {
                    throw new Refused(sofar + " is " + attributes.size() + " bytes, over the limit of " + limit + " bytes " + what);
                }
                try (SeekableByteChannel channel = dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
                    byte[] bytes = readAtMost(channel, limit);
                    if (bytes.length > limit) {
                        throw new Refused(sofar + " is over the limit of " + limit + " bytes " + what);
                    }
                    return bytes;
                }
            }
            return null;
        } finally {
            for (SecureDirectoryStream<Path> dir : opened) {
                dir.close();
            }
        }
    }

    private static byte[] readAtMost(SeekableByteChannel channel, int limit) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(limit + 1);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
            // Reads until the end, or one byte past the limit: a file that grew since its size was read is caught too.
        }
        byte[] bytes = new byte[buffer.position()];
        buffer.flip().get(bytes);
        return bytes;
    }

    /** Returns {@code bytes}, the student file {@code path}, once they are checked: at most {@link #MAX_FILE_BYTES}, UTF-8 text, no NUL. */
    static byte[] checked(String path, byte[] bytes) throws Refused {
        if (bytes.length > MAX_FILE_BYTES) {
            throw new Refused(path + " is over the limit of " + MAX_FILE_BYTES + " bytes for one source file");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Refused(path + " is not UTF-8 text (" + e.getMessage() + "): Java sources are graded as UTF-8");
        }
        int nul = text.indexOf('\0');
        if (nul >= 0) {
            throw new Refused(path + " holds a NUL character at offset " + nul + ": it is not Java source text");
        }
        return bytes;
    }
}
