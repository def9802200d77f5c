package fencing.grader.classpage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The style and script the pages inline, kept as resources beside this class so that they read as CSS and JavaScript. */
final class Assets {

    private Assets() {
    }

    /** Returns the text of the resource {@code name} beside this class. */
    static String text(String name) {
        try (InputStream in = Assets.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the grader's build lacks its resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the grader's resource " + name, e);
        }
    }
}
