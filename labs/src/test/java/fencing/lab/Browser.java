package fencing.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium, driven through WebDriver by Debian's {@code chromedriver}, started on first use and quit after
 * the test class (or when the JVM stops): register it with {@code @RegisterExtension}.
 *
 * <p>Where Chromium or its driver is missing, a test that asks for the browser is skipped with the reason, unless
 * {@code KIT_REQUIRE_BROWSER=true} (as CI sets it), where that is a failure.
 */
final class Browser implements AfterAllCallback {

    /** The environment variable that makes a missing browser a failure rather than a skip. */
    static final String REQUIRE = "KIT_REQUIRE_BROWSER";
    private static final List<String> FLAGS = List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1280,2000");

    private WebDriver driver;
    private Path profile;
    private Thread onExit;

    /** Returns the browser, starting it on first use; skips (or, where required, fails) the test where it cannot run here. */
    WebDriver driver() {
        if (driver != null) {
            return driver;
        }
        Optional<Path> chromium = installed("chromium", "/usr/bin/chromium");
        Optional<Path> chromedriver = installed("chromedriver", "/usr/bin/chromedriver");
        if (chromium.isEmpty() || chromedriver.isEmpty()) {
            String why = "no " + (chromium.isEmpty() ? "chromium" : "chromedriver") + " on this machine (looked in /usr/bin and on PATH), so"
                    + " the report pages cannot be checked in a browser: install Debian's chromium and chromium-driver";
            if ("true".equals(System.getenv(REQUIRE))) {
                throw new AssertionError(REQUIRE + "=true, but " + why);
            }
            Assumptions.abort(why);
        }
        try {
            profile = Files.createTempDirectory("fencing-chromium-profile");
        } catch (IOException e) {
            throw new UncheckedIOException("could not make Chromium's profile directory", e);
        }
        // Given the driver and the browser, Selenium has nothing to look up: no Selenium Manager, no network.
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.get().toFile())
                .usingAnyFreePort().withTimeout(Duration.ofSeconds(30)).build();
        ChromeOptions options = new ChromeOptions().setBinary(chromium.get().toFile());
        options.addArguments(FLAGS);
        options.addArguments("--user-data-dir=" + profile);
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(10));
        onExit = new Thread(this::quit, "quit-chromium");
        Runtime.getRuntime().addShutdownHook(onExit);
        return driver;
    }

    /** Opens {@code page}, a file of this machine, and returns the browser. */
    WebDriver open(Path page) {
        WebDriver browser = driver();
        browser.get(page.toUri().toString());
        return browser;
    }

    /** Keeps a screenshot of what the browser shows as {@code target/screenshots/NAME.png} of the module, and returns its path. */
    Path screenshot(String name) {
        Path dir = Path.of(System.getProperty("basedir", "."), "target", "screenshots");
        try {
            Files.createDirectories(dir);
            Path shot = ((TakesScreenshot) driver()).getScreenshotAs(OutputType.FILE).toPath();
            return Files.copy(shot, dir.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the screenshot " + name, e);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (onExit != null) {
            Runtime.getRuntime().removeShutdownHook(onExit);
        }
        quit();
    }

    private synchronized void quit() {
        try {
            if (driver != null) {
                driver.quit();
            }
        } finally {
            driver = null;
            if (profile != null) {
                fencing.support.FileTrees.delete(profile);
                profile = null;
            }
        }
    }

    private static Optional<Path> installed(String name, String debian) {
        if (Files.isExecutable(Path.of(debian))) {
            return Optional.of(Path.of(debian));
        }
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)).map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable).findFirst();
    }
}
