package fencing.grader.sandbox;

/** A child JVM's main class for {@link ClassDataArchiveTests}: loads library classes a graded JVM loads, and says whether it maps an archive. */
final class ArchiveProbe {

    private ArchiveProbe() {
    }

    /**
     * Builds a jetcd client (which starts Vert.x and Netty, thousands of classes, without connecting) and loads JUnit's
     * launcher, then prints {@code java.vm.info}, which says "sharing" when a class data archive is mapped.
     */
    public static void main(String[] args) throws ClassNotFoundException {
        try (io.etcd.jetcd.Client client = io.etcd.jetcd.Client.builder().endpoints("http://127.0.0.1:9").build()) {
            Class.forName("org.junit.platform.launcher.core.LauncherFactory");
        }
        System.out.println("vm: " + System.getProperty("java.vm.info"));
    }
}
