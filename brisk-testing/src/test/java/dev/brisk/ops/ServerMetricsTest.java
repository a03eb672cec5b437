package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.ServerMetrics;
import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import org.junit.jupiter.api.Test;

/** The engine's own counters, driven by real requests. */
class ServerMetricsTest {
    @Test
    void countsConnectionsResponsesBytesLatencyAndParseErrors() throws Exception {
        try (BriskTestServer server = BriskTestServer.start(cfg -> {
            cfg.fastGet("/health", StaticResponse.text("OK"));
            cfg.get("/hello", ctx -> ctx.text("Hello"));
            cfg.get("/boom", ctx -> {
                throw new IllegalStateException("boom");
            });
        })) {
            ServerMetrics m = server.app().metrics();
            for (int i = 0; i < 5; i++) {
                assertThat(server.get("/hello").statusCode()).isEqualTo(200);
            }
            assertThat(server.get("/health").statusCode()).isEqualTo(200);
            assertThat(server.get("/missing").statusCode()).isEqualTo(404);
            assertThat(server.get("/boom").statusCode()).isEqualTo(500);
            try (RawConnection c = server.raw()) {
                c.send("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(400);
            }
            try (RawConnection c = server.raw()) {
                c.send("GET /" + "a".repeat(9_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(414);
            }

            assertThat(m.requests(2)).isEqualTo(6);
            assertThat(m.requests(4)).isEqualTo(3); // 404, 400, 414
            assertThat(m.requests(5)).isEqualTo(1);
            assertThat(m.requests()).isEqualTo(10);
            assertThat(m.parseErrors()).containsEntry("bad-request", 1L).containsEntry("uri-too-long", 1L);
            // refusals during parsing have no latency; every other response has one (fast-static: ~0)
            assertThat(m.latencyCounts().stream().mapToLong(Long::longValue).sum()).isEqualTo(m.requests() - 2);
            assertThat(m.latencyCounts()).hasSize(m.latencyBucketBoundsNanos().size() + 1);
            assertThat(m.latencySumNanos()).isPositive();
            assertThat(m.bytesIn()).isGreaterThan(9_000);
            assertThat(m.bytesOut()).isPositive();
            assertThat(m.connectionsAccepted()).isGreaterThanOrEqualTo(3);
            assertThat(m.shed()).containsEntry("concurrency-limit", 0L);
        }
    }
}
