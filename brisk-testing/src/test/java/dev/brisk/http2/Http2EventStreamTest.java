package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A response body that waits for its producer (Server-Sent Events, a handler's own stream) over
 * HTTP/2, on every engine: each event reaches the client as it is sent, and the connection's other
 * streams and control frames are served meanwhile. On the blocking engine, whose connection thread
 * reads frames, a body that may wait is read on a thread of its own: read inline, it held the answer's
 * HEADERS, every other stream and every PING ack until 64 KiB of events had piled up.
 */
class Http2EventStreamTest {
    private final CountDownLatch clientHasOne = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private Brisk app;

    private H2Conn start(Engine engine) throws Exception {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.get("/events", ctx -> ctx.sse(sink -> {
                sink.onClose(closed::countDown);
                sink.send(dev.brisk.SseEvent.of("one"));
                try {
                    if (clientHasOne.await(10, TimeUnit.SECONDS)) {
                        sink.send(dev.brisk.SseEvent.of("two"));
                        sink.close();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }).start();
        return new H2Conn(app.port());
    }

    @AfterEach
    void stop() {
        clientHasOne.countDown();
        if (app != null) {
            app.close();
        }
    }

    private static String text(H2Conn.Frame f) {
        return new String(f.payload(), StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void eachEventArrivesAsSentWhileTheConnectionServesOtherStreams(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/events");
            assertThat(c.await(Duration.ofSeconds(3), H2Conn.on(H2Conn.HEADERS, 1)).status()).isEqualTo(200);
            assertThat(text(c.await(Duration.ofSeconds(3), H2Conn.on(H2Conn.DATA, 1)))).isEqualTo("data: one\n\n");
            // the event stream is open and its producer waits: another stream and a PING are answered
            c.get(3, "/hello");
            assertThat(c.await(Duration.ofSeconds(3), H2Conn.on(H2Conn.HEADERS, 3)).status()).isEqualTo(200);
            c.ping(42);
            c.await(Duration.ofSeconds(3), f -> f.type() == H2Conn.PING && f.has(H2Conn.ACK));
            clientHasOne.countDown();
            H2Conn.Frame two = c.await(Duration.ofSeconds(3), f -> f.type() == H2Conn.DATA && f.stream() == 1
                    && f.payload().length > 0);
            assertThat(text(two)).isEqualTo("data: two\n\n");
            c.await(Duration.ofSeconds(3), f -> f.type() == H2Conn.DATA && f.stream() == 1 && f.has(H2Conn.END_STREAM));
            assertThat(closed.await(3, TimeUnit.SECONDS)).as("onClose ran").isTrue();
        }
    }

    /**
     * A graceful shutdown ends an open event stream after what it sent (END_STREAM, {@code onClose}), as
     * over HTTP/1.1, instead of waiting for it until the shutdown timeout: HTTP/2 sent its GOAWAY and
     * then waited for a stream that never ends.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aShutdownEndsAnOpenEventStream(Engine engine) throws Exception {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(20));
            cfg.get("/forever", ctx -> ctx.sse(sink -> {
                sink.onClose(closed::countDown);
                sink.data("open");
            }));
        }).start();
        try (H2Conn c = new H2Conn(app.port())) {
            c.get(1, "/forever");
            assertThat(text(c.await(Duration.ofSeconds(3), H2Conn.on(H2Conn.DATA, 1)))).isEqualTo("data: open\n\n");
            long start = System.nanoTime();
            Thread stopper = Thread.ofVirtual().start(app::close);
            c.await(Duration.ofSeconds(10), f -> f.type() == H2Conn.DATA && f.stream() == 1 && f.has(H2Conn.END_STREAM));
            assertThat(closed.await(5, TimeUnit.SECONDS)).as("onClose ran").isTrue();
            assertThat(stopper.join(Duration.ofSeconds(10))).as("the shutdown ended").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the shutdown did not wait for the stream")
                    .isLessThan(Duration.ofSeconds(10));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aClientThatCancelsTheStreamEndsIt(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/events");
            assertThat(text(c.await(Duration.ofSeconds(3), H2Conn.on(H2Conn.DATA, 1)))).isEqualTo("data: one\n\n");
            c.rst(1, 8); // CANCEL
            assertThat(closed.await(5, TimeUnit.SECONDS)).as("the sink learns the client left").isTrue();
            c.get(3, "/hello");
            assertThat(c.await(Duration.ofSeconds(3), H2Conn.on(H2Conn.HEADERS, 3)).status()).isEqualTo(200);
        }
    }
}
