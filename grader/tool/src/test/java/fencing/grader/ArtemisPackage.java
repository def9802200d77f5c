package fencing.grader;

import static org.assertj.core.api.Assertions.assertThat;

import fencing.grader.report.ArtemisExercise;
import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code ./kit package artemis}'s output, made once per test run for every class that reads it, and the zip unpacked as
 * Artemis's import unpacks it: each zip into a folder named after it, the zips found in it in turn. It packages with the
 * grader this run built ({@code KIT_GRADER_BUILT=true}): a Maven run would rebuild the classes the other tests use.
 */
final class ArtemisPackage {

    /** The zip Artemis imports. */
    static final String ZIP = ArtemisExercise.SHORT_NAME + ".zip";

    private static Path made;

    private ArtemisPackage() {
    }

    /** Returns the folder {@code ./kit package artemis} wrote, packaging the kit on the first call. */
    static synchronized Path folder() throws IOException, InterruptedException {
        if (made == null) {
            Path scratch = Files.createTempDirectory("kit-artemis-package");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> FileTrees.delete(scratch)));
            Path out = scratch.resolve("out");
            CommandRun packaged = CommandRun.of(List.of(KitLocations.root().resolve("kit").toString(), "package", "artemis",
                    "--out", out.toString()), Map.of("KIT_GRADER_BUILT", "true"), KitLocations.root(), scratch.resolve("package.log"),
                    Duration.ofMinutes(10));
            assertThat(packaged.exit()).as("./kit package artemis: %s", packaged.output()).isZero();
            unpackRecursively(out.resolve(ZIP), scratch.resolve("unpacked"));
            made = out;
        }
        return made;
    }

    /** Returns the zip unpacked as Artemis's import unpacks it. */
    static Path unpacked() throws IOException, InterruptedException {
        return folder().getParent().resolve("unpacked");
    }

    /** Returns the unpacked folder of the repository whose name ends with {@code -suffix}. */
    static Path repository(String suffix) throws IOException, InterruptedException {
        try (Stream<Path> folders = Files.walk(unpacked())) {
            return folders.filter(Files::isDirectory).filter(folder -> folder.getFileName().toString().endsWith("-" + suffix))
                    .findFirst().orElseThrow();
        }
    }

    private static void unpackRecursively(Path zip, Path target) throws IOException {
        unzip(zip, target);
        List<Path> inner;
        try (Stream<Path> files = Files.walk(target)) {
            inner = files.filter(file -> file.getFileName().toString().endsWith(".zip")).toList();
        }
        for (Path nested : inner) {
            String name = nested.getFileName().toString();
            unpackRecursively(nested, nested.resolveSibling(name.substring(0, name.length() - ".zip".length())));
            Files.delete(nested);
        }
    }

    /** Unpacks {@code zip} into {@code target}, its scripts executable as a checkout makes them. */
    private static void unzip(Path zip, Path target) throws IOException {
        Uploads.unzip(zip, target);
        markScripts(target);
    }

    /** Makes the scripts executable, as git checks them out ({@code ZipInputStream} does not read a file's mode). */
    private static void markScripts(Path target) throws IOException {
        try (Stream<Path> files = Files.walk(target)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".sh") || name.equals("kit") || name.equals("mvnw")) {
                    file.toFile().setExecutable(true);
                }
            }
        }
    }
}
