package dev.brisk.events.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.events.EventsService;
import dev.brisk.events.TestServices;
import dev.brisk.events.sim.ProviderSimulator;
import dev.brisk.events.sim.SimulatorOptions;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The service's {@code /dashboard} in a real headless Chromium, against the simulator: the figures
 * appear (events stored as the service holds them, polls, provider latency, requests per second, the
 * charts drawn), then change as the simulator's feed does: a new generation raises the events stored
 * and the change number, a slower provider shows in the latency, a provider down in failed polls and
 * the back-off. A screenshot goes to {@code target/browser/dashboard.png}.
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver} (or {@code BRISK_CHROMIUM} and
 * {@code BRISK_CHROMEDRIVER}); nothing is downloaded. Without them the test is skipped with that
 * reason, unless {@code BRISK_REQUIRE_CHROMIUM=1}.
 */
class DashboardBrowserTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Held: without the DevTools bindings Selenium warns it has no CDP for this Chromium, which WebDriver never needs. */
    private static final java.util.logging.Logger CDP = java.util.logging.Logger.getLogger("org.openqa.selenium.devtools");

    static {
        CDP.setLevel(java.util.logging.Level.SEVERE);
    }

    @TempDir
    Path dir;

    private static Path find(String env, String... candidates) {
        String set = System.getenv(env);
        if (set != null && !set.isBlank()) {
            return Files.isExecutable(Path.of(set)) ? Path.of(set) : null;
        }
        for (String c : candidates) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    @Test
    void theFiguresAppearAndFollowTheProvidersFeed() throws Exception {
        Path chromium = find("BRISK_CHROMIUM", "/usr/bin/chromium", "/usr/bin/chromium-browser");
        Path driverBinary = find("BRISK_CHROMEDRIVER", "/usr/bin/chromedriver");
        boolean have = chromium != null && driverBinary != null;
        if (!have && "1".equals(System.getenv("BRISK_REQUIRE_CHROMIUM"))) {
            throw new AssertionError("Chromium is required (BRISK_REQUIRE_CHROMIUM=1) but chromium or chromedriver is missing");
        }
        assumeTrue(have, "Chromium is not installed (Debian packages chromium and chromium-driver)");
        Path out = Path.of("target", "browser");
        Files.createDirectories(out);

        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.builder().events(300).zones(3)
                .failureRate(0).malformedRate(0).badRecordRate(0).latency(Duration.ZERO).latencyJitter(Duration.ZERO).build());
             EventsService service = TestServices.start(TestServices.config(URI.create(sim.feedUrl()), dir, Duration.ofMillis(300))
                     .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(600)))) {
            WebDriver d = browser(chromium, driverBinary);
            try {
                d.get("http://127.0.0.1:" + service.port() + "/dashboard");
                waitFor(d, x -> text(x, "status").equals("live"), "the page receiving its data");
                assertThat(d.findElement(By.tagName("body")).getDomAttribute("data-feed"))
                        .as("figures pushed by Server-Sent Events").isEqualTo("sse");
                int first = service.catalog().current().size();
                assertThat(first).isPositive();
                waitFor(d, x -> number(x, "events") == service.catalog().current().size(), "events stored as the service holds them");
                assertThat(number(d, "polls-ok")).isPositive();
                assertThat(text(d, "role")).isEqualTo("single");
                assertThat(text(d, "backoff")).isEqualTo("no");
                // the page's own feed is one long stream: some searches for the engine's counters to show
                java.util.concurrent.atomic.AtomicBoolean searching = new java.util.concurrent.atomic.AtomicBoolean(true);
                Thread load = Thread.ofVirtual().start(() -> {
                    try (java.net.http.HttpClient c = java.net.http.HttpClient.newHttpClient()) {
                        for (int i = 0; i < 3_000 && searching.get(); i++) {
                            c.send(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                                    + "/search?limit=10")).build(), java.net.http.HttpResponse.BodyHandlers.discarding());
                            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
                        }
                    } catch (Exception e) {
                        // the wait below reports what did not show
                    }
                });
                try {
                    waitFor(d, x -> !text(x, "rps").equals("-") && !text(x, "p99").equals("-"),
                            "requests per second and p99 from the engine's counters");
                } finally {
                    searching.set(false);
                    load.join(5_000);
                }
                waitFor(d, x -> Integer.parseInt(x.findElement(By.id("chart-events")).getDomAttribute("data-points")) >= 3,
                        "the events chart drawn");
                long sequence = number(d, "sequence");

                sim.advance(); // new events arrive, some leave (stored all the same), some change
                waitFor(d, x -> number(x, "events") > first && number(x, "events") == service.catalog().current().size(),
                        "more events stored after the feed changed");
                waitFor(d, x -> number(x, "sequence") > sequence, "the change number advanced");

                sim.latency(Duration.ofMillis(250));
                waitFor(d, x -> text(x, "provider").endsWith(" ms") && millis(text(x, "provider")) >= 250,
                        "the provider's new latency shown");
                sim.down(true);
                waitFor(d, x -> number(x, "polls-failed") > 0 && text(x, "backoff").startsWith("yes"),
                        "failed polls and the back-off shown");
                assertThat(d.findElement(By.id("polls-failed")).getDomAttribute("class")).contains("bad");
                screenshot(d, out.resolve("dashboard.png"));
                sim.down(false);
                waitFor(d, x -> text(x, "backoff").equals("no"), "back to normal once the provider answers");
            } finally {
                d.quit();
            }
        }
        assertThat(out.resolve("dashboard.png")).exists().isNotEmptyFile();
    }

    private static WebDriver browser(Path chromium, Path driverBinary) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(chromium.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1100,900", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driverBinary.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, o);
    }

    private static String text(WebDriver d, String id) {
        return d.findElement(By.id(id)).getText();
    }

    /** A figure like "1,234" as a number; -1 for "-". */
    private static long number(WebDriver d, String id) {
        String t = text(d, id).replace(",", "");
        return t.isEmpty() || t.equals("-") ? -1 : Long.parseLong(t);
    }

    private static double millis(String shown) {
        return Double.parseDouble(shown.replace(" ms", "").replace(",", "").toLowerCase(Locale.ROOT));
    }

    private static void waitFor(WebDriver d, java.util.function.Function<WebDriver, Boolean> condition, String what) {
        new WebDriverWait(d, WAIT).withMessage(what).until(condition::apply);
    }

    private static void screenshot(WebDriver d, Path to) throws java.io.IOException {
        Path shot = ((TakesScreenshot) d).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, to, StandardCopyOption.REPLACE_EXISTING);
    }
}
