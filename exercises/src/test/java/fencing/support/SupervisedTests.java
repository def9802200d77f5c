package fencing.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A supervised process's work directory goes when the process is closed, and only then; a zombie in its family is a dead process. */
@Timeout(120)
class SupervisedTests {

    /**
     * How long a family of processes may take to make its zombie: a bound for a family that never does, not a measure of
     * a slow one, since a machine busy with the kit's other tests may keep a process from running for many seconds.
     */
    private static final Duration ZOMBIE_WAIT = Duration.ofSeconds(60);

    private static final int ROUNDS = 20;

    @Test
    @DisplayName("Closing a process while keeping its work directory keeps it, even at once after the start; close() removes it")
    void closingKeepingTheWorkDirKeepsItEvenAtOnceAfterTheStart(@TempDir Path dir) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        for (int round = 0; round < ROUNDS; round++) {
            Supervised process = Supervised.start("sleeper", List.of("sleep", "86400"), dir.resolve("sleeper.log").toFile(), work);
            long pid = process.pid();
            process.closeKeepingWorkDir();
            assertThat(ProcessLiveness.running(pid))
                    .as("round %d: the process %d is gone after closeKeepingWorkDir()", round, pid).isFalse();
            // The watchdog acts on its own after the close returns, if at all: give it the time a stray rm would take.
            Thread.sleep(100);
            assertThat(work).as("round %d: closeKeepingWorkDir() keeps the work directory", round).isDirectory();
        }
        Supervised last = Supervised.start("sleeper", List.of("sleep", "86400"), dir.resolve("sleeper.log").toFile(), work);
        last.close();
        assertThat(work).as("the wrong case: close() removes the work directory").doesNotExist();
    }

    @Test
    @DisplayName("A process that ends by itself reports its exit code, and its work directory stays until close()")
    void aProcessThatEndsByItselfKeepsItsWorkDirUntilClosed(@TempDir Path dir) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        try (Supervised process = Supervised.start("exit 3", List.of("sh", "-c", "exit 3"), dir.resolve("exit.log").toFile(), work)) {
            assertThat(process.awaitExit(Duration.ofSeconds(30))).as("sh -c 'exit 3' ends by itself").isTrue();
            assertThat(process.exitValue()).as("the watchdog passes on the command's exit code").isEqualTo(3);
            Thread.sleep(100);
            assertThat(work).as("a process that ended by itself keeps its work directory for its log").isDirectory();
        }
        assertThat(work).as("close() removes it").doesNotExist();
    }

    @Test
    @DisplayName("A zombie, an exited child its parent does not reap, counts as dead, though the JDK calls it alive; its live parent runs")
    void aZombieCountsAsDeadAndItsLiveParentAsRunning(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc")), "Skipped: process states come from /proc, which only Linux has");
        Path pidFile = dir.resolve("zombie.pid");
        try (Supervised sleeper = zombieParent(pidFile)) {
            long zombie = zombieOf(sleeper, pidFile);

            assertThat(ProcessHandle.of(zombie).map(ProcessHandle::isAlive)).as("the wrong check: the JDK calls the zombie %d alive", zombie)
                    .contains(true);
            assertThat(ProcessLiveness.running(zombie)).as("the zombie %d (state %s) runs", zombie, ProcessLiveness.state(zombie)).isFalse();
            assertThat(ProcessLiveness.running(sleeper.pid())).as("its parent %d, alive and not reaping it, runs", sleeper.pid()).isTrue();
        }
        assertThat(ProcessLiveness.running(9_999_999)).as("no process at all runs").isFalse();
    }

    @Test
    @DisplayName("Closing a process whose orphaned child stays a zombie, under a first process that reaps no orphans, ends at once")
    void closingAProcessWhoseOrphanStaysAZombieEnds(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc")), "Skipped: process states come from /proc, which only Linux has");
        Optional<Path> python = Stream.of(System.getenv("PATH").split(File.pathSeparator)).map(d -> Path.of(d, "python3"))
                .filter(Files::isExecutable).findFirst();
        assumeTrue(python.isPresent(), "Skipped: the first process that reaps no orphans is a python3 script, and no python3 is on PATH");
        try (Channel.Listener listener = Channel.listen();
             Supervised probe = ChildJvm.of(ChannelProbe.class).args("zombie-family").channel(listener)
                     .prefix(List.of(python.get().toString(), "-c", NON_REAPING_FIRST_PROCESS)).log(dir.resolve("probe.log")).start("probe");
             Channel channel = listener.accept(probe, Duration.ofSeconds(30))) {
            long zombie = ((ProbeMessage.Started) channel.receive(ProbeMessage.class, ZOMBIE_WAIT.plusSeconds(30))).pid();
            assertThat(ProcessHandle.of(zombie).map(ProcessHandle::isAlive)).as("the wrong check: the JDK calls the zombie %d alive", zombie)
                    .contains(true);

            channel.send(new ProbeMessage.Say("close"));
            String outcome = ((ProbeMessage.Echo) channel.receive(ProbeMessage.class, Duration.ofSeconds(60))).text();

            assertThat(outcome).as("the probe's close() of a process whose family holds a zombie nobody reaps; its log:%n%s",
                    Files.readString(dir.resolve("probe.log"))).isEqualTo("closed; the orphaned zombie's state is Z");
        }
    }

    /**
     * The first process of a container that reaps no orphans, as a python3 script: it becomes the subreaper of everything
     * below it, runs its arguments, and waits for that one child only, reaping the others at its end.
     */
    private static final String NON_REAPING_FIRST_PROCESS = String.join("\n",
            "import ctypes, os, sys",
            "if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:",  // PR_SET_CHILD_SUBREAPER
            "    sys.exit('prctl(PR_SET_CHILD_SUBREAPER) failed: errno %d' % ctypes.get_errno())",
            "child = os.fork()",
            "if child == 0:",
            "    os.execvp(sys.argv[1], sys.argv[1:])",
            "status = os.waitpid(child, 0)[1]",
            "while True:",
            "    try:",
            "        os.waitpid(-1, 0)",
            "    except ChildProcessError:",
            "        break",
            "sys.exit(os.waitstatus_to_exitcode(status))",
            "");

    /**
     * Starts a supervised {@code sleep} with a child that exits once the shell has become that {@code sleep}, which reaps
     * nothing and leaves a zombie; the zombie's pid goes to {@code pidFile}, not to the output, where the watchdog's own
     * line could come after it.
     */
    static Supervised zombieParent(Path pidFile) throws IOException {
        return Supervised.start("sleep with a zombie child", new ProcessBuilder("sh", "-c",
                // echo is the shell's own: a program run here would be waited for, and the wait would reap the zombie. The
                // child exits only once the shell has become sleep ($$ is the shell's pid in the child too): a child that
                // ended first could be reaped by the shell before its exec, on a busy machine.
                "(until [ \"$(cat /proc/$$/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done) & echo $! > \"$1\"; exec sleep 86400",
                "zombie-parent", pidFile.toString()));
    }

    /** Reads the pid of the zombie child of {@link #zombieParent(Path)} from {@code pidFile} and waits until it is one. */
    static long zombieOf(Supervised sleeper, Path pidFile) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + ZOMBIE_WAIT.toNanos();
        while (!Files.exists(pidFile) || !Files.readString(pidFile).endsWith("\n")) {
            if (System.nanoTime() > deadline || !sleeper.isAlive()) {
                throw new IllegalStateException(sleeper + " wrote no zombie's pid to " + pidFile + " within " + ZOMBIE_WAIT.toSeconds() + " s");
            }
            Thread.sleep(10);
        }
        long zombie = Long.parseLong(Files.readString(pidFile).strip());
        while (ProcessLiveness.state(zombie) != 'Z') {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the child " + zombie + " of " + sleeper + " did not become a zombie within " + ZOMBIE_WAIT.toSeconds() + " s; its state: "
                        + ProcessLiveness.state(zombie) + "; " + procOf(zombie, "cmdline"));
            }
            Thread.sleep(10);
        }
        return zombie;
    }

    private static String procOf(long pid, String file) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), file))).replace('\0', ' ');
        } catch (IOException e) {
            return "(no " + file + ")";
        }
    }

    /** Reads the pid of the zombie child of {@link #zombieParent()} and waits until it is one. */
    static long zombieOf(Supervised sleeper) throws IOException, InterruptedException {
        StringBuilder line = new StringBuilder();
        for (int c = sleeper.output().read(); c >= 0 && c != '\n'; c = sleeper.output().read()) {
            line.append((char) c);
        }
        long zombie = Long.parseLong(line.toString().strip());
        long deadline = System.nanoTime() + ZOMBIE_WAIT.toNanos();
        while (ProcessLiveness.state(zombie) != 'Z') {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the child " + zombie + " of " + sleeper + " did not become a zombie within " + ZOMBIE_WAIT.toSeconds() + " s; its state: "
                        + ProcessLiveness.state(zombie) + "; " + procOf(zombie, "cmdline") + "; wchan " + procOf(zombie, "wchan"));
            }
            Thread.sleep(10);
        }
        return zombie;
    }
}
