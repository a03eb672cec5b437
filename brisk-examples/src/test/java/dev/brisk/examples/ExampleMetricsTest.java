package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.ConfigSource;
import dev.brisk.micrometer.MetricsServer;
import dev.brisk.testing.BriskTestServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ExampleMetricsTest {
    private static ConfigSource env(String value) {
        return ConfigSource.of(Map.of("BRISK_METRICS_PORT", value), new Properties(), new Properties());
    }

    @Test
    void metricsPortServesTheAppsCountersAndTheAppPortDoesNot() throws Exception {
        try (BriskTestServer app = BriskTestServer.start(ExampleApp::routes);
                MetricsServer metrics = ExampleMetrics.start(app.app(), 0)) {
            assertThat(metrics.port()).isNotEqualTo(app.port());
            assertThat(metrics.url()).isEqualTo("http://127.0.0.1:" + metrics.port() + "/metrics");
            assertThat(app.get("/hello").statusCode()).isEqualTo(200);

            HttpResponse<String> scrape = app.send(HttpRequest.newBuilder(URI.create(metrics.url())).build());
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.headers().firstValue("Content-Type")).hasValue(MetricsServer.PROMETHEUS_TEXT);
            assertThat(scrape.body())
                    .contains("# TYPE brisk_requests_total counter\n")
                    .contains("brisk_requests_total{status_class=\"2xx\"} 1.0\n")
                    .contains("brisk_saturation_ratio 0.0\n")
                    .contains("brisk_needs_scaleout 0.0\n");

            assertThat(app.get("/metrics").statusCode()).as("the app's own port has no /metrics").isEqualTo(404);
            // the scrape went to the metrics server: the app counted only /hello and that 404
            String again = app.send(HttpRequest.newBuilder(URI.create(metrics.url())).build()).body();
            assertThat(again).contains("brisk_requests_total{status_class=\"2xx\"} 1.0\n")
                    .contains("brisk_requests_total{status_class=\"4xx\"} 1.0\n");
        }
    }

    @Test
    void portIsReadFromTheMetricsPortOption() {
        assertThat(ExampleMetrics.port(ConfigSource.empty())).as("unset").isEmpty();
        assertThat(ExampleMetrics.port(env("off"))).isEmpty();
        assertThat(ExampleMetrics.port(env("OFF"))).isEmpty();
        assertThat(ExampleMetrics.port(env(""))).isEmpty();
        assertThat(ExampleMetrics.port(env("9091"))).isEqualTo(OptionalInt.of(9091));
        assertThat(ExampleMetrics.port(env("0"))).isEqualTo(OptionalInt.of(0));
        Properties sys = new Properties();
        sys.setProperty("brisk.metrics-port", "9092");
        assertThat(ExampleMetrics.port(ConfigSource.of(Map.of("BRISK_METRICS_PORT", "9091"), sys, new Properties())))
                .as("a system property beats the environment").isEqualTo(OptionalInt.of(9092));
    }

    @Test
    void aBadPortIsRefusedWithTheOptionsName() {
        assertThatThrownBy(() -> ExampleMetrics.port(env("nine"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics-port").hasMessageContaining("BRISK_METRICS_PORT");
        assertThatThrownBy(() -> ExampleMetrics.port(env("70000"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics-port").hasMessageContaining("70000");
    }
}
