package fencing.basics;

/** A correct lock service that leaves a thread running forever. */
public final class LockService {

    private long last;

    public LockService() {
        Thread forever = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException ignored) {
                    // Keeps running whatever happens.
                }
            }
        }, "left running");
        forever.setDaemon(false);
        forever.start();
    }

    public synchronized long acquire(String client) {
        last = last + 1;
        return last;
    }
}
