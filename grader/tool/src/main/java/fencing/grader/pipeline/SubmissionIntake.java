package fencing.grader.pipeline;

import fencing.grader.StudentFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Takes a submission's student-owned files into the grader's work directory, or says why it will not.
 *
 * <p>A student file the submission does not hold is listed as missing, not refused: the grader puts the kit's stub in
 * its place.
 *
 * <p>Only regular files inside the submission folder are read, each directory opened relative to its parent
 * and never through a symbolic link ({@code openat} with {@code O_NOFOLLOW}), so a link to the kit's solutions
 * or to a hidden test's source is refused, not followed. The bytes read are checked (size, UTF-8) and written
 * to the work directory, and only those copies are compiled: nothing changed in the submission after its check
 * can reach the compiler.
 */
public final class SubmissionIntake {

    /** The largest student file taken: a source file of this exercise is a few KiB. */
    static final int MAX_FILE_BYTES = 1024 * 1024;
    private static final int LISTED = 12;

    /**
     * What was taken, or why nothing was.
     *
     * @param sources the copies' source root, laid out like {@code src/main/java}
     * @param taken   the student-owned files copied there
     * @param missing the student-owned files the submission does not hold
     * @param refusal why the submission is not graded, with what was found and what was expected; null when taken
     */
    public record Result(Path sources, List<String> taken, List<String> missing, String refusal) {

        /** Whether the files were taken. */
        public boolean accepted() {
            return refusal == null;
        }
    }

