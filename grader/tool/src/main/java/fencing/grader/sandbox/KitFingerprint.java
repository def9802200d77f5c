package fencing.grader.sandbox;

import fencing.grader.KitClassPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The size and modification time of every file of the kit's own code, to prove a submission changed none of it. */
public final class KitFingerprint {

    private final Map<String, String> files;

    private KitFingerprint(Map<String, String> files) {
        this.files = files;
    }

    /** Takes the fingerprint of the kit's own class path entries: those whose role is the kit's, not a library's. */
    public static KitFingerprint of(KitClassPath classPath) {
        Map<String, String> files = new TreeMap<>();
        for (KitClassPath.Entry entry : classPath.entries()) {
            if (entry.role().kitOwn() && Files.exists(entry.path())) {
                record(entry.path(), files);
            }
        }
        return new KitFingerprint(files);
    }

    private static void record(Path entry, Map<String, String> files) {
        try (Stream<Path> paths = Files.walk(entry)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                files.put(path.toString(), Files.size(path) + "@" + Files.getLastModifiedTime(path).toMillis());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kit's files in " + entry, e);
        }
    }

    /**
     * Fails if {@code after} differs from this fingerprint.
     *
     * @throws Changed naming the changed files and the submission that changed them
     */
    public void requireUnchanged(KitFingerprint after, String submission) {
        if (files.equals(after.files)) {
            return;
        }
        Map<String, String> changed = new TreeMap<>();
        files.forEach((path, stamp) -> {
            if (!stamp.equals(after.files.get(path))) {
                changed.put(path, after.files.containsKey(path) ? "changed" : "deleted");
            }
        });
        after.files.keySet().stream().filter(path -> !files.containsKey(path)).forEach(path -> changed.put(path, "added"));
        throw new Changed("grading stopped: the submission " + submission
                + " changed the grader's own files, so no later grade could be trusted: " + changed);
    }

    /** The grader's own files changed during a grade: no later grade could be trusted, so grading stops. */
    public static final class Changed extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Changed(String message) {
            super(message);
        }
    }
}
