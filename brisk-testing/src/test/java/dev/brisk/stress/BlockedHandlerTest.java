package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Handlers that block must not stall other connections (unless they run on the event loop). */
class BlockedHandlerTest {

    /**
     * Blocked handlers on virtual threads or the worker pool; fewer than the pool's threads for the
     * pool (a fixed pool with every thread blocked queues further work, by design).
     */
    @ParameterizedTest
    @EnumSource(names = {"VIRTUAL_THREADS", "WORKER_POOL"})
    void blockedHandlersDoNotStallOtherConnections(Dispatch dispatch) {
        int blocked = dispatch == Dispatch.VIRTUAL_THREADS ? 100 : 4;
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger waiting = new AtomicInteger();
            try (BriskTestServer t = BriskTestServer.start(cfg -> {
                cfg.dispatch(dispatch);
                cfg.options().ioThreads(1).workerThreads(8); // one loop: every connection shares it
                cfg.get("/block", ctx -> {
                    waiting.incrementAndGet();
                    boolean released = release.await(10, TimeUnit.SECONDS);
                    ctx.text(released ? "released" : "timed out");
                });
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
            })) {
                List<HttpConn> blockedConns = new ArrayList<>();
                try {
                    for (int i = 0; i < blocked; i++) {
                        HttpConn c = HttpConn.open(t.port(), 10_000);
                        blockedConns.add(c);
                        c.send(HttpConn.get("/block"));
                    }
                    assertThat(Stress.await(Duration.ofSeconds(5), () -> waiting.get() == blocked)).isTrue();
                    assertFastRequestsServed(t, 20);
                    assertThat(waiting.get()).isEqualTo(blocked);
                    release.countDown();
                    for (HttpConn c : blockedConns) {
                        HttpConn.Resp r = c.read();
                        assertThat(r.status()).isEqualTo(200);
                        assertThat(r.body()).isEqualTo("released");
                    }
                } finally {
                    release.countDown();
                    blockedConns.forEach(HttpConn::close);
                }
            }
        });
    }

    /** A fast route on the event loop next to a blocking route on virtual threads, on a single I/O loop. */
    @Test
    void eventLoopRouteNextToABlockingRoute() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger waiting = new AtomicInteger();
            try (BriskTestServer t = BriskTestServer.start(cfg -> {
                cfg.options().ioThreads(1);
                cfg.dispatch(Dispatch.WORKER_POOL);
                cfg.get("/block", ctx -> {
                    waiting.incrementAndGet();
                    boolean released = release.await(10, TimeUnit.SECONDS);
                    ctx.text(released ? "released" : "timed out");
                }).dispatch(Dispatch.VIRTUAL_THREADS);
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id"))).dispatch(Dispatch.EVENT_LOOP);
            })) {
                List<HttpConn> blockedConns = new ArrayList<>();
                try {
                    for (int i = 0; i < 50; i++) {
                        HttpConn c = HttpConn.open(t.port(), 10_000);
                        blockedConns.add(c);
                        c.send(HttpConn.get("/block"));
                    }
                    assertThat(Stress.await(Duration.ofSeconds(5), () -> waiting.get() == 50)).isTrue();
                    assertFastRequestsServed(t, 20);
                    release.countDown();
                    for (HttpConn c : blockedConns) {
                        assertThat(c.read().body()).isEqualTo("released");
                    }
                } finally {
                    release.countDown();
                    blockedConns.forEach(HttpConn::close);
                }
            }
        });
    }

    /** {@code clients} concurrent clients, 10 requests each, every one answered within 500 ms. */
    private static void assertFastRequestsServed(BriskTestServer t, int clients) throws InterruptedException {
        Stress.runClients(clients, Duration.ofSeconds(10), c -> {
            try (HttpConn conn = HttpConn.open(t.port(), 2_000)) {
                for (int k = 0; k < 10; k++) {
                    long t0 = System.nanoTime();
                    HttpConn.Resp r = conn.get1("/users/" + c + "-" + k);
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.body()).isEqualTo(c + "-" + k);
                    assertThat(Stress.millisSince(t0)).as("latency (ms)").isLessThan(500);
                }
            }
        });
    }
}
