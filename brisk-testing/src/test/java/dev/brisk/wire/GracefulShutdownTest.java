package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.Dispatch;
import dev.brisk.SseEvent;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import dev.brisk.testing.RawConnection;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Closing the app: an in-flight request is finished with Connection: close; an idle connection is
 * closed after the drain's grace, and a request that arrives on it within the grace is answered.
 */
class GracefulShutdownTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;


        @Test
        void inFlightRequestFinishesWithConnectionCloseAndIdleConnectionIsClosed() throws Exception {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            BriskTestServer t = Wire.start(engine, cfg -> {
                cfg.options().drainGrace(java.time.Duration.ofMillis(100));
                cfg.get("/hello", ctx -> ctx.text("hello"));
                cfg.get("/wait", ctx -> {
                    entered.countDown();
                    try {
                        release.await(5, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    ctx.text("done");
                });
            });
            int port = t.port();
            Thread closer = new Thread(t::close, "test-closer");
            try (RawConnection busy = t.raw(); RawConnection idle = t.raw()) {
                idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(idle.read().body()).isEqualTo("hello");

                busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
                closer.start();

                assertThat(idle.closedWithin(1_000)).as("idle keep-alive connection closed at shutdown").isTrue();
                // the drain has begun for the whole server (its listener is closed), not only on the idle
                // connection's I/O loop, before the in-flight request is answered
                Wire.awaitRefused(port);
                release.countDown();
                RawConnection.Response r = busy.timeout(3_000).read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("done");
                assertThat(r.header("Connection")).isEqualTo("close");
                Wire.assertNothingMoreAndClosed(busy);
            } finally {
                release.countDown();
                closer.join(5_000);
                t.close();
            }
        }

        @Test
        void aRequestSentOnAnIdleConnectionInTheGraceIsAnsweredThenTheConnectionCloses() throws Exception {
            BriskTestServer t = Wire.start(engine, cfg -> {
                cfg.options().drainGrace(java.time.Duration.ofSeconds(2)).shutdownTimeout(java.time.Duration.ofSeconds(5));
                cfg.get("/hello", ctx -> ctx.text("hello"));
            });
            int port = t.port();
            Thread closer = new Thread(t::close, "test-closer");
            try (RawConnection idle = t.raw(); RawConnection quiet = t.raw()) {
                idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                RawConnection.Response first = idle.read();
                assertThat(first.header("Connection")).isNull(); // keep-alive: the client may send again
                quiet.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(quiet.read().body()).isEqualTo("hello");
                long t0 = System.nanoTime();
                closer.start();
                Wire.awaitRefused(port); // the drain has begun: the listener is closed
                // the client did not know yet: its next request arrives during the grace and is answered
                idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                RawConnection.Response r = idle.timeout(1_500).read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("hello");
                assertThat(r.header("Connection")).isEqualTo("close");
                Wire.assertNothingMoreAndClosed(idle);
                // the connection that stayed quiet is closed when the grace ends, not before
                assertThat(quiet.closedWithin(5_000)).isTrue();
                assertThat((System.nanoTime() - t0) / 1_000_000).as("ms until the quiet one closed").isGreaterThanOrEqualTo(1_900);
                closer.join(5_000);
                assertThat(closer.isAlive()).isFalse();
            } finally {
                closer.join(5_000);
                t.close();
            }
        }

        /**
         * A server whose {@code GET /wait} holds its request until {@link #release}, and the thread that closes
         * it: the drain begins with that request in flight ({@link #drainWhileHeld}).
         */
        private final class Held implements AutoCloseable {
            final CountDownLatch entered = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final BriskTestServer t;
            final Thread closer;

            Held(Dispatch waitDispatch, Consumer<BriskConfig> routes) {
                t = Wire.start(engine, cfg -> {
                    cfg.options().drainGrace(Duration.ofSeconds(2)).shutdownTimeout(Duration.ofSeconds(20));
                    var wait = cfg.get("/wait", ctx -> {
                        entered.countDown();
                        release.await(5, TimeUnit.SECONDS);
                        ctx.text("done");
                    });
                    if (waitDispatch != null) {
                        wait.dispatch(waitDispatch);
                    }
                    routes.accept(cfg);
                });
                closer = new Thread(t::close, "test-closer");
            }

            /** Once {@code /wait} is in its handler: starts closing, and returns when the drain has begun. */
            void drainWhileHeld() throws InterruptedException {
                assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
                closer.start();
                Wire.awaitRefused(t.port()); // the listener is closed: the drain has begun
            }

            /** Lets {@code /wait} answer, then expects the close to end within {@code millis}. */
            void releaseAndAwaitClosed(int millis) throws InterruptedException {
                release.countDown();
                closer.join(millis);
            }

            @Override
            public void close() throws InterruptedException {
                release.countDown();
                closer.join(5_000);
                t.close();
            }
        }

        /**
         * Requests pipelined behind the one in flight when the drain begins were sent before their client
         * could know of it: each is answered, keep-alive, and only the last answer says
         * {@code Connection: close}. A request sent once the connection has seen the drain (here: after its
         * first answer) is not served, so a client that keeps sending cannot hold the drain open.
         */
        @Test
        void pipelinedRequestsReceivedBeforeTheDrainAreEachAnswered() throws Exception {
            AtomicInteger late = new AtomicInteger();
            try (Held h = new Held(null, cfg -> {
                cfg.get("/hello", ctx -> ctx.text("hello"));
                cfg.get("/late", ctx -> {
                    late.incrementAndGet();
                    ctx.text("late");
                });
                cfg.post("/echo", ctx -> ctx.text(ctx.bodyAsString()));
            }); RawConnection busy = h.t.raw()) {
                busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n"
                        + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n" // with the first: a pipeline run on a loop
                        + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                        + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nthird"
                        + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nfourth");
                h.drainWhileHeld();
                h.release.countDown();
                RawConnection.Response first = busy.timeout(3_000).read();
                assertThat(first.body()).isEqualTo("done");
                assertThat(first.header("Connection")).as("more was received before the drain").isNull();
                busy.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n");
                assertAnswersThenClosed(busy, "hello", "hello", "third", "fourth");
                h.releaseAndAwaitClosed(5_000);
                assertThat(h.closer.isAlive()).isFalse();
                assertThat(late.get()).as("handlers run for a request sent after the drain was seen").isZero();
            }
        }

        /**
         * An {@code Upgrade} received behind a request in flight when the drain begins is declined (no new
         * protocol starts in a drain), and what its client sent after it is not read as requests: the 503 is
         * the connection's last answer.
         */
        @Test
        void anUpgradeReceivedBeforeTheDrainIsDeclinedAndEndsTheConnection() throws Exception {
            try (Held h = new Held(null, cfg -> cfg.ws("/ws", w -> w.onText((session, text) -> session.sendText(text))));
                 RawConnection busy = h.t.raw()) {
                busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n"
                        + "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                        + "\u0081\u0082abcd\u0009\u000b"); // a masked text frame "hi": bytes after the Upgrade request
                h.drainWhileHeld();
                h.release.countDown();
                assertThat(busy.timeout(3_000).read().body()).isEqualTo("done");
                RawConnection.Response declined = busy.timeout(3_000).read();
                assertThat(declined.status()).isEqualTo(503);
                assertThat(declined.header("Connection")).isEqualTo("close");
                Wire.assertNothingMoreAndClosed(busy);
                h.releaseAndAwaitClosed(5_000);
                assertThat(h.closer.isAlive()).isFalse();
            }
        }

        /**
         * An event stream received behind a request in flight when the drain begins ends as it starts, as
         * one begun before the drain does: it does not hold the drain open until {@code shutdown-timeout}.
         */
        @Test
        void anEventStreamReceivedBeforeTheDrainEndsAsItStarts() throws Exception {
            try (Held h = new Held(null, cfg -> cfg.get("/events", ctx -> ctx.sse(sink -> {
                try {
                    for (int i = 0; i < 400 && sink.send(SseEvent.of("tick " + i)); i++) {
                        Thread.sleep(50); // the stream's own pace, not a wait in the test
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }))); RawConnection busy = h.t.raw()) {
                busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\nGET /events HTTP/1.1\r\nHost: x\r\n\r\n");
                h.drainWhileHeld();
                long t0 = System.nanoTime();
                h.release.countDown();
                assertThat(busy.timeout(3_000).read().body()).isEqualTo("done");
                RawConnection.Response events = busy.timeout(5_000).read(); // whole: the stream ended
                assertThat(events.status()).isEqualTo(200);
                assertThat(events.header("Connection")).isEqualTo("close");
                Wire.assertNothingMoreAndClosed(busy);
                assertThat((System.nanoTime() - t0) / 1_000_000).as("ms until the stream ended").isLessThan(5_000);
                h.releaseAndAwaitClosed(10_000);
                assertThat(h.closer.isAlive()).isFalse();
            }
        }

        /**
         * A handler on the event loop, or on a blocking engine's connection thread, keeps that thread from
         * reading: requests that arrived meanwhile, sent before the client could know of the drain, are read
         * when the drain is seen (only what is there: a blocking read must not wait) and answered.
         */
        @Test
        void requestsArrivingWhileAHandlerHoldsTheLoopAreAnswered() throws Exception {
            // io_uring's listener is closed by its loop, which the handler holds, so the test could not see the
            // drain begin (the protocol is the same as NIO's)
            Assumptions.assumeTrue(engine != Engine.URING, "not io_uring");
            try (Held h = new Held(Dispatch.EVENT_LOOP,
                    cfg -> cfg.get("/hello", ctx -> ctx.text("hello")).dispatch(Dispatch.EVENT_LOOP));
                 RawConnection busy = h.t.raw()) {
                busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(h.entered.await(5, TimeUnit.SECONDS)).isTrue();
                busy.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                h.drainWhileHeld();
                h.release.countDown();
                assertAnswersThenClosed(busy, "done", "hello", "hello");
            }
        }

        /**
         * The drain's look at the wire reads into the buffer that the head of the request in flight may still
         * be borrowed from (a handler on the loop, or on a blocking engine's connection thread), and a full
         * buffer is compacted: the head is copied first, so its answer still echoes its {@code X-Request-Id}.
         */
        @Test
        void theDrainsLookAtTheWireLeavesTheRequestInFlightItsHead() throws Exception {
            Assumptions.assumeTrue(engine != Engine.URING, "not io_uring"); // as above: the drain could not be seen begin
            try (Held h = new Held(Dispatch.EVENT_LOOP, cfg -> {
                cfg.options().requestIds(true);
                cfg.get("/x", ctx -> ctx.text("x")).dispatch(Dispatch.EVENT_LOOP);
            }); RawConnection busy = h.t.raw()) {
                busy.send("GET /wait HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc123\r\n\r\n");
                assertThat(h.entered.await(5, TimeUnit.SECONDS)).isTrue();
                busy.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n".repeat(700)); // about 20 KiB: more than the buffer holds
                h.drainWhileHeld();
                h.release.countDown();
                RawConnection.Response first = busy.timeout(3_000).read();
                assertThat(first.body()).isEqualTo("done");
                assertThat(first.header("X-Request-Id")).isEqualTo("abc123");
            }
        }

        /** Reads answers with these bodies, in order, only the last saying {@code Connection: close}; then the end. */
        private static void assertAnswersThenClosed(RawConnection c, String... bodies) {
            for (int i = 0; i < bodies.length; i++) {
                RawConnection.Response r = c.timeout(3_000).read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(bodies[i]);
                assertThat(r.header("Connection")).as("answer %d", i + 1).isEqualTo(i == bodies.length - 1 ? "close" : null);
            }
            Wire.assertNothingMoreAndClosed(c);
        }

        /**
         * A request refused during the drain (here: its wait in the admission queue times out, with its body
         * read and without one) says {@code Connection: close} like every other answer then: said keep-alive,
         * its client could send again just as the drain closes the connection.
         */
        @Test
        void aRequestShedDuringTheDrainSaysConnectionClose() throws Exception {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            BriskTestServer t = Wire.start(engine, cfg -> {
                cfg.options().maxConcurrentRequests(1).requestQueueSize(2)
                        .requestQueueTimeout(java.time.Duration.ofMillis(600))
                        .drainGrace(java.time.Duration.ofSeconds(2)).shutdownTimeout(java.time.Duration.ofSeconds(5));
                cfg.get("/wait", ctx -> {
                    entered.countDown();
                    release.await(5, TimeUnit.SECONDS);
                    ctx.text("done");
                });
                cfg.post("/echo", ctx -> ctx.text(ctx.bodyAsString()));
            });
            int port = t.port();
            Thread closer = new Thread(t::close, "test-closer");
            try (RawConnection busy = t.raw(); RawConnection withBody = t.raw(); RawConnection without = t.raw()) {
                busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
                withBody.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
                without.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
                for (int i = 0; i < 200 && t.app().metrics().queued() < 2; i++) {
                    Thread.sleep(10);
                }
                assertThat(t.app().metrics().queued()).isEqualTo(2);
                closer.start();
                Wire.awaitRefused(port); // the drain has begun; the queue's timeout comes after
                for (RawConnection c : new RawConnection[] {withBody, without}) {
                    RawConnection.Response r = c.timeout(3_000).read();
                    assertThat(r.status()).isEqualTo(503);
                    assertThat(r.header("Connection")).isEqualTo("close");
                    Wire.assertNothingMoreAndClosed(c);
                }
                release.countDown();
                RawConnection.Response r = busy.timeout(3_000).read();
                assertThat(r.body()).isEqualTo("done");
                assertThat(r.header("Connection")).isEqualTo("close");
            } finally {
                release.countDown();
                closer.join(5_000);
                t.close();
            }
        }
    }
}
