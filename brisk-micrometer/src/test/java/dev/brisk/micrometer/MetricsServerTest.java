package dev.brisk.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class MetricsServerTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @AfterAll
    static void closeClient() {
        CLIENT.close();
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesTheScrapeFunctionOnMetricsOnly() throws Exception {
        AtomicInteger scrapes = new AtomicInteger();
        try (MetricsServer m = MetricsServer.start("127.0.0.1", 0,
                () -> "up " + scrapes.incrementAndGet() + "\n", MetricsServer.PROMETHEUS_TEXT)) {
            assertThat(m.port()).isPositive();
            assertThat(m.url()).isEqualTo("http://127.0.0.1:" + m.port() + "/metrics");
            HttpResponse<String> r = get(m.url());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue(MetricsServer.PROMETHEUS_TEXT);
            assertThat(r.body()).isEqualTo("up 1\n");
            assertThat(get(m.url()).body()).as("scraped per request").isEqualTo("up 2\n");
            assertThat(get("http://127.0.0.1:" + m.port() + "/").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void scrapesOffTheVirtualThreadScheduler() throws Exception {
        // the app's handlers share the virtual-thread scheduler: an overloaded app would delay a scrape
        // that ran there by as long as its queue (seen at 1000 requests in flight: no scrape answered)
        AtomicBoolean virtual = new AtomicBoolean(true);
        try (MetricsServer m = MetricsServer.start("127.0.0.1", 0, () -> {
            virtual.set(Thread.currentThread().isVirtual());
            return "";
        }, MetricsServer.PROMETHEUS_TEXT)) {
            assertThat(get(m.url()).statusCode()).isEqualTo(200);
            assertThat(virtual).as("scraped on a virtual thread").isFalse();
        }
    }

    @Test
    void outsideConfigurationDoesNotMoveIt() throws Exception {
        // brisk.port names the app's port: were it read here, the metrics server would try that busy port
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String old = System.setProperty("brisk.port", Integer.toString(busy.getLocalPort()));
            try (MetricsServer m = MetricsServer.start("127.0.0.1", 0, () -> "", MetricsServer.PROMETHEUS_TEXT)) {
                assertThat(m.port()).isNotEqualTo(busy.getLocalPort());
                assertThat(get(m.url()).statusCode()).isEqualTo(200);
            } finally {
                if (old == null) {
                    System.clearProperty("brisk.port");
                } else {
                    System.setProperty("brisk.port", old);
                }
            }
        }
    }

    @Test
    void urlNamesLocalhostWhenListeningEverywhere() {
        try (MetricsServer m = MetricsServer.start("0.0.0.0", 0, () -> "", MetricsServer.PROMETHEUS_TEXT)) {
            assertThat(m.host()).isEqualTo("0.0.0.0");
            assertThat(m.url()).isEqualTo("http://localhost:" + m.port() + "/metrics");
        }
    }
}
