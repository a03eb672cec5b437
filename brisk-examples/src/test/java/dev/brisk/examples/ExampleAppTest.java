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
