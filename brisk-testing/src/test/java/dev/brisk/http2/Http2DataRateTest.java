package dev.brisk.http2;

import static dev.brisk.http2.H2Conn.HEADERS;
import static dev.brisk.http2.H2Conn.on;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Issue 14, minimum data rates on HTTP/2 (h2c), every engine, a grace and a window of one second: a
 * stream's body below {@code min-body-rate} is answered 408; a client that opens its flow-control
 * windows wide and then does not take what the socket holds for it is below {@code min-response-rate}
 * for the whole connection, which is closed. Timeouts are long, so that only a rate can cut.
 */
class Http2DataRateTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        static final long CUT_WITHIN_MILLIS = 1_000 + 1_000 + 1_200;
        static final int INITIAL_WINDOW_SIZE = 4;

        @Parameter
        Engine engine;

        private Brisk app;

        @AfterEach
        void stop() {
            if (app != null) {
                app.close();
            }
        }

        private void start(long bodyRate, long responseRate) {
            app = Brisk.create(cfg -> {
                engine.apply(cfg);
                cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1))
                        .minBodyRate(bodyRate).minResponseRate(responseRate)
                        .rateGrace(Duration.ofSeconds(1)).rateWindow(Duration.ofSeconds(1))
                        .bodyReadTimeout(Duration.ofSeconds(30)).writeTimeout(Duration.ofSeconds(30));
                cfg.post("/upload", ctx -> ctx.text(String.valueOf(ctx.body().length)));
                cfg.get("/big", ctx -> ctx.bytes(new byte[8 << 20]));
                // a streamed body: the handler reads as it arrives (its failure, a 408, mapped to the answer)
                cfg.post("/stream", ctx -> ctx.text(String.valueOf(ctx.bodyAsStream().readAllBytes().length))).streamBody();
            }).start();
        }

        /**
         * A streamed route's body (read by its handler as it arrives, on the event-loop engines) below the
         * rate is 408 too: it was measured only against the body-read timeout, so a trickle held the
         * stream, and the body memory reserved for its window, for as long as it went on.
         */
        @Test
        void aStreamedBodyBelowTheRateIs408() throws Exception {
            start(8 * 1024, 0);
            assertTrickleIsCutWith408("/stream");
        }

        @Test
        void aStreamsBodyBelowTheRateIs408() throws Exception {
            start(8 * 1024, 0);
            assertTrickleIsCutWith408("/upload");
        }

        /** POSTs to {@code path} at 1 KiB/s against a rate of 8: answered 408 within the grace and a window. */
        private void assertTrickleIsCutWith408(String path) throws Exception {
            try (H2Conn c = new H2Conn(app.port())) {
                long begin = System.nanoTime();
                c.headers(1, false, H2Conn.request("POST", path, "content-length", "65536"));
                java.util.concurrent.CompletableFuture<H2Conn.Frame> answer = new java.util.concurrent.CompletableFuture<>();
                Thread reader = Thread.ofVirtual().start(() -> {
                    try {
                        answer.complete(c.await(Duration.ofSeconds(10), on(HEADERS, 1)));
                    } catch (java.io.IOException | RuntimeException e) {
                        answer.completeExceptionally(e);
                    }
                });
                // 1 KiB/s: 128 bytes every 125 ms (the pace is the behaviour under test), 8 s at most
                for (int i = 0; i < 64 && !answer.isDone(); i++) {
                    c.data(1, false, new byte[128]);
                    Thread.sleep(125);
                }
                H2Conn.Frame head = answer.get(10, java.util.concurrent.TimeUnit.SECONDS);
                reader.join(Duration.ofSeconds(3));
                long millis = (System.nanoTime() - begin) / 1_000_000L;
                assertThat(head.status()).isEqualTo(408);
                assertThat(millis).isBetween(900L, CUT_WITHIN_MILLIS);
            }
            assertThat(app.metrics().slowRequestBodies()).isEqualTo(1);
        }

        @Test
        void aConnectionThatDoesNotTakeItsResponseIsClosed() throws Exception {
            start(0, 256 * 1024);
            try (H2Conn c = new H2Conn(app.port(), true, 1024)) {
                // windows wide open: only the socket holds the server back
                c.settings(INITIAL_WINDOW_SIZE, Integer.MAX_VALUE);
                c.windowUpdate(0, Integer.MAX_VALUE - 65_535);
                long begin = System.nanoTime();
                c.get(1, "/big");
                long deadline = begin + 8_000_000_000L;
                while ((app.metrics().slowResponses() == 0 || app.connectionCount() > 0) && System.nanoTime() < deadline) {
                    Thread.sleep(10); // polls the server's state; the client reads nothing
                }
                long millis = (System.nanoTime() - begin) / 1_000_000L;
                assertThat(app.metrics().slowResponses()).isEqualTo(1);
                assertThat(app.connectionCount()).isZero();
                assertThat(millis).isBetween(900L, CUT_WITHIN_MILLIS);
            }
            assertThat(app.metrics().connectionsTimedOut()).isZero();
        }

        /**
         * A client that keeps a stream's window shut (it never sends WINDOW_UPDATE) moves nothing: under
         * min-response-rate it is cut at the end of the grace, as a socket that takes nothing is, not only
         * after write-timeout (30 s here).
         */
        @Test
        void aStreamWhoseWindowStaysShutIsResetAtTheRatesGrace() throws Exception {
            start(0, 8 * 1024);
            try (H2Conn c = new H2Conn(app.port())) {
                long begin = System.nanoTime();
                c.get(1, "/big"); // 8 MiB against the default 65,535-byte window, never opened
                H2Conn.Frame reset = c.await(Duration.ofSeconds(10), on(H2Conn.RST_STREAM, 1));
                long millis = (System.nanoTime() - begin) / 1_000_000L;
                assertThat(reset.errorCode()).isEqualTo(8); // CANCEL
                assertThat(millis).isBetween(900L, CUT_WITHIN_MILLIS);
                c.get(3, "/big"); // the connection goes on: a new stream, its own window
                assertThat(c.await(Duration.ofSeconds(5), on(HEADERS, 3)).status()).isEqualTo(200);
            }
            assertThat(app.metrics().slowResponses()).isEqualTo(1);
        }
    }
}
