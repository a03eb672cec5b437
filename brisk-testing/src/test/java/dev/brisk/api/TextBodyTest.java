package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code Context.text}: ASCII text goes out straight from its chars, other text as UTF-8; either way
 * the length, the bytes and the last body set win, small, empty or far beyond one output buffer.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class TextBodyTest {
    private static final String LARGE = "0123456789abcdef".repeat(20_000) + "end"; // 320 KB

    @Parameter
    Engine engine;

    private BriskTestServer start() {
        return BriskTestServer.start(engine, cfg -> {
            cfg.dispatch(Dispatch.EVENT_LOOP);
            cfg.get("/ascii", ctx -> ctx.text("hello"));
            cfg.get("/empty", ctx -> ctx.text(""));
            cfg.get("/utf8", ctx -> ctx.text("grüße, 世界"));
            cfg.get("/large", ctx -> ctx.text(LARGE));
            cfg.get("/text-then-bytes", ctx -> ctx.text("first").bytes(new byte[] {'b', 'y'}));
            cfg.get("/bytes-then-text", ctx -> ctx.bytes(new byte[] {'b', 'y'}).text("second"));
            cfg.get("/text-then-failure", ctx -> {
                ctx.text("never sent");
                throw new IllegalStateException("boom");
            });
        });
    }

    @Test
    void textBodiesHaveTheirLengthAndBytes() {
        try (BriskTestServer t = start()) {
            HttpResponse<String> r = t.get("/ascii");
            assertThat(r.body()).isEqualTo("hello");
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
            assertThat(r.headers().firstValue("Content-Length")).hasValue("5");

            assertThat(t.get("/empty").headers().firstValue("Content-Length")).hasValue("0");

            HttpResponse<String> u = t.get("/utf8");
            assertThat(u.body()).isEqualTo("grüße, 世界");
            assertThat(u.headers().firstValue("Content-Length"))
                    .hasValue(String.valueOf("grüße, 世界".getBytes(StandardCharsets.UTF_8).length));

            HttpResponse<String> l = t.get("/large");
            assertThat(l.body()).isEqualTo(LARGE);
            assertThat(l.headers().firstValue("Content-Length")).hasValue(String.valueOf(LARGE.length()));
        }
    }

    @Test
    void theLastBodySetWins() {
        try (BriskTestServer t = start()) {
            assertThat(t.get("/text-then-bytes").body()).isEqualTo("by");
            assertThat(t.get("/text-then-bytes").headers().firstValue("Content-Type"))
                    .hasValue("text/plain; charset=utf-8");
            assertThat(t.get("/bytes-then-text").body()).isEqualTo("second");
            HttpResponse<String> failed = t.get("/text-then-failure");
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(failed.body()).isEqualTo("Internal Server Error");
        }
    }

    @Test
    void pipelinedTextAnswersAndHeadKeepTheirBytes() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send("GET /ascii HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD /ascii HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /utf8 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /large HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /ascii HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("hello");
            RawConnection.Response head = c.read(true);
            assertThat(head.header("Content-Length")).isEqualTo("5");
            assertThat(head.bodyBytes()).isEmpty();
            assertThat(new String(c.read().bodyBytes(), StandardCharsets.UTF_8)).isEqualTo("grüße, 世界");
            assertThat(c.read().body()).isEqualTo(LARGE);
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }
}
