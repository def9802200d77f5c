package fencing.lab.run;

import fencing.support.ProcessLiveness;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Sends POSIX signals with {@code kill}, since the JDK has no API for SIGSTOP and SIGCONT. */
final class Signals {

    private Signals() {
    }

    /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}, {@code KILL}) to {@code pid}; fails if kill does. */
    static void send(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish within 5 s");
            }
            String said = new String(kill.getInputStream().readAllBytes()).trim();
            if (kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed (exit " + kill.exitValue() + "): " + said);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + signal + " to " + pid, e);
        }
    }

    /** Sends {@code signal} to {@code pid} if the process still exists; returns whether it did. */
    static boolean sendIfAlive(String signal, long pid) {
        if (ProcessLiveness.running(pid)) {
            send(signal, pid);
            return true;
        }
        return false;
    }
}
