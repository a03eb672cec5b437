package dev.brisk.http2;

import static dev.brisk.testing.Within.within;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.Dispatch;
import dev.brisk.testing.Engine;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * With virtual-thread dispatch on the loop engines, HTTP/2 streams' handlers run on the loop's spare
 * threads: streams one after another reuse one thread (none started per stream), streams at once each
 * have their own, an interrupt a handler leaves is not the next stream's, and the spares end when the
 * loop has been idle for a scan period, so no parked thread outlives the traffic it served.
 */
class Http2SpareThreadTest {
    /** Threads by the request's {@code k}, as the handlers saw them. */
    private final Map<String, Thread> threads = new ConcurrentHashMap<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private Brisk app;

    @AfterEach
    void stop() {
        release.countDown();
        if (app != null) {
            app.close();
        }
    }

    private H2Conn start(Engine engine) throws Exception {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            cfg.dispatch(Dispatch.VIRTUAL_THREADS);
            cfg.get("/who", ctx -> {
                Thread me = Thread.currentThread();
                threads.put(ctx.queryParam("k"), me);
                ctx.status(me.isInterrupted() ? 500 : 200).text(me.isVirtual() ? "virtual" : "platform");
            });
            cfg.get("/interrupt", ctx -> {
                threads.put(ctx.queryParam("k"), Thread.currentThread());
                Thread.currentThread().interrupt(); // left behind on purpose
                ctx.text("interrupted");
            });
            cfg.get("/wait", ctx -> {
                threads.put(ctx.queryParam("k"), Thread.currentThread());
                ctx.status(release.await(10, TimeUnit.SECONDS) ? 200 : 504).text("waited");
            });
        }).start();
        return new H2Conn(app.port());
    }

    private static int get(H2Conn c, int stream, String path) throws Exception {
        c.headers(stream, true, H2Conn.request("GET", path));
        return c.statuses(stream).get(stream);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void streamsOneAfterAnotherRunOnOneKeptThread(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            for (int i = 0; i < 20; i++) {
                assertThat(get(c, 1 + 2 * i, "/who?k=" + i)).isEqualTo(200);
                // the answer leaves before its spare is back on the idle stack: wait until it has parked
                Thread ran = threads.get(String.valueOf(i));
                assertThat(within(5_000, () -> ran.getState() == Thread.State.WAITING)).isTrue();
            }
        }
        assertThat(threads).hasSize(20);
        assertThat(threads.values()).allSatisfy(t -> assertThat(t.isVirtual()).isTrue());
        assertThat(threads.values().stream().distinct()).hasSize(1);
    }

    /** A stream waits until the test lets it go; the streams after it run meanwhile, on other threads. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void streamsAtOnceEachHaveTheirOwnThread(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.headers(1, true, H2Conn.request("GET", "/wait?k=w"));
            assertThat(within(5_000, () -> threads.containsKey("w"))).isTrue();
            for (int i = 0; i < 5; i++) {
                assertThat(get(c, 3 + 2 * i, "/who?k=" + i)).isEqualTo(200);
                Thread ran = threads.get(String.valueOf(i));
                assertThat(within(5_000, () -> ran.getState() == Thread.State.WAITING)).isTrue();
            }
            release.countDown();
            assertThat(c.statuses(1).get(1)).isEqualTo(200);
        }
        Thread waiter = threads.get("w");
        assertThat(threads.values().stream().filter(t -> t == waiter)).hasSize(1);
        assertThat(threads.get("0")).isSameAs(threads.get("4")); // the others share a spare
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void anInterruptLeftByAHandlerIsNotTheNextStreams(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            assertThat(get(c, 1, "/interrupt?k=i")).isEqualTo(200);
            assertThat(get(c, 3, "/who?k=a")).isEqualTo(200); // 500 if it found the interrupt
            assertThat(get(c, 5, "/who?k=b")).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void theSparesEndWhenTheLoopIsIdle(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            assertThat(get(c, 1, "/who?k=1")).isEqualTo(200);
            Thread spare = threads.get("1");
            // the connection stays open: the loop's scans find the spare unused and end it
            assertThat(within(5_000, () -> !spare.isAlive())).as("an unused spare ends").isTrue();
            assertThat(get(c, 3, "/who?k=3")).isEqualTo(200);
            assertThat(threads.get("3")).isNotSameAs(spare);
        }
    }
}
