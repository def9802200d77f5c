package fencing.grader;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** The {@code study.zip} a student uploads to PrairieLearn: made as {@code zip -r} makes it, or with what an attacker puts in it. */
final class StudyZips {

    /** The Unix mode of a symbolic link, as {@code zip --symlinks} records it. */
    static final int LINK = 0120777;
    /** The Unix mode of a regular file. */
    static final int FILE = 0100644;

    private StudyZips() {
    }

    /** One entry: its name, its bytes (a link's are its target), and its Unix mode. */
    record Entry(String name, byte[] bytes, int mode) {

        static Entry file(String name, String text) {
            return new Entry(name, text.getBytes(java.nio.charset.StandardCharsets.UTF_8), FILE);
        }
    }

    /** Zips {@code study} (a study's out folder) into {@code zip}, its entries named from inside the folder, as {@code cd study && zip -r}. */
    static Path of(Path study, Path zip) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(study)) {
            for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
                files.put(study.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
        }
        return write(zip, files.entrySet().stream().map(file -> new Entry(file.getKey(), file.getValue(), FILE)).toList());
    }

    /** Writes {@code entries} into {@code zip} with their Unix modes, deflated, as Info-ZIP on Linux writes them. */
    static Path write(Path zip, List<Entry> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream stream = new ZipOutputStream(out)) {
            for (Entry entry : entries) {
                stream.putNextEntry(new ZipEntry(entry.name()));
                stream.write(entry.bytes());
                stream.closeEntry();
            }
        }
        // ZipOutputStream records no Unix mode: set each central record's "made by Unix" and mode, in the entries' order.
        ByteBuffer bytes = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        // The end record is the last 22 bytes (no comment); it says where the central records begin.
        int at = bytes.getInt(bytes.limit() - 22 + 16);
        for (Entry entry : entries) {
            bytes.putShort(at + 4, (short) (3 << 8 | 20));
            bytes.putInt(at + 38, entry.mode() << 16);
            at += 46 + Short.toUnsignedInt(bytes.getShort(at + 28)) + Short.toUnsignedInt(bytes.getShort(at + 30))
                    + Short.toUnsignedInt(bytes.getShort(at + 32));
        }
        Files.createDirectories(zip.getParent());
        return Files.write(zip, bytes.array());
    }
}
