package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Context;
import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Where handlers run: the I/O loop, a virtual thread, or the worker pool; app-wide and per route. */
class DispatchTest {

    /** Answers {@code <thread name>|<virtual>}. */
    private static final Handler THREAD = ctx -> ctx.text(describe(ctx));

    private static String describe(Context ctx) {
        Thread t = Thread.currentThread();
        return t.getName() + "|" + t.isVirtual();
    }

    private static String[] thread(BriskTestServer s, String path) {
        return s.get(path).body().split("\\|");
    }

    @Test
    void eventLoopRunsHandlersOnTheIoThread() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.dispatch(Dispatch.EVENT_LOOP);
            cfg.get("/t", THREAD);
            cfg.post("/t", THREAD);
        })) {
            String[] t = thread(s, "/t");
            assertThat(t[0]).startsWith("brisk-io-");
            assertThat(t[1]).isEqualTo("false");
            assertThat(s.post("/t", "text/plain", "body").body()).startsWith("brisk-io-");
        }
    }

    @Test
    void virtualThreadsIsTheDefault() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> cfg.get("/t", THREAD))) {
            String[] t = thread(s, "/t");
            assertThat(t[1]).isEqualTo("true");
            assertThat(t[0]).doesNotStartWith("brisk-io-").doesNotStartWith("brisk-worker-");
        }
    }

    @Test
    void virtualThreadsWhenAskedExplicitly() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.dispatch(Dispatch.VIRTUAL_THREADS);
            cfg.get("/t", THREAD);
        })) {
            assertThat(thread(s, "/t")[1]).isEqualTo("true");
        }
    }

    @Test
    void workerPoolRunsHandlersOnTheOwnPool() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.dispatch(Dispatch.WORKER_POOL);
            cfg.get("/t", THREAD);
        })) {
            String[] t = thread(s, "/t");
            assertThat(t[0]).startsWith("brisk-worker-");
            assertThat(t[1]).isEqualTo("false");
        }
    }

    @Test
    void perRouteDispatchOverridesTheAppDefault() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.dispatch(Dispatch.EVENT_LOOP);
            cfg.get("/default", THREAD);
            cfg.get("/vt", THREAD).dispatch(Dispatch.VIRTUAL_THREADS);
            cfg.get("/worker", THREAD).dispatch(Dispatch.WORKER_POOL);
            cfg.group("/g", g -> g.get("/worker", THREAD).dispatch(Dispatch.WORKER_POOL));
        })) {
            assertThat(thread(s, "/default")[0]).startsWith("brisk-io-");
            assertThat(thread(s, "/vt")[1]).isEqualTo("true");
            assertThat(thread(s, "/worker")[0]).startsWith("brisk-worker-");
            assertThat(thread(s, "/g/worker")[0]).startsWith("brisk-worker-");
        }
    }

    @Test
    void perRouteEventLoopInAVirtualThreadApp() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.get("/loop", THREAD).dispatch(Dispatch.EVENT_LOOP);
            cfg.get("/default", THREAD);
        })) {
            assertThat(thread(s, "/loop")[0]).startsWith("brisk-io-");
            assertThat(thread(s, "/default")[1]).isEqualTo("true");
        }
    }

    @Test
    void middlewareFiltersAndHandlerShareTheRoutesThread() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.use(next -> ctx -> {
                ctx.attribute("mw", Thread.currentThread().getName());
                next.handle(ctx);
            });
            cfg.after(ctx -> ctx.header("X-After-Thread", Thread.currentThread().getName()));
            cfg.get("/w", ctx -> ctx.text(ctx.attribute("mw") + "=" + Thread.currentThread().getName()))
                    .dispatch(Dispatch.WORKER_POOL);
        })) {
            HttpResponse<String> r = s.get("/w");
            String[] parts = r.body().split("=");
            assertThat(parts[0]).startsWith("brisk-worker-").isEqualTo(parts[1]);
            assertThat(r.headers().firstValue("X-After-Thread")).hasValue(parts[1]);
        }
    }

    @Test
    void aGivenWorkerPoolIsUsedAndNotShutDownByTheApp() throws Exception {
        AtomicInteger created = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "custom-pool-" + created.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            try (BriskTestServer s = BriskTestServer.start(cfg -> {
                cfg.workerPool(pool);
                cfg.dispatch(Dispatch.WORKER_POOL);
                cfg.get("/t", THREAD);
                cfg.get("/vt", THREAD).dispatch(Dispatch.VIRTUAL_THREADS);
            })) {
                for (int i = 0; i < 4; i++) {
                    assertThat(thread(s, "/t")[0]).startsWith("custom-pool-");
                }
                assertThat(thread(s, "/vt")[1]).isEqualTo("true");
                assertThat(created.get()).isBetween(1, 2);
            }
            assertThat(pool.isShutdown()).as("the app must not shut down a pool it was given").isFalse();
            assertThat(pool.submit(() -> "still usable").get(5, TimeUnit.SECONDS)).isEqualTo("still usable");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void rejectedWorkerPoolTaskIs503() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pool.shutdown(); // rejects every task
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.workerPool(pool);
            cfg.get("/t", THREAD).dispatch(Dispatch.WORKER_POOL);
        })) {
            HttpResponse<String> r = s.get("/t");
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.body()).isEqualTo("Service Unavailable");
        }
    }

    @Test
    void eventLoopRouteWithExpectContinueRunsOnAVirtualThread() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.dispatch(Dispatch.EVENT_LOOP);
            cfg.post("/upload", ctx -> ctx.text(ctx.bodyAsString() + "|" + Thread.currentThread().isVirtual()));
        })) {
            try (RawConnection c = s.raw()) {
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
                RawConnection.Response cont = c.read();
                assertThat(cont.status()).isEqualTo(100);
                c.send("hello");
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("hello|true");
            }
        }
    }

    @Test
    void handlersOnTheEventLoopAnswerConcurrentConnections() throws Exception {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.dispatch(Dispatch.EVENT_LOOP);
            cfg.get("/n/{n}", ctx -> ctx.text("n=" + ctx.pathParam("n")));
        })) {
            var futures = new ArrayList<CompletableFuture<String>>();
            for (int i = 0; i < 20; i++) {
                futures.add(s.client().sendAsync(s.request("/n/" + i).build(),
                        HttpResponse.BodyHandlers.ofString()).thenApply(r -> r.body()));
            }
            for (int i = 0; i < 20; i++) {
                assertThat(futures.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("n=" + i);
            }
        }
    }
}
