package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import dev.brisk.testing.Within;
import dev.brisk.tls.TestKeys;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 17: a {@code streamBody()} route's request body over HTTP/2 (h2 over TLS, the JDK
 * {@link HttpClient}). On the event-loop engines the handler reads the body as it arrives, the server
 * holding no more than the stream's window of it; on the blocking engine, whose streams run on the
 * connection's own thread, the body is collected first within the route's limit. Either way the bytes
 * arrive whole and in order, the route's limit answers {@code 413}, and the memory is given back.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class Http2StreamedBodyTest {
    private static final int SIZE = 12 << 20;
    private static final byte[] UPLOAD = new byte[SIZE];

    static {
        new Random(19).nextBytes(UPLOAD);
    }

    @Parameter
    Engine engine;

    private Brisk app;
    private TestKeys.Key key;
    private final AtomicLong maxReserved = new AtomicLong();
    private final CountDownLatch handlerReadOneMiB = new CountDownLatch(1);

    @BeforeEach
    void start() throws Exception {
        key = TestKeys.shared().server();
        AtomicReference<Brisk> self = new AtomicReference<>();
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(2))
                    .tlsPem(key.certPem(), key.keyPem());
            cfg.post("/digest", ctx -> {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                long n = 0;
                byte[] buf = new byte[16 * 1024];
                try (InputStream in = ctx.bodyAsStream()) {
                    for (int r; (r = in.read(buf)) >= 0; ) {
                        sha.update(buf, 0, r);
                        n += r;
                        maxReserved.accumulateAndGet(self.get().metrics().bodyMemoryReserved(), Math::max);
                        if (n >= 1 << 20) {
                            handlerReadOneMiB.countDown();
                        }
                    }
                }
                ctx.text(n + " " + HexFormat.of().formatHex(sha.digest()));
            }).streamBody().maxBodySize(64 << 20);
            cfg.post("/small", ctx -> {
                try (InputStream in = ctx.bodyAsStream()) {
                    in.transferTo(OutputStreamNull.INSTANCE);
                }
                ctx.text("read all");
            }).streamBody().maxBodySize(1 << 20);
        });
        self.set(app);
        app.start();
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private boolean streams() {
        return engine == Engine.NIO || engine == Engine.URING;
    }

    private HttpClient client() throws Exception {
        return HttpClient.newBuilder().sslContext(key.trustingContext()).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void theHandlerReadsTheBodyAsItArrivesWithinTheStreamsWindow() throws Exception {
        AtomicBoolean readBeforeTheUploadEnded = new AtomicBoolean();
        // on the event-loop engines the upload waits after 4 MiB until the handler has read 1 MiB: a
        // server that collected the body first would never let that happen
        InputStream source = new InputStream() {
            private int pos;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= SIZE) {
                    return -1;
                }
                if (pos == 4 << 20 && streams()) {
                    try {
                        readBeforeTheUploadEnded.set(handlerReadOneMiB.await(10, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                int n = Math.min(len, Math.min(SIZE - pos, pos < 4 << 20 ? (4 << 20) - pos : SIZE - pos));
                System.arraycopy(UPLOAD, pos, b, off, n);
                pos += n;
                return n;
            }
        };
        HttpResponse<String> r = client().send(HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/digest"))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> source)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.statusCode()).isEqualTo(200);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(UPLOAD));
        assertThat(r.body()).isEqualTo(SIZE + " " + sha);
        if (streams()) {
            assertThat(readBeforeTheUploadEnded.get()).as("the handler read 1 MiB while the upload waited").isTrue();
            assertThat(maxReserved.get()).as("body memory held while reading: one stream window, not the body")
                    .isLessThanOrEqualTo(app.options().http2().initialWindowSize());
        }
        awaitNoBodyMemory();
    }

    @Test
    void aStreamedBodyOverTheRoutesLimitIs413() throws Exception {
        byte[] three = new byte[3 << 20];
        HttpResponse<String> r = client().send(HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/small"))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(three))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.body()).contains("larger than " + (1 << 20));
        // the connection goes on: a body within the limit on the same client
        HttpResponse<String> ok = client().send(HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/small"))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[100_000])).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("read all");
        awaitNoBodyMemory();
    }

    private void awaitNoBodyMemory() throws InterruptedException {
        Within.within(10_000, () -> app.metrics().bodyMemoryReserved() == 0);
        assertThat(app.metrics().bodyMemoryReserved()).as("every body's memory given back").isZero();
    }

    /** Discards what it is given. */
    private static final class OutputStreamNull extends java.io.OutputStream {
        static final OutputStreamNull INSTANCE = new OutputStreamNull();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
        }
    }
}
