package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.testing.BriskTestServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The example's {@code /chat} page in a real browser: two headless Chromium sessions open it; a message
 * typed in one arrives in the other through the WebSocket chat room, the Server-Sent Events counter
 * advances, the echo comes back. Screenshots of both pages go to {@code target/browser/}.
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver} ({@code .ci/run} installs them; or set
 * {@code BRISK_CHROMIUM} and {@code BRISK_CHROMEDRIVER}): nothing is downloaded. Without them the test is
 * skipped with that reason, unless {@code BRISK_REQUIRE_CHROMIUM=1} (CI sets it once it installed them).
 */
class ChatPageBrowserTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Held: without the DevTools bindings Selenium warns it has no CDP for this Chromium, which WebDriver never needs. */
    private static final java.util.logging.Logger CDP = java.util.logging.Logger.getLogger("org.openqa.selenium.devtools");

    static {
        CDP.setLevel(java.util.logging.Level.SEVERE);
    }

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
    void aMessageFromOneBrowserArrivesInTheOtherAndTheCounterTicks() throws Exception {
        Path chromium = find("BRISK_CHROMIUM", "/usr/bin/chromium", "/usr/bin/chromium-browser");
        Path driverBinary = find("BRISK_CHROMEDRIVER", "/usr/bin/chromedriver");
        boolean have = chromium != null && driverBinary != null;
        if (!have && "1".equals(System.getenv("BRISK_REQUIRE_CHROMIUM"))) {
            throw new AssertionError("Chromium is required (BRISK_REQUIRE_CHROMIUM=1) but chromium or chromedriver is missing");
        }
        assumeTrue(have, "Chromium is not installed (Debian packages chromium and chromium-driver)");
        Path out = Path.of("target", "browser");
        Files.createDirectories(out);

        try (BriskTestServer server = BriskTestServer.start(ExampleApp::routes)) {
            String page = "http://127.0.0.1:" + server.port() + "/chat";
            WebDriver a = browser(chromium, driverBinary);
            try {
                WebDriver b = browser(chromium, driverBinary);
                try {
                    a.get(page);
                    b.get(page);
                    String nameA = connected(a);
                    String nameB = connected(b);
                    assertThat(nameA).isNotEqualTo(nameB);
                    waitFor(a, d -> text(d, "count").equals("2"), "both browsers in the room");

                    WebElement input = a.findElement(By.id("text"));
                    input.sendKeys("hello from " + nameA + " <b>not bold</b>");
                    a.findElement(By.id("go")).click();
                    waitFor(b, d -> logHas(d, nameA, "hello from " + nameA + " <b>not bold</b>"),
                            "the message from the first browser in the second");
                    waitFor(a, d -> logHas(d, nameA, "hello from " + nameA + " <b>not bold</b>"),
                            "the sender sees its own message");
                    assertThat(b.findElements(By.cssSelector("#log b"))).as("text is shown as text, not HTML").isEmpty();

                    waitFor(a, d -> number(d, "ticks") >= 1, "a first tick");
                    long first = number(a, "ticks");
                    waitFor(a, d -> number(d, "ticks") > first, "the counter advancing");
                    assertThat(text(a, "sse-status")).isEqualTo("connected");

                    waitFor(a, d -> !text(d, "echo-got").isEmpty(), "the echo");
                    assertThat(text(a, "echo-got")).isEqualTo(text(a, "echo-sent"));

                    screenshot(a, out.resolve("chat-first.png"));
                    screenshot(b, out.resolve("chat-second.png"));
                } finally {
                    b.quit();
                }
            } finally {
                a.quit();
            }
        }
        assertThat(out.resolve("chat-first.png")).exists();
    }

    private static WebDriver browser(Path chromium, Path driverBinary) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(chromium.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1000,900", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driverBinary.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, o);
    }

    /** Waits until the page's chat WebSocket is open and the room named this browser; its name. */
    private static String connected(WebDriver d) {
        waitFor(d, x -> text(x, "status").equals("connected") && !text(x, "me").equals("?"), "the chat connection");
        return text(d, "me");
    }

    private static boolean logHas(WebDriver d, String from, String message) {
        List<WebElement> lines = d.findElements(By.cssSelector("#log li"));
        for (WebElement li : lines) {
            List<WebElement> who = li.findElements(By.className("from"));
            if (!who.isEmpty() && who.get(0).getText().equals(from) && li.getText().endsWith(message)) {
                return true;
            }
        }
        return false;
    }

    private static String text(WebDriver d, String id) {
        return d.findElement(By.id(id)).getText();
    }

    private static long number(WebDriver d, String id) {
        String t = text(d, id);
        return t.isEmpty() ? 0 : Long.parseLong(t);
    }

    private static void waitFor(WebDriver d, java.util.function.Function<WebDriver, Boolean> condition, String what) {
        new WebDriverWait(d, WAIT).withMessage(what).until(condition::apply);
    }

    private static void screenshot(WebDriver d, Path to) throws Exception {
        File f = ((TakesScreenshot) d).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), to, StandardCopyOption.REPLACE_EXISTING);
    }
}
