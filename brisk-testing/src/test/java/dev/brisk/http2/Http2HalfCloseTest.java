package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import dev.brisk.testing.Within;
import dev.brisk.tls.TestKeys;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;

/**
 * An h2c client that sends its requests and then half-closes its side of the TCP connection (as a
 * script, a proxy or {@code nghttp} may) still gets an answer to every request it sent whole, then a
 * {@code GOAWAY} and the end of the stream, as an HTTP/1.1 client does; a request it left unfinished is
 * reset and does not hold the connection open; a connection error the last frames make is still sent.
 * Found by {@link Http2ServerFuzzTest}: on the selector and io_uring engines the end of the stream closed
 * the connection at once, and answers whose handlers had not finished were lost; on io_uring, where the end
 * of the stream can arrive before the frames handed over with the wire are read, nothing at all was sent.
 */
@Timeout(60)
class Http2HalfCloseTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;

        private Brisk app;
        private static final int ROUNDS = 20;
        private final java.util.concurrent.CountDownLatch streamClosed = new java.util.concurrent.CountDownLatch(ROUNDS);
        private static TestKeys.Key key;

        @BeforeAll
        static void keys() throws Exception {
            key = TestKeys.shared().server();
        }

        @AfterEach
        void stop() {
            if (app != null) {
                app.close();
            }
        }

        private void start() {
            start(false);
        }

        private void start(boolean tls) {
            app = Brisk.create(cfg -> {
                engine.apply(cfg);
                cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
                if (tls) {
                    cfg.options().tlsPem(key.certPem(), key.keyPem());
                }
                cfg.get("/hello", ctx -> ctx.text("hello"));
                cfg.post("/echo", ctx -> ctx.bytes(ctx.body()));
                cfg.post("/big", ctx -> ctx.bytes(new byte[ctx.body().length * 8])); // past the connection's window
                cfg.get("/forever", ctx -> ctx.sse(sink -> {
                    sink.onClose(streamClosed::countDown);
                    sink.data("open");
                }));
                cfg.get("/slow", ctx -> {
                    Thread.sleep(50); // the answer is made after the client's end of stream has arrived
                    ctx.text("slow");
                });
            }).start();
        }

        /** What came back on one connection: each stream's status, DATA as text, and how it ended. */
        record Answers(Map<Integer, Integer> statuses, Map<Integer, String> bodies, Map<Integer, Integer> resets,
                List<Integer> goAways) {
        }

        private Answers halfClose(byte[] frames) throws Exception {
            return halfClose(new Socket("127.0.0.1", app.port()), frames);
        }

        /**
         * Over TLS 1.3 with ALPN {@code h2}: {@code shutdownOutput} sends {@code close_notify}, which ends the
         * client's side only (RFC 8446 6.1), so the server may still answer.
         */
        private Answers halfCloseOverTls(byte[] frames) throws Exception {
            SSLSocket s = (SSLSocket) key.trustingContext().getSocketFactory().createSocket("127.0.0.1", app.port());
            try {
                s.setSoTimeout(5_000);
                SSLParameters p = s.getSSLParameters();
                p.setApplicationProtocols(new String[] {"h2"});
                p.setProtocols(new String[] {"TLSv1.3"});
                s.setSSLParameters(p);
                s.startHandshake();
                assertThat(s.getApplicationProtocol()).isEqualTo("h2");
            } catch (Exception | AssertionError e) {
                s.close();
                throw e;
            }
            return halfClose(s, frames);
        }

        private Answers halfClose(Socket socket, byte[] frames) throws Exception {
            try (Socket s = socket) {
                s.setSoTimeout(5_000);
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                b.writeBytes(H2Conn.encode(H2Conn.SETTINGS, 0, 0, new byte[0]));
                b.writeBytes(frames);
                s.getOutputStream().write(b.toByteArray());
                s.shutdownOutput();
                ByteBuffer in = ByteBuffer.wrap(s.getInputStream().readAllBytes()); // to the server's end of stream
                Answers a = new Answers(new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), new ArrayList<>());
                while (in.remaining() >= 9) {
                    int length = (in.get() & 0xff) << 16 | (in.get() & 0xff) << 8 | in.get() & 0xff;
                    int type = in.get() & 0xff;
                    in.get();
                    int stream = in.getInt() & 0x7fffffff;
                    byte[] p = new byte[length];
                    in.get(p);
                    H2Conn.Frame f = new H2Conn.Frame(type, 0, stream, p);
                    switch (type) {
                        case H2Conn.HEADERS -> a.statuses().put(stream, f.status());
                        case H2Conn.DATA -> a.bodies().merge(stream, new String(p, StandardCharsets.UTF_8), String::concat);
                        case H2Conn.RST_STREAM -> a.resets().put(stream, f.errorCode());
                        case H2Conn.GOAWAY -> a.goAways().add(f.errorCode());
                        default -> {
                        }
                    }
                }
                assertThat(in.remaining()).as("a frame cut short").isZero();
                return a;
            }
        }

        private boolean blocking() {
            return engine == Engine.BLOCKING_VIRTUAL || engine == Engine.BLOCKING_PLATFORM;
        }

        private static byte[] frames(byte[]... f) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (byte[] x : f) {
                b.writeBytes(x);
            }
            return b.toByteArray();
        }

        private static byte[] get(int stream, String path) {
            return H2Conn.encode(H2Conn.HEADERS, H2Conn.END_STREAM | H2Conn.END_HEADERS, stream, H2Conn.request("GET", path));
        }

        @Test
        void everyRequestSentWholeBeforeTheHalfCloseIsAnswered() throws Exception {
            start();
            byte[] requests = frames(get(1, "/hello"), get(3, "/slow"),
                    H2Conn.encode(H2Conn.HEADERS, H2Conn.END_HEADERS, 5, H2Conn.request("POST", "/echo")),
                    H2Conn.encode(H2Conn.DATA, H2Conn.END_STREAM, 5, "ping".getBytes(StandardCharsets.UTF_8)));
            for (int round = 0; round < 20; round++) {
                Answers a = halfClose(requests);
                assertThat(a.statuses()).as("round %d", round).isEqualTo(Map.of(1, 200, 3, 200, 5, 200));
                assertThat(a.bodies()).as("round %d", round).isEqualTo(Map.of(1, "hello", 3, "slow", 5, "ping"));
                assertThat(a.resets()).as("round %d", round).isEmpty();
                if (blocking()) {
                    // a blocking connection closes at the end of the stream, its answers written inline
                    assertThat(a.goAways()).as("round %d: the connection ends without an error", round).allMatch(code -> code == 0);
                } else {
                    assertThat(a.goAways()).as("round %d: a final GOAWAY, no error", round).containsExactly(H2Conn.NO_ERROR);
                }
            }
        }

        /**
         * An event stream, which never ends by itself, ends once its client has ended its side, as on
         * HTTP/1.1 (a client that half-closed is taken to have gone): what was sent (maybe nothing yet), then
         * the end of the stream; its handler runs and its sink's {@code onClose} with it, every round. On the
         * blocking engine, where the connection closes at the end of the stream, the stream was often closed
         * before its first read and its handler (so its {@code onClose}) never ran.
         */
        @Test
        void anEventStreamEndsWhenItsClientHalfCloses() throws Exception {
            start();
            for (int round = 0; round < ROUNDS; round++) {
                Answers a = halfClose(frames(get(1, "/forever"), get(3, "/hello"))); // fails on a read timeout if it never ends
                assertThat(a.statuses()).as("round %d", round).isEqualTo(Map.of(1, 200, 3, 200));
                assertThat(a.bodies()).as("round %d", round).containsEntry(3, "hello");
            }
            assertThat(streamClosed.await(5, java.util.concurrent.TimeUnit.SECONDS))
                    .as("every sink learned its stream ended (%d left)", streamClosed.getCount()).isTrue();
        }

        @Test
        void overTlsEveryRequestSentWholeBeforeTheClientsCloseNotifyIsAnswered() throws Exception {
            start(true);
            byte[] requests = frames(get(1, "/hello"), get(3, "/slow"));
            for (int round = 0; round < 5; round++) {
                Answers a = halfCloseOverTls(requests);
                assertThat(a.statuses()).as("round %d", round).isEqualTo(Map.of(1, 200, 3, 200));
                assertThat(a.bodies()).as("round %d", round).isEqualTo(Map.of(1, "hello", 3, "slow"));
            }
        }

        /** On io_uring the end of the stream closed the connection before its queued frames were written: nothing at all came back. */
        @Test
        void aConnectionErrorFoundAtTheHalfCloseIsStillSent() throws Exception {
            start();
            byte[] badIndex = {(byte) 0xff, 0x7f}; // an indexed field far beyond both tables
            for (int round = 0; round < 20; round++) {
                Answers a = halfClose(H2Conn.encode(H2Conn.HEADERS, H2Conn.END_STREAM | H2Conn.END_HEADERS, 1, badIndex));
                assertThat(a.goAways()).as("round %d", round).containsExactly(H2Conn.COMPRESSION_ERROR);
                assertThat(a.statuses()).as("round %d", round).isEmpty();
            }
        }

        /**
         * An answer larger than the connection's window, whose client half-closed without opening it:
         * nothing can open it any more, so the stream is reset and its body's memory given back at once,
         * not when the window stall rule's grace (5 s by default; write-timeout without a response rate)
         * ends it.
         */
        @Test
        void anAnswerWaitingForAWindowAfterTheHalfCloseIsResetAtOnce() throws Exception {
            start();
            for (int round = 0; round < 3; round++) {
                long start = System.nanoTime();
                Answers a = halfClose(frames(
                        H2Conn.encode(H2Conn.HEADERS, H2Conn.END_HEADERS, 1, H2Conn.request("POST", "/big",
                                "content-length", "30000")),
                        H2Conn.encode(H2Conn.DATA, 0, 1, new byte[15_000]), // frames of at most 16 KiB
                        H2Conn.encode(H2Conn.DATA, H2Conn.END_STREAM, 1, new byte[15_000])));
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("round %d: ended without waiting for a timeout",
                        round).isLessThan(Duration.ofSeconds(3));
                assertThat(a.statuses()).as("round %d", round).isEqualTo(Map.of(1, 200));
                if (!blocking()) {
                    // a blocking connection closes at the end of the stream, whatever waits
                    assertThat(a.resets()).as("round %d", round).isEqualTo(Map.of(1, H2Conn.CANCEL));
                }
                Within.within(3_000, () -> app.metrics().bodyMemoryReserved() == 0);
                assertThat(app.metrics().bodyMemoryReserved()).as("round %d: the body's memory given back", round).isZero();
            }
        }

        @Test
        void aRequestLeftUnfinishedIsResetAndHoldsNothingOpen() throws Exception {
            start();
            long start = System.nanoTime();
            Answers a = halfClose(frames(get(1, "/slow"),
                    H2Conn.encode(H2Conn.HEADERS, H2Conn.END_HEADERS, 3, H2Conn.request("POST", "/echo")),
                    H2Conn.encode(H2Conn.DATA, 0, 3, "half a bo".getBytes(StandardCharsets.UTF_8))));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("closed without waiting for a timeout")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(a.statuses()).containsEntry(1, 200);
            assertThat(a.bodies()).containsEntry(1, "slow");
            assertThat(a.statuses()).doesNotContainKey(3);
            if (!blocking()) {
                // a blocking connection closes at the end of the stream: its inline handlers have answered
                assertThat(a.resets()).isEqualTo(Map.of(3, H2Conn.CANCEL));
            }
        }
    }
}
