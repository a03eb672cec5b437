package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.BriskConfig;
import dev.brisk.Dispatch;
import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many connections at once, each with many keep-alive requests, in every dispatch mode: every
 * response must be the one its own connection asked for.
 */
class ConcurrencyTest {
    static final int CONNECTIONS = 200;
    static final int REQUESTS_PER_CONNECTION = 50;

    static void app(BriskConfig cfg, Dispatch dispatch) {
        cfg.dispatch(dispatch);
        cfg.options().ioThreads(2);
        cfg.post("/echo/{id}", ctx -> ctx.text(ctx.pathParam("id") + ":" + ctx.bodyAsString()));
        cfg.fastGet("/static", StaticResponse.text("static"));
        cfg.get("/users/{id}", ctx -> ctx.header("X-Id", ctx.pathParam("id"))
                .text(ctx.pathParam("id") + ":" + ctx.queryParam("n")));
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void manyKeepAliveConnections(Dispatch dispatch) {
        assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
            try (BriskTestServer t = BriskTestServer.start(cfg -> app(cfg, dispatch))) {
                AtomicInteger ok = new AtomicInteger();
                Stress.runClients(CONNECTIONS, Duration.ofSeconds(30), c -> {
                    try (HttpConn conn = HttpConn.open(t.port())) {
                        String id = "c" + c + "-" + dispatch.ordinal();
                        for (int k = 0; k < REQUESTS_PER_CONNECTION; k++) {
                            HttpConn.Resp r;
                            if (k % 10 == 3) { // a prebuilt response now and then
                                r = conn.get1("/static");
                                assertThat(r.body()).isEqualTo("static");
                            } else if (k % 10 == 5) { // a chunked body
                                String part = id + "/" + k;
                                r = conn.send("POST /echo/" + id + " HTTP/1.1\r\nHost: x\r\n"
                                        + "Transfer-Encoding: chunked\r\n\r\n"
                                        + Integer.toHexString(part.length()) + "\r\n" + part + "\r\n"
                                        + "3\r\n;;;\r\n0\r\n\r\n").read();
                                assertThat(r.body()).isEqualTo(id + ":" + part + ";;;");
                            } else if (k % 10 == 7) { // and a HEAD
                                r = conn.send("HEAD /users/" + id + "?n=" + k + " HTTP/1.1\r\nHost: x\r\n\r\n")
                                        .read(true);
                                assertThat(r.header("content-length")).isEqualTo(String.valueOf((id + ":" + k).length()));
                                assertThat(r.header("x-id")).isEqualTo(id);
                            } else {
                                r = conn.get1("/users/" + id + "?n=" + k);
                                assertThat(r.body()).isEqualTo(id + ":" + k);
                                assertThat(r.header("x-id")).isEqualTo(id);
                            }
                            assertThat(r.status()).isEqualTo(200);
                            assertThat(r.connectionClose()).isFalse();
                            ok.incrementAndGet();
                        }
                        // nothing more than asked for (e.g. no body after a HEAD answer)
                        assertThat(conn.silentFor(20)).isTrue();
                    }
                });
                assertThat(ok.get()).isEqualTo(CONNECTIONS * REQUESTS_PER_CONNECTION);
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
            }
        });
    }

    /** The JDK client, a few thousand async requests, at most 100 in flight (so at most ~100 connections). */
    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void jdkHttpClientAsync(Dispatch dispatch) {
        int total = 3_000;
        assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
            try (BriskTestServer t = BriskTestServer.start(cfg -> app(cfg, dispatch));
                 HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                         .connectTimeout(Duration.ofSeconds(5)).build()) {
                Semaphore inFlight = new Semaphore(100);
                ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
                List<CompletableFuture<?>> all = new ArrayList<>(total);
                for (int i = 0; i < total; i++) {
                    assertThat(inFlight.tryAcquire(20, TimeUnit.SECONDS)).as("a free in-flight slot").isTrue();
                    String id = "u" + (i % 97);
                    int n = i;
                    HttpRequest req = HttpRequest.newBuilder(t.uri("/users/" + id + "?n=" + n))
                            .timeout(Duration.ofSeconds(15)).GET().build();
                    all.add(client.sendAsync(req, HttpResponse.BodyHandlers.ofString())
                            .whenComplete((r, e) -> {
                                inFlight.release();
                                if (e != null) {
                                    wrong.add(n + ": " + e);
                                } else if (r.statusCode() != 200 || !r.body().equals(id + ":" + n)) {
                                    wrong.add(n + ": " + r.statusCode() + " " + r.body());
                                }
                            }));
                }
                CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0]))
                        .handle((v, e) -> null).get(30, TimeUnit.SECONDS);
                assertThat(wrong).as("failed or wrong responses").isEmpty();
            }
        });
    }
}
