package fencing.grader.pipeline;

import fencing.grader.KitLocations;
import fencing.grader.StudentFiles;
import fencing.grader.pipeline.NoFollowReader.Refused;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Takes a submission's student-owned files into the grader's work directory, or says why it will not.
 *
 * <p>A student file the submission does not hold is listed as missing, not refused: the grader puts the kit's stub in
 * its place.
 *
 * <p>Only regular files inside the submission folder are read ({@link NoFollowReader}), each directory opened relative to
 * its parent and never through a symbolic link ({@code openat} with {@code O_NOFOLLOW}), so a link to the kit's solutions
 * or to a hidden test's source is refused, not followed. The bytes read are checked (size, UTF-8) and written
 * to the work directory, and only those copies are compiled: nothing changed in the submission after its check
 * can reach the compiler.
 */
public final class SubmissionIntake {

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
                byte[] bytes = NoFollowReader.read(root, StudentFiles.SOURCE_ROOT + "/" + path);
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
                byte[] bytes = NoFollowReader.read(root, beside);
                if (bytes != null) {
                    Files.write(answersDir.resolve(beside), bytes);
                }
            }
            List<String> studied = studyFiles(root);
            for (String evidence : studied) {
                byte[] bytes = NoFollowReader.read(root, evidence);
                if (bytes != null) {
                    Path copy = answersDir.resolve(evidence);
                    Files.createDirectories(copy.getParent());
                    Files.write(copy, bytes);
                }
            }
            byte[] archive = NoFollowReader.readAtMost(root, StudentFiles.STUDY_ARCHIVE, StudyArchive.MAX_BYTES,
                    "for the zipped study");
            if (archive != null) {
                if (!studied.isEmpty()) {
                    throw new Refused("both " + StudentFiles.STUDY + "/ and " + StudentFiles.STUDY_ARCHIVE + " are there: give the"
                            + " lab's evidence once, as the folder or as its zip");
                }
                for (var evidence : StudyArchive.evidence(archive, NoFollowReader.MAX_FILE_BYTES).entrySet()) {
                    String path = StudentFiles.STUDY + "/" + evidence.getKey() + "/" + StudentFiles.EVIDENCE;
                    Path copy = answersDir.resolve(path);
                    Files.createDirectories(copy.getParent());
                    Files.write(copy, NoFollowReader.checked(StudentFiles.STUDY_ARCHIVE + ": " + path, evidence.getValue()));
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
                    + garbled.stream().map(SubmissionIntake::shown).collect(Collectors.joining(", "))
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

    /** Returns the files of {@code found} whose names are a missing student file's, give or take spaces and control characters. */
    private static List<String> garbled(List<String> found, List<String> missing) {
        String prefix = StudentFiles.SOURCE_ROOT + "/";
        return found.stream().filter(path -> path.startsWith(prefix))
                .filter(path -> missing.contains(path.substring(prefix.length()).replaceAll("[\\s\\p{Cntrl}]", "")))
                .toList();
    }

    /** The {@code .java} files under the source root that are neither student-owned nor provided by the kit. */
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
                + " file of at most ").append(NoFollowReader.MAX_FILE_BYTES / 1024).append(" KiB:");
        StudentFiles.PATHS.forEach(path -> text.append("\n  ").append(StudentFiles.SOURCE_ROOT).append('/').append(path));
        return new Result(null, List.of(), List.of(), text.toString());
    }

    /**
     * Returns the kit's provided sources, relative to {@code src/main/java}, for {@link #take}: a student's repository
     * holds them too. None where the kit is not found.
     */
    static Set<String> providedByKit() {
        Optional<Path> root = KitLocations.findRoot();
        Path sources = root.map(dir -> KitLocations.exercises().resolve(StudentFiles.SOURCE_ROOT)).orElse(null);
        if (sources == null || !Files.isDirectory(sources)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .map(file -> sources.relativize(file).toString().replace('\\', '/')).collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the kit's provided sources in " + sources, e);
        }
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
