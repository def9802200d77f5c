package fencing.grader.pipeline;

import fencing.grader.StudentFiles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The lab's evidence from a {@code study.zip} beside the sources, for platforms whose upload takes flat files only
 * (PrairieLearn's): the zipped out folder of {@code ./kit study --case all}, of which only each case's
 * {@code evidence.json} is taken.
 *
 * <p>The archive is read from its own central directory, never unpacked to disk: every entry is checked before
 * anything is taken, and an archive with an absolute path, a {@code ..}, a link or a special file in it, too many
 * entries, or a taken file over the limit of a student file is refused whole. Java's {@code ZipFile} would not say
 * which entries are links, which the archive's Unix mode bits do.
 */
final class StudyArchive {

    /** The largest archive taken: a study's out folder, reports included, is a few hundred KiB. */
    static final int MAX_BYTES = 16 * 1024 * 1024;
    /** The most entries an archive may hold: a study writes a handful of files per case. */
    static final int MAX_ENTRIES = 1_000;

    private static final int END = 0x06054b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int LOCAL = 0x04034b50;
    private static final int UNIX = 3;
    private static final int TYPE_MASK = 0xF000;
    private static final int REGULAR = 0x8000;
    private static final int DIRECTORY = 0x4000;
    private static final int LINK = 0xA000;

    /** Why an archive is refused; its message names the entry. */
    static final class Unfit extends Exception {
        private static final long serialVersionUID = 1L;

        Unfit(String message) {
            super(StudentFiles.STUDY_ARCHIVE + " " + message);
        }
    }

    private StudyArchive() {
    }

    /**
     * Returns each case's {@code evidence.json} in {@code zip}, by case name: {@code CASE/evidence.json}, or
     * {@code FOLDER/CASE/evidence.json} below one folder.
     *
     * @param maxFileBytes the most bytes one taken file may hold, as any student file
     * @throws Unfit if an entry is unsafe, the archive is not one or breaks a limit
     */
    static Map<String, byte[]> evidence(byte[] zip, int maxFileBytes) throws Unfit {
        ByteBuffer bytes = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        int end = endRecord(bytes);
        int entries = u16(bytes, end + 10);
        long directory = u32(bytes, end + 16);
        if (u16(bytes, end + 4) != 0 || u16(bytes, end + 8) != entries || entries == 0xFFFF || directory == 0xFFFFFFFFL) {
            throw new Unfit("is a split or ZIP64 archive: zip the study's out folder as one plain archive");
        }
        if (entries > MAX_ENTRIES) {
            throw new Unfit("holds " + entries + " entries, over the limit of " + MAX_ENTRIES);
        }
        Map<String, byte[]> evidence = new TreeMap<>();
        String folder = null;
        int at = (int) directory;
        for (int i = 0; i < entries; i++) {
            if (at < 0 || at + 46 > zip.length || bytes.getInt(at) != CENTRAL) {
                throw new Unfit("is damaged: its list of entries ends early");
            }
            int nameLength = u16(bytes, at + 28);
            if (at + 46 + nameLength > zip.length) {
                throw new Unfit("is damaged: an entry's name runs past its end");
            }
            String name = new String(zip, at + 46, nameLength, StandardCharsets.UTF_8);
            checkSafe(name, u16(bytes, at + 4) >> 8, (int) (u32(bytes, at + 38) >>> 16), u16(bytes, at + 8));
            List<String> parts = List.of(name.split("/")).stream().filter(part -> !part.isEmpty() && !part.equals(".")).toList();
            boolean taken = !name.endsWith("/") && (parts.size() == 2 || parts.size() == 3)
                    && parts.get(parts.size() - 1).equals(StudentFiles.EVIDENCE)
                    && StudentFiles.CASE_NAME.matcher(parts.get(parts.size() - 2)).matches();
            if (taken) {
                String above = parts.size() == 3 ? parts.get(0) : "";
                String caseName = parts.get(parts.size() - 2);
                if (folder != null && !folder.equals(above) || evidence.containsKey(caseName)) {
                    throw new Unfit("holds the evidence of " + caseName + " twice, or cases in two folders (" + name
                            + "): zip one study's out folder");
                }
                folder = above;
                evidence.put(caseName, content(bytes, at, name, maxFileBytes));
                if (evidence.size() > StudentFiles.MAX_STUDY_CASES) {
                    throw new Unfit("holds more than " + StudentFiles.MAX_STUDY_CASES + " cases; a study writes one folder per case");
                }
            }
            at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
        }
        return evidence;
    }

    /** Refuses an entry whose name could lead out of the study folder, or that is not a plain file or folder. */
    private static void checkSafe(String name, int system, int mode, int flags) throws Unfit {
        String shown = SubmissionIntake.shown(name);
        if (name.isEmpty() || name.indexOf('\0') >= 0 || name.contains("\\")) {
            throw new Unfit("holds an entry named " + shown + ": a name with a backslash or a NUL could lead anywhere");
        }
        if (name.startsWith("/") || name.matches("^[A-Za-z]:.*")) {
            throw new Unfit("holds " + shown + ", an absolute path: every entry must lie inside the study's out folder");
        }
        if (List.of(name.split("/")).contains("..")) {
            throw new Unfit("holds " + shown + ", whose .. leads out of the study's out folder");
        }
        int type = mode & TYPE_MASK;
        if (system == UNIX && type == LINK) {
            throw new Unfit("holds " + shown + ", a symbolic link: the grader takes only regular files, never through a link");
        }
        if (system == UNIX && type != 0 && type != REGULAR && type != DIRECTORY) {
            throw new Unfit("holds " + shown + ", which is not a regular file (a device, a pipe or a socket)");
        }
        if ((flags & 1) != 0) {
            throw new Unfit("holds " + shown + ", which is encrypted: zip the study without a password");
        }
    }

    /** Returns the bytes of the entry whose central record is at {@code at}, checked against its size and checksum. */
    private static byte[] content(ByteBuffer bytes, int at, String name, int maxFileBytes) throws Unfit {
        String shown = SubmissionIntake.shown(name);
        int method = u16(bytes, at + 10);
        long crc = u32(bytes, at + 16);
        long compressed = u32(bytes, at + 20);
        long size = u32(bytes, at + 24);
        long local = u32(bytes, at + 42);
        if (size > maxFileBytes) {
            throw new Unfit("holds " + shown + " of " + size + " bytes, over the limit of " + maxFileBytes + " bytes for one student file");
        }
        if (local + 30 > bytes.limit() || bytes.getInt((int) local) != LOCAL) {
            throw new Unfit("is damaged: the data of " + shown + " is not where its entry says");
        }
        long data = local + 30 + u16(bytes, (int) local + 26) + u16(bytes, (int) local + 28);
        if (data + compressed > bytes.limit()) {
            throw new Unfit("is damaged: the data of " + shown + " runs past its end");
        }
        byte[] raw = new byte[(int) compressed];
        bytes.get((int) data, raw);
        byte[] content = switch (method) {
            case 0 -> raw;
            case 8 -> inflated(raw, maxFileBytes, shown);
            default -> throw new Unfit("holds " + shown + " compressed by method " + method + "; zip stores or deflates");
        };
        CRC32 check = new CRC32();
        check.update(content);
        if (content.length != size || check.getValue() != crc) {
            throw new Unfit("is damaged: " + shown + " does not match its recorded size and checksum");
        }
        return content;
    }

    /** Inflates {@code raw}, stopping one byte past the limit: the recorded size of an entry is the archive's own word. */
    private static byte[] inflated(byte[] raw, int maxFileBytes, String shown) throws Unfit {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(raw);
            byte[] out = new byte[maxFileBytes + 1];
            int length = 0;
            while (!inflater.finished() && length < out.length) {
                int read = inflater.inflate(out, length, out.length - length);
                if (read == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new Unfit("is damaged: " + shown + " ends before its data does");
                }
                length += read;
            }
            if (length > maxFileBytes) {
                throw new Unfit("holds " + shown + ", over the limit of " + maxFileBytes + " bytes for one student file once unpacked");
            }
            return java.util.Arrays.copyOf(out, length);
        } catch (DataFormatException e) {
            throw new Unfit("is damaged: " + shown + " cannot be inflated (" + e.getMessage() + ")");
        } finally {
            inflater.end();
        }
    }

    /** Returns where the end-of-central-directory record begins, searched back from the end past a comment. */
    private static int endRecord(ByteBuffer bytes) throws Unfit {
        for (int at = bytes.limit() - 22; at >= Math.max(0, bytes.limit() - 22 - 0xFFFF); at--) {
            if (bytes.getInt(at) == END) {
                return at;
            }
        }
        throw new Unfit("is not a zip archive (zip the out folder of ./kit study --case all)");
    }

    private static int u16(ByteBuffer bytes, int at) {
        return Short.toUnsignedInt(bytes.getShort(at));
    }

    private static long u32(ByteBuffer bytes, int at) {
        return Integer.toUnsignedLong(bytes.getInt(at));
    }
}
