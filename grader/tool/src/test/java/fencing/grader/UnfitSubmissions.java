package fencing.grader;

import fencing.support.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the entries of {@code catalog/unfit} from their {@code recipe.txt}: links, pipes and huge files are made at
 * test time rather than kept in git.
 *
 * <p>A recipe is one command a line; fields are separated by spaces, and {@code \\uXXXX} writes any character
 * (a space, a newline) into a field. Paths are relative to the submission; a kit path is relative to the kit's root.
 * <pre>
 * solutions                 copy the solutions' student files
 * link PATH KIT_PATH        make PATH a symbolic link to the kit's KIT_PATH
 * self-link KIT_PATH        make the submission folder itself a symbolic link to the kit's KIT_PATH
 * move FROM TO              rename
 * delete PATH               delete a file or a folder
 * append PATH TEXT...       append the rest of the line to a file
 * pad PATH BYTES            append a comment until the file is BYTES long
 * bytes PATH HEX            write these bytes as the file
 * latin1 PATH               add a comment with an accented letter and save the file as ISO-8859-1
 * fifo PATH                 make PATH a named pipe
 * </pre>
 * The entry's own {@code src/} files are copied on top after the recipe ran.
 */
final class UnfitSubmissions {

    private static final Pattern ESCAPE = Pattern.compile("\\\\u([0-9a-fA-F]{4})");

    private UnfitSubmissions() {
    }

    /** Builds the submission for {@code entry} in {@code target} (which must not exist yet). */
    static Path build(Path entry, Path target) throws IOException, InterruptedException {
        Files.createDirectories(target.getParent());
        List<String> lines = Files.readAllLines(entry.resolve("recipe.txt"), StandardCharsets.UTF_8);
        boolean selfLink = lines.stream().anyMatch(line -> line.startsWith("self-link "));
        if (!selfLink) {
            Files.createDirectories(target);
        }
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            run(line, target);
        }
        if (Files.isDirectory(entry.resolve("src")) && !selfLink) {
            FileTrees.copy(entry.resolve("src"), target.resolve("src"));
        }
        return target;
    }

    /** Lists the kit files the recipe links to: none of their lines may appear in a report. */
    static List<Path> linkTargets(Path entry) throws IOException {
        List<Path> targets = new ArrayList<>();
        for (String line : Files.readAllLines(entry.resolve("recipe.txt"), StandardCharsets.UTF_8)) {
            String[] fields = line.strip().split(" ");
            if (fields[0].equals("link") || fields[0].equals("self-link")) {
                targets.add(KitLocations.root().resolve(unescape(fields[fields.length - 1])));
            }
        }
        return targets;
    }

    private static void run(String line, Path target) throws IOException, InterruptedException {
        String[] fields = line.strip().split(" ");
        String command = fields[0];
        Path path = fields.length > 1 ? target.resolve(unescape(fields[1])) : target;
        switch (command) {
            case "solutions" -> FileTrees.copy(KitLocations.solutions().resolve(StudentFiles.SOURCE_ROOT),
                    target.resolve(StudentFiles.SOURCE_ROOT));
            case "link" -> {
                Files.createDirectories(path.getParent());
                Files.createSymbolicLink(path, KitLocations.root().resolve(unescape(fields[2])));
            }
            case "self-link" -> Files.createSymbolicLink(target, KitLocations.root().resolve(unescape(fields[1])));
            case "move" -> {
                Path to = target.resolve(unescape(fields[2]));
                Files.createDirectories(to.getParent());
                Files.move(path, to);
            }
            case "delete" -> {
                if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    FileTrees.delete(path);
                } else {
                    Files.delete(path);
                }
            }
            case "append" -> Files.writeString(path, "\n" + line.strip().split(" ", 3)[2] + "\n",
                    java.nio.file.StandardOpenOption.APPEND);
            case "pad" -> {
                long size = Long.parseLong(fields[2]);
                byte[] text = Files.readAllBytes(path);
                StringBuilder padded = new StringBuilder(new String(text, StandardCharsets.UTF_8)).append("\n/*");
                while (padded.length() < size - 3) {
                    padded.append(' ');
                }
                padded.append("*/\n");
                Files.writeString(path, padded);
            }
            case "bytes" -> Files.write(path, HexFormat.of().parseHex(fields[2]));
            case "latin1" -> Files.writeString(path, Files.readString(path) + "\n// Réponse écrite à la main.\n",
                    StandardCharsets.ISO_8859_1);
            case "fifo" -> {
                Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
                if (!mkfifo.waitFor(10, TimeUnit.SECONDS) || mkfifo.exitValue() != 0) {
                    mkfifo.destroyForcibly();
                    throw new IOException("mkfifo " + path + " failed");
                }
            }
            default -> throw new IllegalArgumentException("unknown recipe command: " + line);
        }
    }

    private static String unescape(String field) {
        Matcher escape = ESCAPE.matcher(field);
        StringBuilder out = new StringBuilder();
        while (escape.find()) {
            escape.appendReplacement(out, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(escape.group(1), 16))));
        }
        return escape.appendTail(out).toString();
    }
}