    /** Why one file or directory is refused; its message names the file. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    private SubmissionIntake() {
    }

    /**
     * Copies the student-owned files of {@code submission} into {@code copies}.
     *
     * @param provided the paths, relative to {@code src/main/java}, of the kit's provided sources: a submission may
     *                 hold them (a student's repository does) though they are never taken from it
     */
    public static Result take(Path submission, Path copies, Set<String> provided) throws IOException {
        BasicFileAttributes folder;
        try {
            folder = Files.readAttributes(submission, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return refuse("the submission folder " + submission.getFileName() + " does not exist", submission);
        }
        if (folder.isSymbolicLink()) {
            return refuse("the submission folder " + shown(submission.getFileName().toString())
                    + " is a symbolic link; the grader reads only a real folder", null);
        }
        if (!folder.isDirectory()) {
            return refuse("the submission " + shown(submission.getFileName().toString()) + " is not a folder", null);
        }
        List<String> found = listFiles(submission);
        if (found.isEmpty()) {
            return refuse("the submission folder is empty", submission);
        }
        Path sources = Files.createDirectories(copies);
        List<String> taken = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        try (DirectoryStream<Path> top = Files.newDirectoryStream(submission)) {
            if (!(top instanceof SecureDirectoryStream<Path> root)) {
                throw new IllegalStateException("this file system cannot open a file relative to its folder without"
                        + " following links (no openat): grading needs Linux or macOS");
            }
            for (String path : StudentFiles.PATHS) {
                byte[] bytes = read(root, StudentFiles.SOURCE_ROOT + "/" + path);
                if (bytes == null) {
                    missing.add(path);
                    continue;
                }
                Path copy = sources.resolve(path);
                Files.createDirectories(copy.getParent());
                Files.write(copy, bytes);
                taken.add(path);
            }
            // The answers and the lab's evidence are optional, but read the same way: never through a link.
            Path answersDir = sources;
            for (int i = 0; i < Path.of(StudentFiles.SOURCE_ROOT).getNameCount(); i++) {
                answersDir = answersDir.getParent();
            }
            for (String beside : StudentFiles.BESIDE_SOURCES) {
                byte[] bytes = read(root, beside);
                if (bytes != null) {
                    Files.write(answersDir.resolve(beside), bytes);
                }
            }
            List<String> studied = studyFiles(root);
            for (String evidence : studied) {
                byte[] bytes = read(root, evidence);
                if (bytes != null) {
                    Path copy = answersDir.resolve(evidence);
                    Files.createDirectories(copy.getParent());
                    Files.write(copy, bytes);
                }
            }
            byte[] archive = readAtMost(root, StudentFiles.STUDY_ARCHIVE, StudyArchive.MAX_BYTES, "for the zipped study");
            if (archive != null) {
                if (!studied.isEmpty()) {
                    throw new Refused("both " + StudentFiles.STUDY + "/ and " + StudentFiles.STUDY_ARCHIVE + " are there: give the"
                            + " lab's evidence once, as the folder or as its zip");
                }
                for (var evidence : StudyArchive.evidence(archive, MAX_FILE_BYTES).entrySet()) {
                    String path = StudentFiles.STUDY + "/" + evidence.getKey() + "/" + StudentFiles.EVIDENCE;
                    Path copy = answersDir.resolve(path);
                    Files.createDirectories(copy.getParent());
                    Files.write(copy, checked(StudentFiles.STUDY_ARCHIVE + ": " + path, evidence.getValue()));
                }
            }
        } catch (StudyArchive.Unfit e) {
            return refuse(e.getMessage(), submission);
        } catch (Refused e) {
            return refuse(e.getMessage(), submission);
        }
        // A missing file is graded as the kit's stub (the grader's to write); no student file at all is a wrong layout.
        if (taken.isEmpty()) {
            return refuse(Files.isDirectory(submission.resolve(StudentFiles.SOURCE_ROOT), LinkOption.NOFOLLOW_LINKS)
                    ? "it holds none of the student files"
                    : "it is not laid out like exercises/: there is no " + StudentFiles.SOURCE_ROOT + "/ folder", submission);
        }
        List<String> garbled = garbled(found, missing);
        if (!garbled.isEmpty()) {
            // The student meant these files: grading them as not submitted would blame the work, not the upload.
            return refuse("student files are missing: " + String.join(", ", missing) + "; in their place it holds "
                    + garbled.stream().map(SubmissionIntake::shown).collect(java.util.stream.Collectors.joining(", "))
                    + ", whose names differ from theirs only by spaces or control characters", submission);
        }
        List<String> extra = extraSources(found, provided);
        if (!extra.isEmpty()) {
            return refuse("unexpected extra class " + String.join(", ", extra)
                    + ": a submission may change only the student-owned files, and these are neither those nor the kit's"
                    + " provided code (write helpers as nested classes inside a student-owned file)", submission);
        }
        return new Result(sources, List.copyOf(taken), List.copyOf(missing), null);
    }

    /**
     * Returns {@code study/CASE/evidence.json} for each case folder of the submission's {@code study/}, none if it has none.
     *
     * @throws Refused if {@code study} is a link or not a folder, or holds more folders than a study writes
     */
    private static List<String> studyFiles(SecureDirectoryStream<Path> root) throws Refused, IOException {
        Path study = Path.of(StudentFiles.STUDY);
        BasicFileAttributes attributes;
        try {
            attributes = root.getFileAttributeView(study, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
        } catch (NoSuchFileException absent) {
            return List.of();
        }
        if (attributes.isSymbolicLink() || !attributes.isDirectory()) {
            throw new Refused(StudentFiles.STUDY + " is " + (attributes.isSymbolicLink() ? "a symbolic link" : "not a folder")
                    + "; the grader reads the lab's evidence only from a real folder inside the submission");
        }
        List<String> files = new ArrayList<>();
        try (SecureDirectoryStream<Path> cases = root.newDirectoryStream(study, LinkOption.NOFOLLOW_LINKS)) {
            for (Path entry : cases) {
                String name = entry.getFileName().toString();
                if (!StudentFiles.CASE_NAME.matcher(name).matches()) {
                    continue;
                }
                files.add(StudentFiles.STUDY + "/" + name + "/" + StudentFiles.EVIDENCE);
                if (files.size() > StudentFiles.MAX_STUDY_CASES) {
                    throw new Refused(StudentFiles.STUDY + " holds more than " + StudentFiles.MAX_STUDY_CASES + " case folders; a study"
                            + " writes one per case");
                }
            }
        }
        files.sort(null);
        return files;
    }

    /** Reads the student file {@code path} below {@code root} without following links; null when it does not exist. */
    private static byte[] read(SecureDirectoryStream<Path> root, String path) throws Refused, IOException {
        byte[] bytes = readAtMost(root, path, MAX_FILE_BYTES, "for one source file");
        return bytes == null ? null : checked(path, bytes);
    }

    /**
     * Reads {@code path} below {@code root} without following links, refusing it over {@code limit} bytes; null when it
     * does not exist.
     */
    private static byte[] readAtMost(SecureDirectoryStream<Path> root, String path, int limit, String what)
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

    private static byte[] checked(String path, byte[] bytes) throws Refused {
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

    /** The {@code .java} files under the source root that are neither student-owned nor provided by the kit. */
    /** Returns the files of {@code found} whose names are a missing student file's, give or take spaces and control characters. */
    private static List<String> garbled(List<String> found, List<String> missing) {
        String prefix = StudentFiles.SOURCE_ROOT + "/";
        return found.stream().filter(path -> path.startsWith(prefix))
                .filter(path -> missing.contains(path.substring(prefix.length()).replaceAll("[\\s\\p{Cntrl}]", "")))
                .toList();
    }

    private static List<String> extraSources(List<String> found, Set<String> provided) {
        String prefix = StudentFiles.SOURCE_ROOT + "/";
        return found.stream().filter(path -> path.startsWith(prefix) && path.endsWith(".java"))
                .map(path -> path.substring(prefix.length()))
                .filter(path -> !StudentFiles.PATHS.contains(path) && !provided.contains(path))
                .map(path -> shown(prefix + path)).toList();
    }

    /** Lists every file of the submission, relative to it, without following links; links are listed as such. */
    private static List<String> listFiles(Path submission) throws IOException {
        Set<String> files = new TreeSet<>();
        Files.walkFileTree(submission, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                return dir.getFileName().toString().equals(".git") ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                files.add(submission.relativize(file).toString().replace('\\', '/'));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                files.add(submission.relativize(file).toString().replace('\\', '/'));
                return FileVisitResult.CONTINUE;
            }
        });
        return List.copyOf(files);
    }

    private static Result refuse(String why, Path submission) throws IOException {
        StringBuilder text = new StringBuilder(why).append('.');
        if (submission != null && Files.isDirectory(submission, LinkOption.NOFOLLOW_LINKS)) {
            List<String> found = listFiles(submission);
            text.append("\nFound:").append(found.isEmpty() ? " nothing" : "");
            found.stream().limit(LISTED).forEach(path -> text.append("\n  ").append(shown(path)));
            if (found.size() > LISTED) {
                text.append("\n  ... and ").append(found.size() - LISTED).append(" more");
            }
        }
        text.append("\nExpected: a folder laid out like exercises/, with these student files, each a regular UTF-8"
                + " file of at most ").append(MAX_FILE_BYTES / 1024).append(" KiB:");
        StudentFiles.PATHS.forEach(path -> text.append("\n  ").append(StudentFiles.SOURCE_ROOT).append('/').append(path));
        return new Result(null, List.of(), List.of(), text.toString());
    }

    /** Writes a file name so that control characters and odd spaces show, as a report can hold it. */
    static String shown(String name) {
        StringBuilder out = new StringBuilder();
        name.codePoints().forEach(c -> {
            if (c < 0x20 || c == 0x7F || Character.isWhitespace(c) && c != ' ' || Character.getType(c) == Character.FORMAT) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        String text = out.toString();
        return text.isBlank() || !text.strip().equals(text) ? "\"" + text + "\"" : text;
    }
}
