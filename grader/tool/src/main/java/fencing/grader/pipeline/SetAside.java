package fencing.grader.pipeline;

import fencing.grader.StudentFiles;

/**
 * A student file the submission holds but that is graded as the kit's stub, and why: it did not compile, or it broke
 * the contract the kit's code is written against. Its tests fail saying {@link #reason()}; the rest is graded.
 *
 * @param path   the file, relative to {@code src/main/java}
 * @param cause  why it was set aside
 * @param detail what was observed: the file's first compiler error, or the rules of the contract it breaks, each with
 *               the place in the student's file, on a first line, and what to do about it on a second
 */
record SetAside(String path, Cause cause, String detail) {

    /**
     * The longest detail kept: a compiler's message quotes the student's code, and the reason is written into the stub's
     * string literals, which a class file holds to 65,535 bytes each.
     */
    static final int MAX_DETAIL = 1_000;

    /** Why a file was set aside. */
    enum Cause {
        /** The file has a compiler error of its own. */
        DID_NOT_COMPILE("did not compile: "),
        /** The file compiles, but not as the handout's stub declares it, which the kit's code is written against. */
        CONTRACT_CHANGED("the contract changed: ");

        private final String words;

        Cause(String words) {
            this.words = words;
        }

        /** Returns how a reason of this cause begins, as a student reads it. */
        String words() {
            return words;
        }
    }

    /** Cuts {@code detail} to {@value #MAX_DETAIL} characters, saying so. */
    SetAside {
        if (detail.length() > MAX_DETAIL) {
            int kept = Character.isHighSurrogate(detail.charAt(MAX_DETAIL - 1)) ? MAX_DETAIL - 1 : MAX_DETAIL;
            detail = detail.substring(0, kept) + " … [cut]";
        }
    }

    /** Returns why the file was set aside, cause first, as its tests' failures and the grade's note say it. */
    String reason() {
        return cause.words + detail;
    }

    /** Returns {@code path} (relative to {@code src/main/java}) as the student's submission names it. */
    static String shown(String path) {
        return StudentFiles.SOURCE_ROOT + "/" + path;
    }

    /**
     * Returns the grade's note on this file: that it was set aside and why. One line, as a report quotes each note; the
     * reason names the file.
     */
    String note() {
        return "Set aside and graded as the kit's stub (its tests fail, the other files are graded as usual): "
                + reason().replace("\n", ": ");
    }
}
