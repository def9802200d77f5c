package fencing.browser;

import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import fencing.support.FileTrees;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.PrintsPage;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.print.PrintOptions;

/**
 * A real headless Chromium, driven through WebDriver by Debian's {@code chromedriver}, started on first use and quit after
 * the test class, or when the JVM stops: register it with {@code @RegisterExtension static final Browser browser = new
 * Browser("FOLDER")}, where {@code FOLDER} (under the module's {@code target/}) keeps its screenshots and printed pages.
 *
 * <p>Where Chromium or its driver is missing, a test that asks for the browser is skipped with the reason, unless
 * {@code KIT_REQUIRE_BROWSER=true} (as CI sets it), where that is a failure.
 */
public final class Browser implements AfterAllCallback {

    /** The environment variable that makes a missing browser a failure rather than a skip. */
    private static final String REQUIRE = "KIT_REQUIRE_BROWSER";
    /** The width the kit's pages are made to be read at. */
    public static final int WIDTH = 1280;
    private static final int HEIGHT = 1000;
    /** The impacts of axe-core's violations that a page of the kit must not have. */
    private static final Set<String> SERIOUS = Set.of("serious", "critical");
    /** How many elements at fault a violation names: one rule broken on every line of a page would otherwise bury the rest. */
    private static final int SHOWN = 3;
    private static final List<String> FLAGS = List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=" + WIDTH + "," + HEIGHT);

    private final String artifacts;
    private WebDriver driver;
    private Path profile;
    private Thread onExit;

    /** A browser whose screenshots and printed pages go to {@code target/ARTIFACTS/} of the module under test. */
    public Browser(String artifacts) {
        this.artifacts = artifacts;
    }

    /** Returns the browser, starting it on first use; skips (or, where required, fails) the test where it cannot run here. */
    public synchronized WebDriver driver() {
        if (driver != null) {
            return driver;
        }
        Optional<Path> chromium = installed("chromium", "/usr/bin/chromium");
        Optional<Path> chromedriver = installed("chromedriver", "/usr/bin/chromedriver");
        if (chromium.isEmpty() || chromedriver.isEmpty()) {
            String why = "no " + (chromium.isEmpty() ? "chromium" : "chromedriver") + " on this machine (looked in /usr/bin and on PATH),"
                    + " so the kit's pages cannot be checked in a browser: install Debian's chromium and chromium-driver";
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
        // Before Chromium starts, so that a JVM that stops while it starts still deletes its profile.
        if (onExit == null) {
            onExit = new Thread(this::quit, "quit-chromium");
            Runtime.getRuntime().addShutdownHook(onExit);
        }
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            try {
                quit(); // deletes the profile now: a second try would make another and leave this one behind
            } catch (RuntimeException notDeleted) {
                e.addSuppressed(notDeleted);
            }
            throw e;
        }
        // Bounds for a page that never answers, not for a slow one: chromedriver's wait for the renderer (a screenshot, a
        // print, a script) is the script timeout, and a machine busy with the kit's grades can starve a renderer for 10 s.
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(60));
        return driver;
    }

    /** Opens {@code page}, a file of this machine, at the reading width, and returns the browser. */
    public WebDriver open(Path page) {
        WebDriver browser = driver();
        browser.manage().window().setSize(new Dimension(WIDTH, HEIGHT));
        browser.get(page.toUri().toString());
        return browser;
    }

    /** Runs {@code script} in the page and returns what it returns. */
    public Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver()).executeScript(script, arguments);
    }

    /**
     * Runs Deque's axe-core in the page as it stands now (what its script has shown included) and returns its violations
     * of impact serious or critical, each as its rule, its help, how many elements are at fault and the first of them:
     * the kit's one accessibility check, which every test of a page asks for.
     */
    public List<String> seriousViolations() {
        List<String> serious = new ArrayList<>();
        for (Rule rule : new AxeBuilder().analyze(driver()).getViolations()) {
            if (SERIOUS.contains(rule.getImpact())) {
                int nodes = rule.getNodes().size();
                serious.add(rule.getId() + " (" + rule.getImpact() + "): " + rule.getHelp() + ", at " + nodes + " elements, first "
                        + rule.getNodes().stream().limit(SHOWN).map(node -> node.getTarget() + " " + node.getFailureSummary()).toList());
            }
        }
        return serious;
    }

    /** Keeps a screenshot of the whole page, at the reading width, as {@code NAME.png} in the artifacts folder: a build artifact to look at. */
    public Path screenshot(String name) {
        WebDriver browser = driver();
        // Chromium shoots only what its window shows: for the shot the window is as tall as the page plus the window's
        // own bars, measured (a few pixels short, it would scroll, and its scroll bar narrow the page); the cap keeps a
        // runaway page from asking for an image no one can open.
        List<?> heights = (List<?>) script(
                "return [Math.ceil(document.documentElement.scrollHeight), window.outerHeight - window.innerHeight]");
        long height = ((Number) heights.get(0)).longValue() + ((Number) heights.get(1)).longValue();
        browser.manage().window().setSize(new Dimension(WIDTH, (int) Math.min(height, 30_000)));
        try {
            return Files.write(artifact(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the screenshot " + name, e);
        } finally {
            browser.manage().window().setSize(new Dimension(WIDTH, HEIGHT));
        }
    }

    /** Prints the page with Chromium's own print, as a person would to read it on paper, as {@code NAME.pdf} in the artifacts folder. */
    public Path print(String name) {
        byte[] pdf = Base64.getDecoder().decode(((PrintsPage) driver()).print(new PrintOptions()).getContent());
        try {
            return Files.write(artifact(name + ".pdf"), pdf);
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the printed page " + name, e);
        }
    }

    private Path artifact(String file) throws IOException {
        return Files.createDirectories(Path.of(System.getProperty("basedir", "."), "target", artifacts)).resolve(file);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            quit();
        } finally {
            synchronized (this) {
                if (onExit != null) {
                    Runtime.getRuntime().removeShutdownHook(onExit);
                    onExit = null;
                }
            }
        }
    }

    private synchronized void quit() {
        try {
            if (driver != null) {
                driver.quit();
            }
        } finally {
            driver = null;
            if (profile != null) {
                FileTrees.delete(profile);
                profile = null;
            }
        }
    }

    private static Optional<Path> installed(String name, String debian) {
        if (Files.isExecutable(Path.of(debian))) {
            return Optional.of(Path.of(debian));
        }
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)).map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable).findFirst();
    }
}
