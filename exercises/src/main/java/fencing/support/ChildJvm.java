package fencing.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one way the kit starts a child JVM: this JVM's {@code java}, the kit's flags, under {@link Supervised}.
 *
 * <p>The flags live in the resource {@code fencing/support/child-jvm.args} and nowhere else; a build
 * that starts a JVM itself passes that file to {@code java} as an argument file. A child started here
 * never outlives the JVM that started it (see {@link Supervised}), and talks to it over a
 * {@link Channel} when given one with {@link #channel(Channel.Listener)}.
 *
 * <pre>{@code
 * try (Channel.Listener listener = Channel.listen();
 *      Supervised child = ChildJvm.of(Worker.class).args("--name", "A").channel(listener).log(log).start("worker A");
 *      Channel channel = listener.accept(child, Duration.ofSeconds(30))) {
 *     channel.send(new Acquire());
 * }
 * }</pre>
 */
public final class ChildJvm {

    private static final List<String> FLAGS = readFlags();

    private final String mainClass;
    private final List<String> options = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private List<String> prefix = List.of();
    private String classPath = System.getProperty("java.class.path");
    private Path directory;
    private Path log;

    private ChildJvm(String mainClass) {
        this.mainClass = mainClass;
    }

    /** Returns a launcher for {@code mainClass} on this JVM's class path. */
    public static ChildJvm of(Class<?> mainClass) {
        return new ChildJvm(mainClass.getName());
    }

    /** Returns a launcher for the class named {@code mainClass}, which need not be loadable here. */
    public static ChildJvm of(String mainClass) {
        return new ChildJvm(mainClass);
    }

    /** Returns the {@code java} executable every child runs: this JVM's own. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Returns the flags every child JVM gets, as listed in {@code child-jvm.args}. */
    public static List<String> flags() {
        return FLAGS;
    }

    /** Adds arguments for the main class. */
    public ChildJvm args(String... more) {
        return args(Arrays.asList(more));
    }

    /** Adds arguments for the main class. */
    public ChildJvm args(List<String> more) {
        args.addAll(more);
        return this;
    }

    /** Runs the child on {@code path} instead of this JVM's class path. */
    public ChildJvm classPath(String path) {
        this.classPath = path;
        return this;
    }

    /** Sets a system property in the child. */
    public ChildJvm systemProperty(String name, String value) {
        options.add("-D" + name + "=" + value);
        return this;
    }

    /**
     * Limits the child's heap to {@code megabytes}, and ends it at once when that runs out.
     *
     * <p>An {@link OutOfMemoryError} leaves a JVM in no state to report on anything else, so the child
     * exits with {@code Terminating due to java.lang.OutOfMemoryError} on its output instead.
     */
    public ChildJvm maxHeapMegabytes(int megabytes) {
        options.add("-Xmx" + megabytes + "m");
        options.add("-XX:+ExitOnOutOfMemoryError");
        return this;
    }

    /**
     * Maps the classes of {@code archive}, a class data sharing archive, instead of loading them from their jars.
     *
     * <p>The archive must have been made with a class path that begins this child's; where it does not (or the
     * archive is unusable), the child loads its classes as usual, since {@code child-jvm.args} asks for
     * {@code -Xshare:auto}, never {@code -Xshare:on}.
     */
    public ChildJvm sharedArchive(Path archive) {
        options.add("-XX:SharedArchiveFile=" + archive);
        return this;
    }

    /** Has the child write the name of every class it loads to {@code file}, the input of a class data archive. */
    public ChildJvm loadedClassList(Path file) {
        options.add("-XX:DumpLoadedClassList=" + file);
        return this;
    }

    /** Tells the child where {@code listener} waits for it, for {@link Channel#connectToParent}. */
    public ChildJvm channel(Channel.Listener listener) {
        return systemProperty(Channel.PORT_PROPERTY, Integer.toString(listener.port()));
    }

    /** Runs the child through {@code programs}, e.g. {@code setpriv ...}, which end by running their arguments. */
    public ChildJvm prefix(List<String> programs) {
        this.prefix = List.copyOf(programs);
        return this;
    }

    /** Runs the child in {@code dir}. */
    public ChildJvm directory(Path dir) {
        this.directory = dir;
        return this;
    }

    /** Sets an environment variable of the child; a {@code null} value removes it. */
    public ChildJvm environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** Appends the child's output and errors to {@code file}, instead of passing them to {@link Supervised#output()}. */
    public ChildJvm log(Path file) {
        this.log = file;
        return this;
    }

    /** Returns the whole command line, prefix included. */
    public List<String> command() {
        List<String> command = new ArrayList<>(prefix);
        command.add(java());
        command.addAll(FLAGS);
        command.addAll(options);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * Starts the child under the watchdog.
     *
     * @param name a short name for messages, e.g. {@code worker A}
     */
    public Supervised start(String name) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command());
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        environment.forEach((variable, value) -> {
            if (value == null) {
                builder.environment().remove(variable);
            } else {
                builder.environment().put(variable, value);
            }
        });
        if (log != null) {
            Files.createDirectories(log.toAbsolutePath().getParent());
        }
        return Supervised.start(name, builder, log == null ? null : log.toFile());
    }

    private static List<String> readFlags() {
        try (InputStream in = ChildJvm.class.getResourceAsStream("child-jvm.args")) {
            if (in == null) {
                throw new IllegalStateException("fencing/support/child-jvm.args is missing from the class path");
            }
            List<String> flags = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String content = line.replaceFirst("#.*", "").strip();
                if (!content.isEmpty()) {
                    flags.addAll(Arrays.asList(content.split("\\s+")));
                }
            }
            return List.copyOf(flags);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read fencing/support/child-jvm.args", e);
        }
    }
}
