package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Response trailers as HTTP/2 frames (RFC 9113 8.1): the body's DATA without END_STREAM, then a
 * HEADERS frame that ends the stream; no DATA at all for an empty body; a trailer supplier that fails
 * resets the stream. What the fields say is read by curl in {@code ResponseTrailersTest}.
 */
class Http2TrailersTest {
    private Brisk app;

    private H2Conn start(Engine engine) throws Exception {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/text", ctx -> ctx.text("hello").trailers(() -> Map.of("x-sum", "5")));
            cfg.get("/plain", ctx -> ctx.text("hello"));
            cfg.get("/large", ctx -> {
                byte[] body = new byte[100_000]; // more than a frame and the first window: sent from the queue
                Arrays.fill(body, (byte) 'y');
                ctx.bytes(body).trailers(() -> Map.of("x-sum", "100000"));
            });
            cfg.get("/empty", ctx -> ctx.bytes(new byte[0]).trailers(() -> Map.of("grpc-status", "0")));
            cfg.get("/throws", ctx -> ctx.text("partial").trailers(() -> {
                throw new IllegalStateException("no checksum today");
            }));
            cfg.head("/head", ctx -> ctx.text("hello").trailers(() -> Map.of("x-sum", "5")));
        }).start();
        return new H2Conn(app.port());
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theBodysDataThenAHeadersFrameThatEndsTheStream(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            for (String path : new String[] {"/text", "/large"}) {
                int id = path.equals("/text") ? 1 : 3;
                c.get(id, path);
                H2Conn.Frame head = c.await(H2Conn.on(H2Conn.HEADERS, id));
                assertThat(head.status()).isEqualTo(200);
                assertThat(head.has(H2Conn.END_STREAM)).as("the head does not end the stream").isFalse();
                // no content-length (static index 28, as a literal with that name index: 0x0f 0x0d)
                assertThat(indexOf(head.payload(), (byte) 0x0f, (byte) 0x0d)).as("no content-length with trailers").isEqualTo(-1);
                int data = 0;
                H2Conn.Frame f;
                while ((f = c.await(x -> x.stream() == id)).type() == H2Conn.DATA) {
                    assertThat(f.has(H2Conn.END_STREAM)).as("no DATA ends the stream").isFalse();
                    data += f.payload().length;
                    c.windowUpdate(0, f.payload().length);
                    c.windowUpdate(id, f.payload().length);
                }
                assertThat(data).as(path).isEqualTo(path.equals("/text") ? 5 : 100_000);
                assertThat(f.type()).as("the frame after the body").isEqualTo(H2Conn.HEADERS);
                assertThat(f.has(H2Conn.END_STREAM)).isTrue();
                assertThat(new String(f.payload(), StandardCharsets.ISO_8859_1)).doesNotContain(":status");
            }
        }
    }

    /** What the check for no {@code content-length} above looks for is there in an answer without trailers. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void anAnswerWithoutTrailersSaysItsLength(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/plain");
            H2Conn.Frame head = c.await(H2Conn.on(H2Conn.HEADERS, 1));
            assertThat(head.payload()).containsSequence((byte) 0x0f, (byte) 0x0d, (byte) 1, (byte) '5');
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anEmptyBodyHasNoDataAndAHeadHasNoTrailers(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/empty");
            H2Conn.Frame head = c.await(H2Conn.on(H2Conn.HEADERS, 1));
            assertThat(head.has(H2Conn.END_STREAM)).isFalse();
            H2Conn.Frame next = c.await(x -> x.stream() == 1);
            assertThat(next.type()).isEqualTo(H2Conn.HEADERS);
            assertThat(next.has(H2Conn.END_STREAM)).isTrue();
            c.headers(3, true, H2Conn.request("HEAD", "/head"));
            H2Conn.Frame headAnswer = c.await(H2Conn.on(H2Conn.HEADERS, 3));
            assertThat(headAnswer.has(H2Conn.END_STREAM)).as("a HEAD's answer is its head alone").isTrue();
        }
    }

    /** Where {@code seq} starts in {@code a}, or -1. */
    private static int indexOf(byte[] a, byte... seq) {
        outer:
        for (int i = 0; i + seq.length <= a.length; i++) {
            for (int j = 0; j < seq.length; j++) {
                if (a[i + j] != seq[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aFailingSupplierResetsTheStreamAndTheConnectionGoesOn(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/throws");
            H2Conn.Frame reset = c.await(H2Conn.on(H2Conn.RST_STREAM, 1));
            assertThat(reset.errorCode()).isEqualTo(2); // INTERNAL_ERROR
            c.get(3, "/text");
            assertThat(c.statuses(3).get(3)).isEqualTo(200);
        }
    }
}
