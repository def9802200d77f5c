package fencing.grader.classpage;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** What the kit's pages share: escaping, links to files beside them, and the head of a page that loads nothing. */
final class Html {

    /**
     * The page's own policy: nothing but its inline style and script, so that a page opened from an artifact or a
     * mail attachment never reaches the network, whatever a student's name or text holds.
     */
    private static final String POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

    private Html() {
    }

    /** Returns {@code text} safe inside an element or a quoted attribute. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** Returns a relative link to {@code segments} joined by slashes, each encoded as one path element. */
    static String href(String... segments) {
        StringBuilder out = new StringBuilder();
        for (String segment : segments) {
            if (!out.isEmpty()) {
                out.append('/');
            }
            out.append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return escape(out.toString());
    }

    /** Returns an id for {@code prefix} and {@code name} made only of characters every browser takes in a fragment. */
    static String id(String prefix, String name) {
        StringBuilder out = new StringBuilder(prefix).append('-');
        name.codePoints().forEach(c -> {
            if (c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_')) {
                out.appendCodePoint(c);
            } else {
                out.append(String.format(Locale.ROOT, ".%x.", c));
            }
        });
        return out.toString();
    }

    /** Returns {@code value} in percent with one decimal. */
    static String percent(double value) {
        return String.format(Locale.ROOT, "%.1f %%", value);
    }

    /** Returns the start of a page titled {@code title}, with {@code style} inline, up to the opened body. */
    static String head(String title, String style) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"" + POLICY + "\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + escape(title) + "</title>\n<style>\n" + style + "</style>\n</head>\n<body>\n";
    }
}
