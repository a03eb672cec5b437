package dev.brisk.ws;

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
 * With virtual-thread dispatch on the loop engines, a WebSocket session's message handlers run on the
 * loop's spare threads: messages one after another reuse one parked thread (none started per message),
 * and a handler that blocks holds back neither the other sessions nor its own session's order.
 */
class WebSocketSpareThreadTest {
    /** Threads by the message's text, as the handlers saw them. */
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

    private int start(Engine engine) {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            // one loop: every session on the same loop's spare threads, so a blocked one could hold the others
            cfg.options().port(0).host("127.0.0.1").ioThreads(1).shutdownTimeout(Duration.ofSeconds(1));
            cfg.ws("/who", ws -> ws.onText((s, text) -> {
                threads.put(text, Thread.currentThread());
                if (text.startsWith("wait")) {
                    try {
                        s.sendText(release.await(10, TimeUnit.SECONDS) ? "released " + text : "timed out");
                    } catch (InterruptedException e) {
                        s.sendText("interrupted");
                    }
                    return;
                }
                s.sendText((Thread.currentThread().isVirtual() ? "virtual " : "platform ") + text);
            })).dispatch(Dispatch.VIRTUAL_THREADS);
        }).start();
        return app.port();
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void messagesOneAfterAnotherRunOnOneKeptThread(Engine engine) throws Exception {
        try (RawWs c = RawWs.open(start(engine), "/who")) {
            assertThat(c.head).startsWith("HTTP/1.1 101");
            for (int i = 0; i < 20; i++) {
                c.text("m" + i);
                assertThat(c.readData().text()).isEqualTo("virtual m" + i);
                // the answer leaves before its spare is back on the idle stack: wait until it has parked
                Thread ran = threads.get("m" + i);
                assertThat(within(5_000, () -> ran.getState() == Thread.State.WAITING)).isTrue();
            }
        }
        assertThat(threads).hasSize(20);
        // one kept thread, not one per message (a second only if the test stalled past the spares' idle scan)
        assertThat(threads.values().stream().distinct().count()).as("threads for 20 messages").isLessThanOrEqualTo(2);
    }

    /** One session's handler waits until the test lets it go; another session is served meanwhile. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void aBlockedHandlerHoldsBackNoOtherSession(Engine engine) throws Exception {
        int port = start(engine);
        try (RawWs blocked = RawWs.open(port, "/who"); RawWs other = RawWs.open(port, "/who")) {
            blocked.text("wait-1").text("after-wait"); // the second must wait for the first: one session's order
            assertThat(within(5_000, () -> threads.containsKey("wait-1"))).isTrue();
            for (int i = 0; i < 5; i++) {
                other.text("o" + i);
                assertThat(other.readData().text()).isEqualTo("virtual o" + i);
            }
            assertThat(threads).doesNotContainKey("after-wait");
            release.countDown();
            assertThat(blocked.readData().text()).isEqualTo("released wait-1");
            assertThat(blocked.readData().text()).isEqualTo("virtual after-wait");
        }
        assertThat(threads.get("o0")).isNotSameAs(threads.get("wait-1"));
    }
}
