package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ExampleAppTest {
    static BriskTestServer server;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(ExampleApp::routes);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void healthAndReady() {
        HttpResponse<String> r = server.get("/health");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(r.headers().firstValue("Date")).isPresent();
        HttpResponse<String> ready = server.get("/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void hello() {
        HttpResponse<String> r = server.get("/hello");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(r.body()).isEqualTo("Hello, World!");
    }

    @Test
    void json() {
        HttpResponse<String> r = server.get("/json");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).isEqualTo("{\"message\":\"Hello, World!\"}");
    }

    @Test
    void apiHelloIsReadableFromExampleComOnly() {
        HttpResponse<String> r = server.get("/api/hello", "Origin", "https://example.com");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"message\":\"Hello, World!\"}");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://example.com");
        assertThat(r.headers().allValues("Vary")).containsExactly("Origin");

        HttpResponse<String> preflight = server.options("/api/hello", "Origin", "https://example.com",
                "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "content-type");
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://example.com");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers")).hasValue("Content-Type");
        assertThat(preflight.headers().firstValue("Access-Control-Max-Age")).hasValue("600");

        for (String other : java.util.List.of("https://example.com.evil.org", "https://www.example.com", "null")) {
            HttpResponse<String> o = server.get("/api/hello", "Origin", other);
            assertThat(o.statusCode()).as(other).isEqualTo(200);
            assertThat(o.headers().firstValue("Access-Control-Allow-Origin")).as(other).isEmpty();
            assertThat(server.options("/api/hello", "Origin", other, "Access-Control-Request-Method", "GET")
                    .statusCode()).as(other).isEqualTo(403);
        }
        assertThat(server.get("/hello", "Origin", "https://example.com").headers()
                .firstValue("Access-Control-Allow-Origin")).as("only /api is behind CORS").isEmpty();
    }

    @Test
    void userWithQuery() {
        HttpResponse<String> r = server.get("/users/42?active=true");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("42");
    }

    @Test
    void echo() {
        HttpResponse<String> r = server.post("/echo", "text/plain; charset=utf-8", "héllo body");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("héllo body");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
    }

    @Test
    void consume() {
        HttpResponse<String> r = server.post("/consume", "application/octet-stream", "x".repeat(1024));
        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(r.body()).isEmpty();
    }

    @Test
    void staticSampleFiles() {
        HttpResponse<String> hello = server.get("/static/hello.txt");
        assertThat(hello.statusCode()).isEqualTo(200);
        assertThat(hello.body()).isEqualTo(SampleFiles.HELLO);
        assertThat(hello.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        HttpResponse<byte[]> big = server.getBytes("/static/big.bin");
        assertThat(big.body()).isEqualTo(SampleFiles.big());
        HttpResponse<byte[]> range = server.getBytes("/static/big.bin", "Range", "bytes=-10");
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.body()).isEqualTo(java.util.Arrays.copyOfRange(SampleFiles.big(), SampleFiles.BIG - 10, SampleFiles.BIG));
        HttpResponse<byte[]> js = server.getBytes("/static/app.js", "Accept-Encoding", "gzip");
        assertThat(js.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(js.headers().firstValue("Content-Length")).as("the precompressed file, not compressed per request")
                .hasValueSatisfying(l -> assertThat(Integer.parseInt(l)).isLessThan(SampleFiles.appJs().length() / 4));
        HttpResponse<byte[]> json = server.getBytes("/static/data.json", "Accept-Encoding", "deflate");
        assertThat(json.headers().firstValue("Content-Encoding")).hasValue("deflate");
        assertThat(server.get("/static/").body()).contains("<title>Brisk static files</title>");
        assertThat(server.get("/static/%2e%2e/%2e%2e/etc/passwd").statusCode()).isEqualTo(400);
    }

    @Test
    void uploadTakesUpToSixteenMebibytesWhole() {
        byte[] body = new byte[(int) ExampleApp.MAX_UPLOAD];
        HttpResponse<byte[]> r = server.sendBytes("POST", "/upload", "application/octet-stream", body);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("received " + body.length + " bytes");
        // only the heads: the limits answer before any of the body is sent
        try (RawConnection c = server.raw()) {
            c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + (body.length + 1) + "\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(413);
        }
        try (RawConnection c = server.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + (1024 * 1024 + 1) + "\r\n\r\n");
            assertThat(c.read().status()).as("the other routes keep max-body-size").isEqualTo(413);
        }
    }

    @Test
    void uploadStreamReadsABodyOfAnySize() {
        byte[] body = new byte[20 << 20];
        HttpResponse<byte[]> r = server.sendBytes("POST", "/upload/stream", "application/octet-stream", body);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("received " + body.length + " bytes");
    }

    @Test
    void unknownPathIs404() {
        assertThat(server.get("/nope").statusCode()).isEqualTo(404);
    }
}
