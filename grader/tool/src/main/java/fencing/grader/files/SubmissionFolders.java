package fencing.grader.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** A folder of submissions, one folder per student: what {@code ./kit grade --batch} grades and {@code ./kit similarity} compares. */
public final class SubmissionFolders {

    private SubmissionFolders() {
    }

    /**
     * Lists the submission folders of {@code batch}: every entry but hidden ones and plain files, links included, so
     * that a submission that is a link is refused by name rather than left out unseen.
     *
     * @throws IllegalArgumentException if there is none
     */
    public static List<Path> list(Path batch) throws IOException {
        try (Stream<Path> children = Files.list(batch)) {
            List<Path> found = children.filter(child -> !child.getFileName().toString().startsWith("."))
                    .filter(child -> Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(child))
                    .sorted().toList();
            if (found.isEmpty()) {
                throw new IllegalArgumentException("no submission folders in " + batch.toAbsolutePath());
            }
            return found;
        }
    }
}
