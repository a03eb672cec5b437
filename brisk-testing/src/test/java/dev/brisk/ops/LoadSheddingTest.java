package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The in-flight limit over real sockets: a slow handler, limit N, and more requests than N. Exactly N
 * run at once; the rest wait in the queue or get a 503 with Retry-After, never reaching the handler.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class LoadSheddingTest {
    @Parameter
    Engine engine;

    /** A handler that counts how many run at once and blocks until released. */
    static final class Gate {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        final AtomicInteger entered = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);

        void pass() throws InterruptedException {
            entered.incrementAndGet();
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            try {
                release.await(20, TimeUnit.SECONDS);
            } finally {
                running.decrementAndGet();
            }
        }
    }

    private static void awaitEntered(Gate gate, int n) throws InterruptedException {
        for (int i = 0; i < 200 && gate.entered.get() < n; i++) {
            Thread.sleep(10);
        }
        assertThat(gate.entered.get()).isEqualTo(n);
    }

    @Test
    void limitNAdmitsExactlyNAndRefusesTheRestWith503() throws Exception {
        Gate gate = new Gate();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(4).requestQueueSize(0);
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
        })) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> server.get("/slow")));
            }
            awaitEntered(gate, 4);
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> r = server.get("/slow");
                assertThat(r.statusCode()).isEqualTo(503);
                assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(r.body()).contains("Service Unavailable");
            }
            assertThat(server.app().metrics().inFlight()).isEqualTo(4);
            gate.release.countDown();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            }
            assertThat(gate.entered.get()).isEqualTo(4);
            assertThat(gate.maxRunning.get()).isEqualTo(4);
            assertThat(server.app().metrics().shed()).containsEntry("concurrency-limit", 6L);
            assertThat(server.app().metrics().inFlight()).isZero();
            // the slots came back: the next request runs
            assertThat(server.get("/slow").statusCode()).isEqualTo(200);
            // the route's counts are what its clients saw, shed answers included
            assertThat(server.app().metrics().requestsByRoute().get("GET /slow")).containsExactly(0, 0, 5, 0, 0, 6);
            // every answer went out over HTTP/1.1 and is counted so, by the protocol's own count
            assertThat(server.app().metrics().requestsByProtocol()).containsEntry("http/1.1", 11L)
                    .containsEntry("h2", 0L).containsEntry("h2c", 0L);
        }
    }

    @Test
    void queuedRequestsRunInTurnWhenSlotsFree() throws Exception {
        Gate gate = new Gate();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(2).requestQueueSize(3).requestQueueTimeout(Duration.ofSeconds(10));
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
        })) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> server.get("/slow")));
            }
            awaitEntered(gate, 2);
            for (int i = 0; i < 200 && server.app().metrics().queued() < 3; i++) {
                Thread.sleep(10);
            }
            assertThat(server.app().metrics().queued()).isEqualTo(3);
            // a sixth finds the queue full
            assertThat(server.get("/slow").statusCode()).isEqualTo(503);
            gate.release.countDown();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            }
            assertThat(gate.maxRunning.get()).isEqualTo(2);
            assertThat(gate.entered.get()).isEqualTo(5);
            assertThat(server.app().metrics().queued()).isZero();
        }
    }

    @Test
    void aRequestWaitingLongerThanTheQueueTimeoutGets503() throws Exception {
        Gate gate = new Gate();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(1).requestQueueTimeout(Duration.ofMillis(200));
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
        })) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> server.get("/slow"));
            awaitEntered(gate, 1);
            long t0 = System.nanoTime();
            HttpResponse<String> second = server.get("/slow");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(second.statusCode()).isEqualTo(503);
            assertThat(ms).isBetween(150L, 2_000L);
            assertThat(server.app().metrics().shed()).containsEntry("queue-timeout", 1L);
            gate.release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(gate.entered.get()).isEqualTo(1);
        }
    }

    @Test
    void exemptAndFastStaticRoutesAnswerWhileTheLimitIsFull() throws Exception {
        Gate gate = new Gate();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(0);
            cfg.fastGet("/live", StaticResponse.text("OK"));
            cfg.get("/ready", ctx -> ctx.text("ready")).neverShed();
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
        })) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> server.get("/slow"));
            awaitEntered(gate, 1);
            assertThat(server.get("/slow").statusCode()).isEqualTo(503);
            assertThat(server.get("/live").statusCode()).isEqualTo(200);
            assertThat(server.get("/ready").body()).isEqualTo("ready");
            gate.release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
    }

    /**
     * A buffered body is read before its request asks for a slot: shed, its body is already off the
     * wire, so the connection stays open, and what the body holds is never taken for a request.
     */
    @Test
    void aRefusedRequestsBodyIsReadFirstAndTheConnectionStays() throws Exception {
        Gate gate = new Gate();
        AtomicInteger bodies = new AtomicInteger();
        AtomicInteger probes = new AtomicInteger();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(0);
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
            cfg.get("/probe", ctx -> {
                probes.incrementAndGet();
                ctx.text("probe");
            }).neverShed();
            cfg.post("/upload", ctx -> {
                bodies.incrementAndGet();
                ctx.text(ctx.bodyAsString());
            });
        })) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> server.get("/slow"));
            awaitEntered(gate, 1);
            try (RawConnection c = server.raw()) {
                // the body looks like a request to a route that is never shed: it must not run
                String smuggled = "GET /probe HTTP/1.1\r\nHost: x\r\n\r\n";
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + smuggled.length() + "\r\n\r\n"
                        + smuggled + "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.header("Retry-After")).isEqualTo("1");
                assertThat(r.header("Connection")).isNull();
                assertThat(c.read().status()).isEqualTo(503); // the pipelined request after the body
                assertThat(server.app().metrics().bodyMemoryReserved()).isZero(); // the shed body gave it back
                gate.release.countDown();
                assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
                // the same connection serves on once there is room
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi");
                RawConnection.Response ok = c.read();
                assertThat(ok.status()).isEqualTo(200);
                assertThat(ok.body()).isEqualTo("hi");
            }
            assertThat(bodies.get()).isEqualTo(1);
            assertThat(probes.get()).isZero();
            assertThat(gate.entered.get()).isEqualTo(1);
            assertThat(server.app().metrics().shed()).containsEntry("concurrency-limit", 2L);
        }
    }

    /**
     * A client trickling its upload holds no slot while it does (it took one at its head, and a few slow
     * uploads shut every other request out): other requests run meanwhile, and the upload gets its slot
     * when its body is whole.
     */
    @Test
    void aSlowUploadHoldsNoSlotWhileItsBodyArrives() throws Exception {
        AtomicInteger bodies = new AtomicInteger();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(0);
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.post("/upload", ctx -> {
                bodies.incrementAndGet();
                ctx.text(ctx.bodyAsString());
            });
        }); RawConnection upload = server.raw()) {
            upload.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234");
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = server.get("/hello");
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("hello");
            }
            assertThat(server.app().metrics().inFlight()).isZero();
            assertThat(bodies.get()).isZero();
            upload.send("56789");
            RawConnection.Response r = upload.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("0123456789");
            assertThat(server.app().metrics().shed().getOrDefault("concurrency-limit", 0L)).isZero();
        }
    }

    /** A buffered request that finds no slot waits in the queue with its body, and runs with it when one frees. */
    @Test
    void aBufferedBodyWaitsInTheQueueAndRunsWithItsBody() throws Exception {
        Gate gate = new Gate();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(1).requestQueueTimeout(Duration.ofSeconds(10));
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
            cfg.post("/upload", ctx -> ctx.text("got " + ctx.bodyAsString()));
        })) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> server.get("/slow"));
            awaitEntered(gate, 1);
            try (RawConnection c = server.raw()) {
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
                for (int i = 0; i < 200 && server.app().metrics().queued() < 1; i++) {
                    Thread.sleep(10);
                }
                assertThat(server.app().metrics().queued()).isEqualTo(1);
                assertThat(server.app().metrics().bodyMemoryReserved()).isPositive(); // held while it waits
                gate.release.countDown();
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("got hello");
            }
            assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(server.app().metrics().queued()).isZero();
        }
    }

    /** A buffered request whose wait in the queue times out gets 503, gives its body back, and keeps its connection. */
    @Test
    void aBufferedBodyTimingOutInTheQueueKeepsTheConnection() throws Exception {
        Gate gate = new Gate();
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(1).requestQueueTimeout(Duration.ofMillis(200));
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
            cfg.post("/upload", ctx -> ctx.text("got " + ctx.bodyAsString()));
        })) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> server.get("/slow"));
            awaitEntered(gate, 1);
            try (RawConnection c = server.raw()) {
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.header("Connection")).isNull();
                assertThat(server.app().metrics().shed()).containsEntry("queue-timeout", 1L);
                assertThat(server.app().metrics().bodyMemoryReserved()).isZero();
                gate.release.countDown();
                assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nagain");
                RawConnection.Response ok = c.read();
                assertThat(ok.status()).isEqualTo(200);
                assertThat(ok.body()).isEqualTo("got again");
            }
        }
    }

    @Test
    void anAdaptiveLimitComesDownWhenRequestsGetSlow() throws Exception {
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(20).requestQueueSize(100).requestQueueTimeout(Duration.ofSeconds(30))
                    .concurrencyLimit(dev.brisk.ConcurrencyLimitMode.ADAPTIVE);
            cfg.get("/slow", ctx -> {
                Thread.sleep(300); // above the 250 ms the adaptive limit tolerates
                ctx.text("done");
            });
        })) {
            assertThat(server.app().metrics().concurrencyLimit()).isEqualTo(20);
            for (int round = 0; round < 4; round++) {
                List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    calls.add(CompletableFuture.supplyAsync(() -> server.get("/slow")));
                }
                for (CompletableFuture<HttpResponse<String>> c : calls) {
                    assertThat(c.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
                }
            }
            int limit = server.app().metrics().concurrencyLimit();
            assertThat(limit).isLessThan(20).isGreaterThanOrEqualTo(2);
        }
    }

    /**
     * A client that sends its body slowly takes its own time, not the server's: an adaptive limit
     * samples the handler's latency, so slow uploads to a fast handler leave it where it is (they cut it
     * to its floor when the sample ran from admission, before the body was read).
     */
    @Test
    void slowUploadsToAFastHandlerDoNotCutAnAdaptiveLimit() throws Exception {
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConcurrentRequests(20).concurrencyLimit(dev.brisk.ConcurrencyLimitMode.ADAPTIVE);
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()));
        }); dev.brisk.testing.RawConnection c = server.raw()) {
            String body = "0123456789".repeat(6);
            for (int i = 0; i < 3; i++) {
                // the head at once, the body in four pieces 150 ms apart: over 250 ms per request
                c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n");
                c.sendInPieces(body, 15, 150);
                dev.brisk.testing.RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(body);
            }
            assertThat(server.app().metrics().concurrencyLimit()).isEqualTo(20);
        }
    }

    @Test
    void unlimitedByDefault() throws Exception {
        try (BriskTestServer server = BriskTestServer.start(engine, cfg -> cfg.get("/x", ctx -> ctx.text("x")))) {
            assertThat(server.app().options().maxConcurrentRequests()).isZero();
            assertThat(server.get("/x").statusCode()).isEqualTo(200);
            assertThat(server.app().metrics().concurrencyLimit()).isZero();
        }
    }
}
