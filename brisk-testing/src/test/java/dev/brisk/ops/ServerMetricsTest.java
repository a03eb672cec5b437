package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.ServerMetrics;
import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The engine's own counters, driven by real requests. */
@ParameterizedClass
@EnumSource(Engine.class)
class ServerMetricsTest {
    @Parameter
    Engine engine;

    @Test
    void countsConnectionsResponsesBytesLatencyAndParseErrors() throws Exception {
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.fastGet("/health", StaticResponse.text("OK"));
            cfg.get("/hello", ctx -> ctx.text("Hello"));
            cfg.get("/users/{id}", ctx -> ctx.status(ctx.pathParam("id").equals("0") ? 404 : 200).text("u"));
            cfg.get("/boom", ctx -> {
                throw new IllegalStateException("boom");
            });
            cfg.post("/small", ctx -> ctx.text("taken")).maxBodySize(10);
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

            for (String id : new String[] {"1", "2", "0", "secret-raw-path"}) {
                server.get("/users/" + id);
            }
            assertThat(server.post("/small", "text/plain", "x".repeat(100)).statusCode()).isEqualTo(413);
            assertThat(m.requestsByRoute()).containsOnlyKeys("GET /health", "GET /hello", "GET /users/{id}", "GET /boom",
                    "POST /small");
            assertThat(m.requestsByRoute().get("POST /small")).as("refused once routed: the route's")
                    .containsExactly(0, 0, 0, 0, 1, 0);
            assertThat(m.requestsByRoute().get("GET /users/{id}")).containsExactly(0, 0, 3, 0, 1, 0);
            assertThat(m.requestsByRoute().get("GET /hello")[2]).isEqualTo(5);
            assertThat(m.requestsByRoute().get("GET /boom")[5]).isEqualTo(1);
            assertThat(m.requestsByRoute().get("GET /health")[2]).as("fast-static, under its route").isEqualTo(1);

            assertThat(m.requests(2)).isEqualTo(9);
            assertThat(m.requests(4)).isEqualTo(5); // 404 (missing), 404 (user 0), 400, 414, 413
            assertThat(m.requests(5)).isEqualTo(1);
            assertThat(m.requests()).isEqualTo(15);
            assertThat(m.parseErrors()).containsEntry("bad-request", 1L).containsEntry("uri-too-long", 1L)
                    .containsEntry("body-too-large", 1L);
            // refusals have no latency; every other response has one (fast-static: ~0)
            assertThat(m.latencyCounts().stream().mapToLong(Long::longValue).sum()).isEqualTo(m.requests() - 3);
            assertThat(m.latencyCounts()).hasSize(m.latencyBucketBoundsNanos().size() + 1);
            assertThat(m.latencySumNanos()).isPositive();
            assertThat(m.bytesIn()).isGreaterThan(9_000);
            assertThat(m.bytesOut()).isPositive();
            // nothing here is pipelined or larger than one write: at most one write per response
            assertThat(m.socketWrites()).isBetween(1L, m.requests());
            assertThat(m.connectionsAccepted()).isGreaterThanOrEqualTo(3);
            assertThat(m.shed()).containsEntry("concurrency-limit", 0L);
            assertThat(m.accessLogDropped()).isZero(); // the access log is off
        }
    }
}
