package fencing.grader.handout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The handout's version of a kit Markdown file: kit-only blocks left out, handout-only comments shown. */
class HandoutMarkdownTests {

    private static final String KIT_README = String.join("\n",
            "# Lab",
            "",
            "<!-- kit-only -->",
            "Run `./mvnw -pl labs -am package -Dstudy` from the kit's root.",
            "<!-- /kit-only -->",
            "<!-- handout-only",
            "Run `./mvnw compile exec:exec` from your repository's root.",
            "-->",
            "Shared text.",
            "",
            "<!-- kit-only -->",
            "## For maintainers",
            "<!-- /kit-only -->",
            "",
            "The end.",
            "");

    @Test
    @DisplayName("kit-only blocks are left out and the text of handout-only comments is shown, the rest unchanged")
    void leavesOutKitOnlyAndShowsHandoutOnly() {
        String handout = HandoutMarkdown.forHandout(KIT_README, "labs/README.md");

        assertThat(handout).as("the handout's version").isEqualTo(String.join("\n",
                "# Lab",
                "",
                "Run `./mvnw compile exec:exec` from your repository's root.",
                "Shared text.",
                "",
                "The end.",
                ""));
    }

    @Test
    @DisplayName("a block never closed, a closing marker without an opening and nested blocks are refused, naming the line")
    void misplacedMarkersAreRefused() {
        assertThatThrownBy(() -> HandoutMarkdown.forHandout("a\n<!-- kit-only -->\nb\n", "x.md"))
                .as("a kit-only block never closed").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x.md, line 2").hasMessageContaining("never closed");
        assertThatThrownBy(() -> HandoutMarkdown.forHandout("a\n<!-- /kit-only -->\n", "x.md"))
                .as("a closing marker alone").isInstanceOf(IllegalStateException.class).hasMessageContaining("x.md, line 2");
        assertThatThrownBy(() -> HandoutMarkdown.forHandout("<!-- kit-only -->\n<!-- handout-only\n-->\n<!-- /kit-only -->\n", "x.md"))
                .as("a handout-only block inside a kit-only one").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x.md, line 2");
        assertThatThrownBy(() -> HandoutMarkdown.forHandout("<!-- handout-only\ntext\n", "x.md"))
                .as("a handout-only block never closed").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("x.md, line 1");
    }
}
