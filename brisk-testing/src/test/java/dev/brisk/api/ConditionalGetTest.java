package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Compression;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code ctx.notModified(etag)}: a handler's own validator, {@code 304} without making the body. */
class ConditionalGetTest {
    private static final AtomicInteger version = new AtomicInteger(1);
    private static final AtomicInteger rendered = new AtomicInteger();
    private static BriskTestServer server;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.get("/doc", ctx -> {
                if (ctx.notModified("\"v" + version.get() + "\"")) {
                    return;
                }
                rendered.incrementAndGet();
                ctx.text("document version " + version.get() + " " + "x".repeat(2000));
            });
            cfg.post("/doc", ctx -> ctx.text(ctx.notModified("\"v" + version.get() + "\"") ? "304" : "answered"));
            cfg.get("/weak", ctx -> {
                if (!ctx.notModified("W/\"w1\"")) {
                    ctx.text("weak");
                }
            });
            cfg.get("/bad", ctx -> ctx.text(Boolean.toString(ctx.notModified("v1"))));
            cfg.get("/zipped", ctx -> {
                if (!ctx.notModified("\"z1\"")) {
                    ctx.text("zipped ".repeat(500));
                }
            }).use(Compression.defaults());
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theSameTagIs304WithoutTheBodyBeingMade() {
        version.set(1);
        HttpResponse<String> first = server.get("/doc");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("ETag")).hasValue("\"v1\"");
        int made = rendered.get();

        try (RawConnection c = server.raw()) {
            c.send("GET /doc HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"v0\", \"v1\"\r\n\r\n"
                    + "HEAD /doc HTTP/1.1\r\nHost: x\r\nIf-None-Match: W/\"v1\"\r\n\r\n"
                    + "GET /doc HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\n\r\n");
            for (int i = 0; i < 3; i++) {
                RawConnection.Response r = c.read(i == 1);
                assertThat(r.status()).as("answer " + i).isEqualTo(304);
                assertThat(r.header("ETag")).isEqualTo("\"v1\"");
                assertThat(r.bodyBytes()).isEmpty();
                assertThat(r.header("Content-Type")).as("no representation in a 304").isNull();
            }
        }
        assertThat(rendered.get()).as("no body made for a 304").isEqualTo(made);

        version.set(2);
        HttpResponse<String> changed = server.get("/doc", "If-None-Match", "\"v1\"");
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.body()).startsWith("document version 2 ");
        assertThat(changed.headers().firstValue("ETag")).hasValue("\"v2\"");
    }

    @Test
    void onlyGetAndHeadAreAnswered304() {
        version.set(7);
        HttpResponse<String> r = server.post("/doc", "text/plain", "x", "If-None-Match", "\"v7\"");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("answered");
        assertThat(r.headers().firstValue("ETag")).hasValue("\"v7\"");
    }

    @Test
    void aWeakTagMatchesWeaklyAndAMalformedListMatchesNothing() {
        assertThat(server.get("/weak", "If-None-Match", "\"w1\"").statusCode()).isEqualTo(304);
        assertThat(server.get("/weak", "If-None-Match", "W/\"w1\"").statusCode()).isEqualTo(304);
        HttpResponse<String> junk = server.get("/weak", "If-None-Match", "W/\"w1\" junk");
        assertThat(junk.statusCode()).isEqualTo(200);
        assertThat(junk.body()).isEqualTo("weak");
    }

    @Test
    void somethingThatIsNoTagIsTheHandlersMistake() {
        HttpResponse<String> r = server.get("/bad");
        assertThat(r.statusCode()).isEqualTo(500);
    }

    @Test
    void aCompressedAnswersTagStillValidates() {
        HttpResponse<String> gz = server.get("/zipped", "Accept-Encoding", "gzip");
        assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
        String tag = gz.headers().firstValue("ETag").orElseThrow();
        assertThat(tag).as("the compressed form's tag differs from the identity one").isNotEqualTo("\"z1\"");
        HttpResponse<String> again = server.get("/zipped", "Accept-Encoding", "gzip", "If-None-Match", tag);
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.headers().firstValue("ETag")).hasValue(tag);
        assertThat(again.headers().firstValue("Vary")).hasValueSatisfying(v -> assertThat(v).contains("Accept-Encoding"));
    }
}
