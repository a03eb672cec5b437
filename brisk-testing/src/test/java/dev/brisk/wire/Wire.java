package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import dev.brisk.testing.Within;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** Shared set-up for the wire tests: a small app, waits on the server's state, assertions about the connection's end. */
final class Wire {
    private Wire() {
    }

    /**
     * Starts {@code app} on {@code engine} with a short shutdown timeout and two I/O loops, so that closing the server
     * at the end of a test never waits long.
     */
    static BriskTestServer start(Engine engine, Consumer<BriskConfig> app) {
        return BriskTestServer.start(cfg -> {
            engine.apply(cfg);
            cfg.options().shutdownTimeout(Duration.ofSeconds(1)).ioThreads(2);
            app.accept(cfg);
        });
    }

    /**
     * The routes most tests use.
     *
     * <ul>
     *   <li>{@code GET /hello}: text {@code hello}
     *   <li>{@code GET /users/{id}}: text {@code user=<id>} plus {@code ;x=<x>} when the query has x
     *   <li>{@code POST /echo}: the request body back as bytes
     *   <li>{@code GET /static}: fast route, text {@code static}
     *   <li>{@code GET /smuggled}: counts its calls in {@code smuggled}; must never run after a bad request
     * </ul>
     */
    static Consumer<BriskConfig> routes(AtomicInteger smuggled) {
        return cfg -> {
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.get("/users/{id}", ctx -> {
                String x = ctx.queryParam("x");
                ctx.text("user=" + ctx.pathParam("id") + (x == null ? "" : ";x=" + x));
            });
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()));
            cfg.fastGet("/static", StaticResponse.text("static"));
            cfg.get("/smuggled", ctx -> {
                smuggled.incrementAndGet();
                ctx.text("smuggled");
            });
        };
    }

    static Consumer<BriskConfig> routes() {
        return routes(new AtomicInteger());
    }

    /**
     * Waits (5 s at most) until the server has read {@code total} request bytes since it started: what
     * was sent so far has arrived, so the next write reaches the server in a read of its own.
     */
    static void awaitBytesRead(BriskTestServer t, long total) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.app().metrics().bytesIn() < total && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertThat(t.app().metrics().bytesIn()).as("request bytes read by the server").isGreaterThanOrEqualTo(total);
    }

    /**
     * Waits, {@code millis} at most, until the server has first counted a connection open, then none:
     * whether it had none left in time.
     */
    static boolean awaitNoConnections(BriskTestServer t, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (t.app().connectionCount() == 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5); // until the server has accepted the connection
        }
        while (t.app().connectionCount() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        return t.app().connectionCount() == 0;
    }

    /** Waits (5 s at most) until connecting to {@code port} is refused: the server has stopped accepting. */
    static void awaitRefused(int port) throws InterruptedException {
        assertThat(Within.within(5_000, () -> Within.refused(port)))
                .as("new connections to port %d refused within 5 s", port).isTrue();
    }

    /**
     * Asserts that the server sends nothing more and closes the connection (end of stream within
     * {@code 3 s}): no later request on this connection is answered.
     */
    static void assertNothingMoreAndClosed(RawConnection c) {
        c.timeout(3_000);
        assertThat(c.readAll()).as("bytes sent after the response").isEmpty();
    }
}
