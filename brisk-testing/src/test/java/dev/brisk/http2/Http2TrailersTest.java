package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import dev.brisk.testing.Tools;
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
            }
        }
    }

    /**
     * What the fields say, decoded by nghttp (nghttp2's client, installed with h2load): the trailers after
     * the DATA, in the HEADERS frame that ends the stream, and no {@code content-length} in the head, for
     * an answer sent at once, one sent from the queue and one whose body is empty; the answer without
     * trailers says its length.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void nghttpDecodesTheTrailerFields(Engine engine) throws Exception {
        Tools.need("nghttp", "BRISK_REQUIRE_H2LOAD", "nghttp2-client, with h2load");
        start(engine).close();
        String base = "http://127.0.0.1:" + app.port();
        for (String[] c : new String[][] {{"/text", "x-sum: 5"}, {"/large", "x-sum: 100000"}, {"/empty", "grpc-status: 0"}}) {
            String out = nghttp(base + c[0]);
            assertThat(out).as(c[0]).contains("recv (stream_id=N) :status: 200").contains("recv (stream_id=N) " + c[1])
                    .doesNotContain("content-length");
            // the fields come in the stream's last frame: a HEADERS frame with END_STREAM (0x01) and END_HEADERS (0x04)
            assertThat(out.indexOf("recv (stream_id=N) " + c[1])).as(c[0])
                    .isGreaterThan(out.lastIndexOf("recv (stream_id=N) :status"))
                    .isLessThan(out.lastIndexOf("flags=0x05, stream_id=N>"));
        }
        assertThat(nghttp(base + "/plain")).contains("recv (stream_id=N) content-length: 5").doesNotContain("x-sum");
    }

    private static String nghttp(String url) throws Exception {
        Process p = new ProcessBuilder("nghttp", "-nv", "-t", "20", url).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("nghttp's exit status; output: %s", out).isZero();
        // nghttp opens priority streams first, so its request's stream id varies: one request, one name
        return out.replaceAll("stream_id=\\d+", "stream_id=N");
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
