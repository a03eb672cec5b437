package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import dev.brisk.testing.RawConnection;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Read timeouts, shrunk to one second: a started head or body that stalls gets a 408 and a close; an
 * idle connection is closed silently. The server scans timeouts every 100 ms, so each fires within
 * about 1.1 s.
 */
class TimeoutTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;

        /** One second of timeout, up to 100 ms until the next scan, and some slack for a busy machine. */
        private static final long MAX_MILLIS = 1_700L;

        private BriskTestServer start() {
            return Wire.start(engine, cfg -> {
                cfg.options()
                        .headerReadTimeout(Duration.ofSeconds(1))
                        .idleTimeout(Duration.ofSeconds(1))
                        .bodyReadTimeout(Duration.ofSeconds(1));
                Wire.routes().accept(cfg);
            });
        }

        private static long millisSince(long startNanos) {
            return (System.nanoTime() - startNanos) / 1_000_000L;
        }

        @Test
        void partialHeadThenSilenceIs408ThenClose() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                long start = System.nanoTime();
                c.send("GET /hello HTTP/1.1\r\nHost: x\r\n");
                RawConnection.Response r = c.timeout(3_000).read();
                long elapsed = millisSince(start);
                assertThat(r.statusLine()).isEqualTo("HTTP/1.1 408 Request Timeout");
                assertThat(r.header("Connection")).isEqualTo("close");
                assertThat(elapsed).isBetween(800L, MAX_MILLIS);
                assertThat(c.closedWithin(1_000)).isTrue();
            }
        }

        @Test
        void headTrickledSlowlyIsStillLimitedByTheHeaderTimeout() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                long start = System.nanoTime();
                // bytes keep coming, but the whole head is not there within 1 s
                c.sendInPieces("GET /hello HTTP/1.1\r\nHost: x\r\nX-1: a\r\nX-2: b\r\n", 12, 250);
                RawConnection.Response r = c.timeout(3_000).read();
                long elapsed = millisSince(start);
                assertThat(r.status()).isEqualTo(408);
                assertThat(elapsed).as("not restarted by each piece").isBetween(800L, MAX_MILLIS);
                assertThat(c.closedWithin(1_000)).isTrue();
            }
        }

        @Test
        void partialSecondHeadOnAKeptAliveConnectionIs408() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hel");
                RawConnection.Response first = c.read();
                long start = System.nanoTime(); // before any assertion: the first one in a JVM can be slow
                assertThat(first.body()).isEqualTo("hello");
                RawConnection.Response r = c.timeout(3_000).read();
                assertThat(r.status()).isEqualTo(408);
                assertThat(millisSince(start)).isLessThan(MAX_MILLIS);
                assertThat(c.closedWithin(1_000)).isTrue();
            }
        }

        @Test
        void idleKeptAliveConnectionIsClosedWithoutAResponse() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                RawConnection.Response first = c.read();
                long start = System.nanoTime(); // before any assertion: the first one in a JVM can be slow
                assertThat(first.body()).isEqualTo("hello");
                c.timeout(3_000);
                assertThat(c.readAll()).as("nothing sent on an idle close").isEmpty();
                assertThat(millisSince(start)).isBetween(800L, MAX_MILLIS);
            }
        }

        @Test
        void connectionThatNeverSendsIsClosedWithoutAResponse() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                long start = System.nanoTime();
                c.timeout(3_000);
                assertThat(c.readAll()).isEmpty();
                assertThat(millisSince(start)).isLessThan(MAX_MILLIS);
            }
        }

        @Test
        void emptyLinesOnlyThenSilenceIs408() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                c.send("\r\n");
                RawConnection.Response r = c.timeout(3_000).read();
                assertThat(r.status()).isEqualTo(408);
                assertThat(c.closedWithin(1_000)).isTrue();
            }
        }

        @Test
        void partialContentLengthBodyThenSilenceIs408ThenClose() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello");
                long start = System.nanoTime();
                RawConnection.Response r = c.timeout(3_000).read();
                assertThat(r.statusLine()).isEqualTo("HTTP/1.1 408 Request Timeout");
                assertThat(r.header("Connection")).isEqualTo("close");
                assertThat(millisSince(start)).isBetween(800L, MAX_MILLIS);
                assertThat(c.closedWithin(1_000)).isTrue();
            }
        }

        @Test
        void partialChunkedBodyThenSilenceIs408ThenClose() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel");
                RawConnection.Response r = c.timeout(3_000).read();
                assertThat(r.status()).isEqualTo(408);
                assertThat(c.closedWithin(1_000)).isTrue();
            }
        }

        @Test
        void bodyTimeoutIsPerWaitNotForTheWholeBody() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\n");
                // 8 bytes over ~1.4 s, never more than 200 ms apart
                c.sendInPieces("abcdefgh", 1, 200);
                RawConnection.Response r = c.timeout(3_000).read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("abcdefgh");
            }
        }

        @Test
        void bodyAfter100ContinueThenSilenceIs408ThenClose() {
            try (BriskTestServer t = start(); RawConnection c = t.raw()) {
                c.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(100);
                c.send("hello");
                RawConnection.Response r = c.timeout(3_000).read();
                assertThat(r.status()).isEqualTo(408);
                assertThat(r.header("Connection")).isEqualTo("close");
                assertThat(c.closedWithin(1_000)).isTrue();
            }
        }

        /** A client that stops reading a large response is cut off once the write has stalled for the write timeout. */
        @Test
        void clientThatStopsReadingIsCutOffAfterTheWriteTimeout() throws InterruptedException {
            byte[] big = new byte[32 * 1024 * 1024]; // far more than the socket buffers hold
            try (BriskTestServer t = Wire.start(engine, cfg -> {
                    cfg.options().writeTimeout(Duration.ofSeconds(1));
                    cfg.get("/big", ctx -> ctx.bytes(big));
                }); RawConnection c = t.raw()) {
                c.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n"); // and never read
                long accepting = System.nanoTime();
                while (t.app().connectionCount() == 0 && millisSince(accepting) < 3_000) {
                    Thread.sleep(5); // until the server has accepted the connection (then it writes at once)
                }
                long start = System.nanoTime();
                while (t.app().connectionCount() > 0 && millisSince(start) < 6_000) {
                    Thread.sleep(20);
                }
                assertThat(t.app().connectionCount()).as("connections left").isZero();
                assertThat(millisSince(start)).isBetween(800L, 5_000L);
                assertThat(t.app().metrics().connectionsTimedOut()).isEqualTo(1);
            }
        }
    }
}
