package dev.brisk.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import dev.brisk.wire.SlowPeers;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Issue 14, minimum data rates over TLS, on every engine: the body's rate is measured on the
 * plaintext the TLS wire hands up, the response's on the ciphertext the socket takes. Grace and window
 * of one second each, timeouts long.
 */
class TlsDataRateTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        static final long CUT_WITHIN_MILLIS = 1_000 + 1_000 + 1_200;
        static final byte[] BIG = new byte[8 << 20];
        static TestKeys.Key server;

        @Parameter
        Engine engine;

        private Brisk app;

        @BeforeAll
        static void keys() throws Exception {
            server = TestKeys.shared().server();
        }

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
                        .tlsPem(server.certPem(), server.keyPem())
                        .minBodyRate(bodyRate).minResponseRate(responseRate)
                        .rateGrace(Duration.ofSeconds(1)).rateWindow(Duration.ofSeconds(1))
                        .bodyReadTimeout(Duration.ofSeconds(30)).writeTimeout(Duration.ofSeconds(30));
                cfg.post("/upload", ctx -> ctx.text(String.valueOf(ctx.body().length)));
                cfg.get("/big", ctx -> ctx.bytes(BIG));
            }).start();
        }

        /** An unconnected TLS socket offering only HTTP/1.1's SNI name (no ALPN: HTTP/1.1). */
        private static SSLSocket tlsSocket() throws Exception {
            SSLContext ctx = server.trustingContext();
            SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket();
            SSLParameters p = s.getSSLParameters();
            p.setServerNames(List.of(new SNIHostName("localhost")));
            s.setSSLParameters(p);
            return s;
        }

        @Test
        void aSlowUploadOverTlsIsCutWith408() throws Exception {
            start(8 * 1024, 0);
            try (SSLSocket s = tlsSocket()) {
                s.connect(new InetSocketAddress("127.0.0.1", app.port()), 5_000);
                s.startHandshake();
                SlowPeers.Answer a = SlowPeers.pacedUpload(s, "/upload", 64 * 1024, 1024, Duration.ofSeconds(10));
                assertThat(a.status()).isEqualTo(408);
                assertThat(a.millis()).isBetween(900L, CUT_WITHIN_MILLIS);
                assertThat(a.closedAfter()).isTrue();
            }
            assertThat(app.metrics().slowRequestBodies()).isEqualTo(1);
        }

        @Test
        void aFastUploadOverTlsIsNotCut() throws Exception {
            start(8 * 1024, 0);
            try (SSLSocket s = tlsSocket()) {
                s.connect(new InetSocketAddress("127.0.0.1", app.port()), 5_000);
                s.startHandshake();
                SlowPeers.Answer a = SlowPeers.pacedUpload(s, "/upload", 128 * 1024, 64 * 1024, Duration.ofSeconds(10));
                assertThat(a.status()).isEqualTo(200);
                assertThat(a.body()).isEqualTo(String.valueOf(128 * 1024));
            }
            assertThat(app.metrics().slowRequestBodies()).isZero();
        }

        @Test
        void aSlowUploadOnAnHttp2StreamGets408() throws Exception {
            start(8 * 1024, 0);
            HttpClient c = HttpClient.newBuilder().sslContext(server.trustingContext())
                    .version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5)).build();
            try (SubmissionPublisher<ByteBuffer> body = new SubmissionPublisher<>()) {
                HttpRequest req = HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/upload"))
                        .timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.fromPublisher(body, 64 * 1024)).build();
                long start = System.nanoTime();
                CompletableFuture<HttpResponse<String>> answer = c.sendAsync(req, HttpResponse.BodyHandlers.ofString());
                Thread feeder = Thread.ofVirtual().start(() -> {
                    try {
                        // 1 KiB/s: 128 bytes every 125 ms (the pace is the behaviour under test), 8 s at most
                        for (int i = 0; i < 64 && !answer.isDone(); i++) {
                            body.offer(ByteBuffer.wrap(new byte[128]), 1, TimeUnit.SECONDS, null);
                            Thread.sleep(125);
                        }
                    } catch (InterruptedException e) {
                        // the test ended
                    }
                });
                HttpResponse<String> r = answer.get(10, TimeUnit.SECONDS);
                long millis = (System.nanoTime() - start) / 1_000_000L;
                feeder.join(Duration.ofSeconds(3));
                assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(r.statusCode()).isEqualTo(408);
                assertThat(millis).isBetween(900L, CUT_WITHIN_MILLIS);
            }
            assertThat(app.metrics().slowRequestBodies()).isEqualTo(1);
        }

        @Test
        void aReaderTakingOneBytePerSecondOverTlsIsClosed() throws Exception {
            start(0, 256 * 1024);
            long start = System.nanoTime();
            try (Socket s = tlsSocket(); AutoCloseable reader = SlowPeers.oneBytePerSecond(s,
                    new InetSocketAddress("127.0.0.1", app.port()), "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")) {
                assertThat(Wait.until(Duration.ofSeconds(8), () -> app.metrics().slowResponses() == 1)).isTrue();
                long millis = (System.nanoTime() - start) / 1_000_000L;
                assertThat(millis).isBetween(900L, CUT_WITHIN_MILLIS);
                assertThat(Wait.until(Duration.ofSeconds(3), () -> app.connectionCount() == 0)).isTrue();
            }
            assertThat(app.metrics().connectionsTimedOut()).isZero();
        }
    }
}
