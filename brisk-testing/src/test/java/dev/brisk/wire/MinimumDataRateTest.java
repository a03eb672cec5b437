package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Issue 14, minimum data rates ({@code min-body-rate}, {@code min-response-rate}), shrunk to a grace
 * and a window of one second each: a body arriving below its rate gets 408 and a close within the
 * grace (it never reaches the rate), a client taking a response below its rate is closed, both
 * counted; clients above the rates are never cut. Timeouts are left long, so that only a rate can cut.
 */
class MinimumDataRateTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;

        /** The grace and the window, plus up to 100 ms until the next check and slack for a busy machine. */
        static final long CUT_WITHIN_MILLIS = 1_000 + 1_000 + 1_200;
        static final byte[] BIG = new byte[8 << 20];

        private BriskTestServer start(long bodyRate, long responseRate) {
            return Wire.start(engine, cfg -> {
                cfg.options().minBodyRate(bodyRate).minResponseRate(responseRate)
                        .rateGrace(Duration.ofSeconds(1)).rateWindow(Duration.ofSeconds(1))
                        .bodyReadTimeout(Duration.ofSeconds(30)).writeTimeout(Duration.ofSeconds(30));
                cfg.post("/upload", ctx -> ctx.text(String.valueOf(ctx.body().length)));
                cfg.get("/big", ctx -> ctx.bytes(BIG));
            });
        }

        private static Socket connect(BriskTestServer t) throws java.io.IOException {
            return new Socket("127.0.0.1", t.port());
        }

        @Test
        void anUploadAtOneKibPerSecondAgainstEightIsCutWith408WithinTheGrace() throws Exception {
            try (BriskTestServer t = start(8 * 1024, 0); Socket s = connect(t)) {
                SlowPeers.Answer a = SlowPeers.pacedUpload(s, "/upload", 64 * 1024, 1024, Duration.ofSeconds(10));
                assertThat(a.status()).isEqualTo(408);
                assertThat(a.header("Connection")).isEqualTo("close");
                assertThat(a.millis()).as("cut at the end of the grace, not at the body-read timeout")
                        .isBetween(900L, CUT_WITHIN_MILLIS);
                assertThat(a.bytesSent()).isLessThan(8 * 1024);
                assertThat(a.closedAfter()).isTrue();
                assertThat(t.app().metrics().slowRequestBodies()).isEqualTo(1);
                assertThat(t.app().metrics().connectionsTimedOut()).isZero();
            }
        }

        @Test
        void anUploadAboveTheRateIsNeverCut() throws Exception {
            try (BriskTestServer t = start(8 * 1024, 0); Socket s = connect(t)) {
                // 64 KiB/s for 3 s: three windows past the grace
                SlowPeers.Answer a = SlowPeers.pacedUpload(s, "/upload", 192 * 1024, 64 * 1024, Duration.ofSeconds(10));
                assertThat(a.status()).isEqualTo(200);
                assertThat(a.body()).isEqualTo(String.valueOf(192 * 1024));
                assertThat(a.millis()).isGreaterThan(2_500L);
                assertThat(t.app().metrics().slowRequestBodies()).isZero();
            }
        }

        @Test
        void aReaderTakingOneBytePerSecondIsClosedWithinTheWindow() throws Exception {
            try (BriskTestServer t = start(0, 256 * 1024)) {
                long start = System.nanoTime();
                try (AutoCloseable reader = SlowPeers.oneBytePerSecond(new Socket(),
                        new InetSocketAddress("127.0.0.1", t.port()), "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")) {
                    assertThat(Wire.awaitNoConnections(t, 8_000)).as("connections left").isTrue();
                    long millis = (System.nanoTime() - start) / 1_000_000L;
                    assertThat(millis).isBetween(900L, CUT_WITHIN_MILLIS);
                }
                assertThat(t.app().metrics().slowResponses()).isEqualTo(1);
                assertThat(t.app().metrics().connectionsTimedOut()).isZero();
            }
        }

        /**
         * A reader cut for its rate is reset, not closed: the bytes the server's kernel still held for it
         * (up to a send buffer, megabytes) are dropped at once. Closed with a FIN, they stayed queued for as
         * long as the client went on trickling, and it got the whole answer in the end.
         */
        @Test
        void aReaderCutForItsRateIsResetAndItsUnsentBytesDropped() throws Exception {
            try (BriskTestServer t = start(0, 256 * 1024); Socket s = new Socket()) {
                s.setReceiveBufferSize(16 * 1024);
                s.connect(new InetSocketAddress("127.0.0.1", t.port()));
                s.getOutputStream().write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                assertThat(Wire.awaitNoConnections(t, 8_000)).as("cut").isTrue(); // reading nothing meanwhile
                long got = 0;
                boolean reset = false;
                s.setSoTimeout(5_000);
                byte[] buf = new byte[64 * 1024];
                try {
                    for (int n; (n = s.getInputStream().read(buf)) > 0; ) {
                        got += n;
                    }
                } catch (java.net.SocketException e) {
                    reset = true;
                }
                assertThat(reset).as("a reset, after %d bytes", got).isTrue();
                assertThat(got).as("the rest was dropped").isLessThan(BIG.length);
                assertThat(t.app().metrics().slowResponses()).isEqualTo(1);
            }
        }

        @Test
        void aReaderAboveTheRateIsNeverCut() {
            try (BriskTestServer t = start(0, 256 * 1024)) {
                for (int i = 0; i < 3; i++) {
                    HttpResponse<byte[]> r = t.getBytes("/big");
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.body()).hasSize(BIG.length);
                }
                assertThat(t.app().metrics().slowResponses()).isZero();
            }
        }
    }
}
