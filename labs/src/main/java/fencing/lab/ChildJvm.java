package fencing.lab;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of a lean child JVM on the runner's own class path. */
final class ChildJvm {

    /** Flags that make a short-lived JVM start and run its first calls quickly. */
    static final List<String> LEAN_FLAGS = List.of(
            "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:+UseSerialGC", "-Xss512k",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    private ChildJvm() {
    }

    /** Returns {@code java [lean flags] -cp classPath mainClass args...}, with this JVM's java binary. */
    static List<String> command(String classPath, Class<?> mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LEAN_FLAGS);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass.getName());
        command.addAll(args);
        return command;
    }
}
