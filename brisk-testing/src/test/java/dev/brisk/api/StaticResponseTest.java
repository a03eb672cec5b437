package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code cfg.fastGet} with prebuilt {@link StaticResponse}s. */
class StaticResponseTest {
    private static BriskTestServer server;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.fastGet("/health", StaticResponse.text("OK"));
            cfg.fastGet("/info", StaticResponse.json("{\"version\":\"1.0\"}")
                    .withHeader("Cache-Control", "no-store")
                    .withHeader("X-Build", "42"));
            cfg.fastGet("/maintenance", StaticResponse.of(503, "text/html; charset=utf-8",
                    "<h1>später</h1>".getBytes(StandardCharsets.UTF_8)));
            cfg.fastGet("/a%20b", StaticResponse.text("encoded path"));
            cfg.get("/dynamic", ctx -> ctx.text("dynamic"));
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void textResponseHasBodyTypeAndFraming() {
        HttpResponse<String> r = server.get("/health");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("OK");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(r.headers().firstValue("Content-Length")).hasValue("2");
        assertThat(r.headers().firstValue("Date")).isPresent();
    }

    @Test
    void jsonResponseWithExtraHeaders() {
        HttpResponse<String> r = server.get("/info");
        assertThat(r.body()).isEqualTo("{\"version\":\"1.0\"}");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(r.headers().firstValue("X-Build")).hasValue("42");
    }

    @Test
    void anyStatusAndContentType() {
        HttpResponse<String> r = server.get("/maintenance");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(r.body()).isEqualTo("<h1>später</h1>");
    }

    @Test
    void headHasTheLengthButNoBody() {
        HttpResponse<String> r = server.send(server.request("/health").method("HEAD", BodyPublishers.noBody()).build());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEmpty();
        assertThat(r.headers().firstValue("Content-Length")).hasValue("2");

        try (RawConnection c = server.raw()) {
            c.send("HEAD /info HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = c.read(true);
            assertThat(head.header("Content-Length")).isEqualTo("17");
            assertThat(head.header("Cache-Control")).isEqualTo("no-store");
            RawConnection.Response next = c.read();
            assertThat(next.body()).as("no body bytes after the HEAD answer").isEqualTo("OK");
        }
    }

    @Test
    void queryStringIsIgnoredForTheMatch() {
        assertThat(server.get("/health?x=1").body()).isEqualTo("OK");
        assertThat(server.get("/health?").body()).isEqualTo("OK");
        assertThat(server.get("/info?a=b&c=d").headers().firstValue("X-Build")).hasValue("42");
    }

    @Test
    void pathMatchIsExact() {
        assertThat(server.get("/health/").statusCode()).isEqualTo(404);
        assertThat(server.get("/healthz").statusCode()).isEqualTo(404);
        assertThat(server.get("/HEALTH").statusCode()).isEqualTo(404);
        assertThat(server.get("/dynamic").body()).isEqualTo("dynamic");
        assertThat(server.get("/a%20b").body()).as("matched on the raw path").isEqualTo("encoded path");
    }

    @Test
    void manyRequestsOnOneConnection() {
        try (RawConnection c = server.raw()) {
            StringBuilder pipelined = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                pipelined.append("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            }
            c.send(pipelined.toString());
            for (RawConnection.Response r : c.read(20)) {
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("OK");
            }
        }
    }

    @Test
    void connectionCloseIsHonoured() {
        try (RawConnection c = server.raw()) {
            c.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.body()).isEqualTo("OK");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(c.closedWithin(2_000)).isTrue();
        }
    }

    @Test
    void http10KeepAliveIsAcknowledged() {
        try (RawConnection c = server.raw()) {
            c.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.body()).isEqualTo("OK");
            assertThat(r.header("Connection")).isEqualTo("keep-alive");
        }
    }

    @Test
    void otherMethodsOnAFastPathAre405() {
        HttpResponse<String> post = server.post("/health", "text/plain", "x");
        // observed: 404 Not Found, no Allow header
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD, OPTIONS");

        HttpResponse<String> options = server.send(server.request("/health")
                .method("OPTIONS", BodyPublishers.noBody()).build());
        // observed: 404 Not Found
        assertThat(options.statusCode()).isEqualTo(204);
        assertThat(options.headers().firstValue("Allow")).hasValue("GET, HEAD, OPTIONS");
    }

    @Test
    void getWithABodyOnAFastPathIsStillServed() {
        try (RawConnection c = server.raw()) {
            c.send("GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab");
            RawConnection.Response r = c.read();
            // observed: 404 "Not Found"
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("OK");
        }
    }

    // ---- the value object -------------------------------------------------------------------

    @Test
    void staticResponseIsImmutable() {
        byte[] body = "abc".getBytes(StandardCharsets.UTF_8);
        StaticResponse r = StaticResponse.of(200, "text/plain", body);
        body[0] = 'X';
        assertThat(r.body()).containsExactly('a', 'b', 'c');
        r.body()[1] = 'Y';
        assertThat(r.body()).containsExactly('a', 'b', 'c');

        StaticResponse withHeader = r.withHeader("X-A", "1");
        assertThat(r.headers()).isEmpty();
        assertThat(withHeader.headers()).containsExactly("X-A", "1");
        assertThat(withHeader.status()).isEqualTo(200);
        assertThat(withHeader.contentType()).isEqualTo("text/plain");
        assertThatThrownBy(() -> withHeader.headers().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(List.of(StaticResponse.text("t").contentType(), StaticResponse.json("{}").contentType()))
                .containsExactly("text/plain; charset=utf-8", "application/json");
    }

    @Test
    void unsafeOrInvalidValuesAreRefused() {
        StaticResponse ok = StaticResponse.text("ok");
        assertThatThrownBy(() -> ok.withHeader("X-Bad", "a\r\nInjected: 1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ok.withHeader("Bad Name", "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StaticResponse.of(200, "text/plain\nX: y", new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StaticResponse.of(199, "text/plain", new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StaticResponse.of(600, "text/plain", new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fastGetNeedsAUniqueExactPath() {
        StaticResponse ok = StaticResponse.text("ok");
        for (String bad : new String[] {"health", "/users/{id}", "/a?b=c", null}) {
            assertThatThrownBy(() -> BriskTestServer.start(cfg -> cfg.fastGet(bad, ok)))
                    .as(String.valueOf(bad)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> BriskTestServer.start(cfg -> cfg.fastGet("/x", ok).fastGet("/x", ok)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
