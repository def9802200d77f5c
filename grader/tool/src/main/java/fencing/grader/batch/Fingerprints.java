package fencing.grader.batch;

import fencing.grader.KitClassPath;
import fencing.grader.pipeline.Grader;
import fencing.grader.pipeline.GradingPolicy;
import fencing.grader.pipeline.TestCase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The SHA-256 fingerprints that let a regrade reuse a result: one of the grader (everything that decides a grade
 * besides the student's files) and one of each submission (its files as the grader read them).
 *
 * <p>Files are fingerprinted by their names and contents, never by their times or absolute paths, so a rebuild of
 * the same kit, or the same kit checked out elsewhere, has the same fingerprint.
 */
final class Fingerprints {

    /**
     * The version of what a batch records for a later {@code --since}; a batch of another version is refused. Raise it
     * whenever the stored results or fingerprints change meaning.
     */
    static final int FORMAT = 1;

    private Fingerprints() {
    }

    /**
     * Returns the grader's fingerprint: the record's version, the options that decide a verdict, the grading policy's
     * bytes, the tests with their points, the suite's compiled tests, and the kit's own code on the class path (the
     * grader, the provided code, the hidden tests); other jars count by their names, which carry their versions.
     */
    static String grader(Grader.Options options, Path policyFile, List<TestCase> tests, KitClassPath classPath) {
        Digest digest = new Digest();
        digest.add("format " + FORMAT);
        digest.add("suite " + options.suite() + ", etcd " + options.includeEtcd() + ", extensions " + options.includeExtensions()
                + ", limits " + GradingPolicy.load(policyFile).limits());
        try {
            digest.add("policy").add(Files.readAllBytes(policyFile));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the grading policy " + policyFile, e);
        }
        for (TestCase test : tests) {
            digest.add(test.uniqueId() + " " + test.points() + " " + test.tags());
        }
        digest.add("suite classes");
        tree(options.suite().root(), digest);
        for (KitClassPath.Entry entry : classPath.entries()) {
            Path path = entry.path();
            String name = path.getFileName() == null ? path.toString() : path.getFileName().toString();
            if (entry.role().kitOwn()) {
                digest.add("kit entry " + entry.role());
                tree(path, digest);
            } else {
                digest.add("library " + name);
            }
        }
        return digest.hex();
    }

    /**
     * Returns a submission's fingerprint: every file the intake copied into {@code copies} (the student files exactly
     * as read, never through a link) by its relative path and bytes, and the git history's note, when there is one.
     */
    static String submission(Path copies, Optional<String> historyNote) throws IOException {
        Digest digest = new Digest();
        digest.add("format " + FORMAT);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(copies)) {
            files = walk.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        }
        for (Path file : files) {
            digest.add("file " + copies.relativize(file).toString().replace('\\', '/')).add(Files.readAllBytes(file));
        }
        digest.add("history " + historyNote.orElse(""));
        return digest.hex();
    }

    /** Adds a class directory's files, or a jar's entries, by relative name and content. */
    private static void tree(Path entry, Digest digest) {
        try {
            if (Files.isDirectory(entry)) {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(entry)) {
                    files = walk.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path file : files) {
                    digest.add(entry.relativize(file).toString().replace('\\', '/')).add(Files.readAllBytes(file));
                }
            } else if (Files.isRegularFile(entry)) {
                try (JarFile jar = new JarFile(entry.toFile())) {
                    List<JarEntry> entries = Collections.list(jar.entries()).stream().filter(e -> !e.isDirectory())
                            .sorted((a, b) -> a.getName().compareTo(b.getName())).toList();
                    for (JarEntry file : entries) {
                        try (InputStream in = jar.getInputStream(file)) {
                            digest.add(file.getName()).add(in.readAllBytes());
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the grader's own files in " + entry, e);
        }
    }

    /** A SHA-256 over a sequence of parts, each framed by its length so that no two sequences run together. */
    private static final class Digest {
        private final MessageDigest sha;

        Digest() {
            try {
                sha = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("this JVM has no SHA-256", e);
            }
        }

        Digest add(String text) {
            return add(text.getBytes(StandardCharsets.UTF_8));
        }

        Digest add(byte[] bytes) {
            sha.update(Long.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
            sha.update((byte) ':');
            sha.update(bytes);
            return this;
        }

        String hex() {
            return "sha256:" + HexFormat.of().formatHex(sha.digest());
        }
    }
}
