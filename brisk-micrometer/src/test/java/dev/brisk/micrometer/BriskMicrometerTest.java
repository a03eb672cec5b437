package dev.brisk.micrometer;

import static dev.brisk.micrometer.PrometheusText.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.brisk.Brisk;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link BriskMeterBinder} on a real app with a limit of one request, scraped by the Prometheus registry. */
class BriskMicrometerTest {
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch gate = new CountDownLatch(1);
    private final FakeClock clock = new FakeClock();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private BriskTestServer server;

    @BeforeEach
    void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(0).maxConnections(50);
            cfg.get("/hi", ctx -> ctx.text("hi"));
            cfg.get("/slow", ctx -> {
                entered.countDown();
                // holds the only slot until the test opens the gate
                if (!gate.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("gate never opened");
                }
                ctx.text("slow");
            });
        });
    }

    @AfterEach
    void stop() {
        gate.countDown();
        server.close();
        registry.close();
    }

    private void bind() {
        Brisk app = server.app();
        // a fake clock keeps the rejection rate exact however slow the machine is
        ScalingSignals signals = new ScalingSignals(app.metrics(), app.options().maxConnections(),
                Duration.ofSeconds(10), clock);
        new BriskMeterBinder(app.metrics(), signals, Tags.empty()).bindTo(registry);
    }

    @Test
    void scrapeShowsResponsesRefusalsAndScalingSignals() throws Exception {
        bind();
        String before = registry.scrape();
        assertThat(value(before, "brisk_requests_total{status_class=\"2xx\"}")).isZero();
        assertThat(value(before, "brisk_concurrency_limit")).isEqualTo(1.0);
        assertThat(value(before, "brisk_saturation_ratio")).isZero();
        assertThat(value(before, "brisk_needs_scaleout")).isZero();
        assertThat(value(before, "brisk_rejection_rate")).isZero();

        for (int i = 0; i < 3; i++) {
            assertThat(server.get("/hi").statusCode()).isEqualTo(200);
        }
        assertThat(server.get("/nope").statusCode()).isEqualTo(404);

        CompletableFuture<HttpResponse<String>> slow =
                server.client().sendAsync(server.request("/slow").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("slow handler running").isTrue();
        String full = registry.scrape();
        assertThat(value(full, "brisk_requests_in_flight")).isEqualTo(1.0);
        assertThat(value(full, "brisk_saturation_ratio")).isEqualTo(1.0);
        assertThat(value(full, "brisk_needs_scaleout")).as("nothing refused yet").isZero();
        assertThat(value(full, "brisk_connections_active")).isGreaterThanOrEqualTo(1.0);
        assertThat(value(full, "brisk_connection_headroom"))
                .isEqualTo(50 - value(full, "brisk_connections_active"));

        HttpResponse<String> refused = server.get("/hi");
        assertThat(refused.statusCode()).isEqualTo(503);
        String shed = registry.scrape();
        assertThat(shed).contains("brisk_requests_shed_total{reason=\"concurrency-limit\"} 1.0\n");
        assertThat(value(shed, "brisk_requests_shed_total{reason=\"queue-timeout\"}")).isZero();
        assertThat(value(shed, "brisk_requests_total{status_class=\"5xx\"}")).isEqualTo(1.0);
        assertThat(value(shed, "brisk_needs_scaleout")).isEqualTo(1.0);
        // one refusal in a 10 s window
        assertThat(value(shed, "brisk_rejection_rate")).isCloseTo(0.1, within(1e-9));

        gate.countDown();
        assertThat(slow.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        try (RawConnection raw = server.raw()) {
            assertThat(raw.send("GET /hi HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
                    .read().status()).isEqualTo(400);
        }

        String after = registry.scrape();
        assertThat(after).contains("brisk_requests_total{status_class=\"2xx\"} 4.0\n");
        assertThat(value(after, "brisk_protocol_requests_total{protocol=\"http/1.1\"}")).isEqualTo(7.0);
        assertThat(value(after, "brisk_protocol_requests_total{protocol=\"h2\"}")).isZero();
        assertThat(value(after, "brisk_protocol_requests_total{protocol=\"h2c\"}")).isZero();
        // by route template: /hi answered 3 times; the 503 refusal never reached the route, so it is not counted there
        assertThat(value(after, "brisk_route_requests_total{method=\"GET\",route=\"/hi\",status_class=\"2xx\"}"))
                .isEqualTo(3.0);
        assertThat(value(after, "brisk_route_requests_total{method=\"GET\",route=\"/slow\",status_class=\"2xx\"}"))
                .isEqualTo(1.0);
        assertThat(after).doesNotContain("route=\"/nope\"");
        assertThat(value(after, "brisk_requests_total{status_class=\"4xx\"}")).isEqualTo(2.0);
        assertThat(value(after, "brisk_requests_total{status_class=\"5xx\"}")).isEqualTo(1.0);
        assertThat(value(after, "brisk_requests_total{status_class=\"1xx\"}")).isZero();
        assertThat(value(after, "brisk_parse_errors_total{kind=\"bad-request\"}")).isEqualTo(1.0);
        assertThat(value(after, "brisk_parse_errors_total{kind=\"timeout\"}")).isZero();
        assertThat(value(after, "brisk_requests_in_flight")).isZero();
        assertThat(value(after, "brisk_requests_queued")).isZero();
        assertThat(value(after, "brisk_saturation_ratio")).isZero();
        assertThat(value(after, "brisk_bytes_in_total")).isPositive();
        assertThat(value(after, "brisk_bytes_out_total")).isPositive();
        assertThat(value(after, "brisk_socket_writes_total")).isPositive()
                .isLessThanOrEqualTo(value(after, "brisk_bytes_out_total"));
        assertThat(value(after, "brisk_connections_accepted_total")).isGreaterThanOrEqualTo(3.0);
        assertThat(value(after, "brisk_connections_timed_out_total")).isZero();
        assertThat(value(after, "brisk_connections_too_slow_total{direction=\"request-body\"}")).isZero();
        assertThat(value(after, "brisk_connections_too_slow_total{direction=\"response\"}")).isZero();
        assertThat(value(after, "brisk_accept_pauses_total")).isZero();

        // the latency of every response the engine timed: 3 + 404 + 503 + slow (the 400 has none)
        assertThat(value(after, "brisk_request_latency_seconds_count")).isEqualTo(6.0);
        assertThat(value(after, "brisk_request_latency_seconds_sum")).isPositive();
        assertThat(value(after, "brisk_request_latency_buckets_total{le=\"+Inf\"}")).isEqualTo(6.0);
        assertThat(value(after, "brisk_request_latency_buckets_total{le=\"10\"}")).isEqualTo(6.0);
        List<String> les = List.of("0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
                "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf");
        double previous = 0;
        for (String le : les) {
            double v = value(after, "brisk_request_latency_buckets_total{le=\"" + le + "\"}");
            assertThat(v).as("cumulative at le=%s", le).isGreaterThanOrEqualTo(previous);
            previous = v;
        }
    }

    @Test
    void prometheusNamesAreDistinctAndAsDocumented() {
        bind();
        List<String> families = PrometheusText.families(registry.scrape());
        assertThat(families).doesNotHaveDuplicates().containsExactlyInAnyOrder(
                "brisk_connections_accepted_total", "brisk_connections_active", "brisk_connections_timed_out_total",
                "brisk_connections_too_slow_total",
                "brisk_accept_pauses_total", "brisk_requests_total", "brisk_requests_in_flight",
                "brisk_requests_queued", "brisk_concurrency_limit", "brisk_bytes_in_total", "brisk_bytes_out_total",
                "brisk_socket_writes_total",
                "brisk_request_latency_seconds", "brisk_request_latency_buckets_total", "brisk_parse_errors_total",
                "brisk_requests_shed_total", "brisk_saturation_ratio", "brisk_rejection_rate",
                "brisk_needs_scaleout", "brisk_connection_headroom", "brisk_route_requests_total",
                "brisk_access_log_dropped_total", "brisk_body_memory_reserved", "brisk_body_memory_pooled", "brisk_body_spool_reserved",
                "brisk_compressed_file_cache_hits_total", "brisk_compressed_file_cache_bytes",
                "brisk_websocket_sessions_opened_total",
                "brisk_websocket_sessions_active", "brisk_websocket_messages_total", "brisk_websocket_closed_total",
                "brisk_websocket_buffered_bytes", "brisk_protocol_requests_total", "brisk_tls_handshakes_total",
                "brisk_tls_reloads_total");
        String scrape = registry.scrape();
        assertThat(value(scrape, "brisk_tls_handshakes_total{outcome=\"failed\"}")).as("no TLS here").isZero();
        assertThat(value(scrape, "brisk_websocket_messages_total{direction=\"in\"}")).isZero();
        assertThat(value(scrape, "brisk_websocket_closed_total{reason=\"slow_receiver\"}")).isZero();
    }

    @Test
    void metersKeepReadingWhenTheBinderAndTheMetricsViewAreDropped() {
        // Micrometer holds function meters' objects weakly; nothing but the registry keeps these alive
        new BriskMeterBinder(server.app()).bindTo(registry);
        assertThat(server.get("/hi").statusCode()).isEqualTo(200);
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        String scrape = registry.scrape();
        assertThat(value(scrape, "brisk_requests_total{status_class=\"2xx\"}")).isEqualTo(1.0);
        assertThat(value(scrape, "brisk_request_latency_seconds_count")).isEqualTo(1.0);
        assertThat(value(scrape, "brisk_connections_active")).isEqualTo(1.0);
        assertThat(value(scrape, "brisk_needs_scaleout")).isZero();
    }

    @Test
    void tagsGoOnEveryMeter() {
        new BriskMeterBinder(server.app(), Tags.of("app", "a")).bindTo(registry);
        String scrape = registry.scrape();
        assertThat(value(scrape, "brisk_requests_total{app=\"a\",status_class=\"2xx\"}")).isZero();
        for (String line : scrape.split("\n")) {
            if (!line.startsWith("#")) {
                assertThat(line).contains("app=\"a\"");
            }
        }
    }

    @Test
    void secondsAreWrittenAsPlainDecimals() {
        assertThat(BriskMeterBinder.seconds(100_000L)).isEqualTo("0.0001");
        assertThat(BriskMeterBinder.seconds(250_000_000L)).isEqualTo("0.25");
        assertThat(BriskMeterBinder.seconds(1_000_000_000L)).isEqualTo("1");
        assertThat(BriskMeterBinder.seconds(10_000_000_000L)).isEqualTo("10");
    }
}
