package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.Cors;
import dev.brisk.Method;
import dev.brisk.testing.BriskTestServer;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** CORS with real clients (the JDK HttpClient, curl): the requests a browser sends, and the hostile ones. */
class CorsClientTest {
    private static BriskTestServer server;

    @BeforeAll
    static void start() {
        Cors cors = Cors.builder()
                .allowOrigin("https://example.com", "http://localhost:3000")
                .allowOriginPattern("https://*.example.com")
                .allowMethods(Method.PUT, Method.PATCH)
                .allowHeaders("Content-Type", "Authorization")
                .exposeHeaders("X-Request-Id")
                .allowCredentials(true)
                .maxAge(Duration.ofHours(1))
                .build();
        server = BriskTestServer.start(cfg -> {
            cfg.group("/api", g -> {
                g.use(cors);
                g.post("/todos", ctx -> ctx.status(201).header("X-Request-Id", "r1").text("created"));
                g.patch("/todos/{id}", ctx -> ctx.text("patched " + ctx.pathParam("id")));
                g.delete("/todos/{id}", ctx -> ctx.status(204)); // a method the policy does not allow
                g.post("/notes", ctx -> ctx.text("noted")).maxBodySize(100);
            });
            cfg.post("/public-notes", ctx -> ctx.text("noted")).maxBodySize(100);
            cfg.get("/public", ctx -> ctx.text("no cors here"));
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> preflight(String path, String origin, String method, String headers) {
        return headers == null
                ? server.options(path, "Origin", origin, "Access-Control-Request-Method", method)
                : server.options(path, "Origin", origin, "Access-Control-Request-Method", method,
                        "Access-Control-Request-Headers", headers);
    }

    @Test
    void preflightThenTheActualRequestAsABrowserSendsThem() {
        HttpResponse<String> pre = preflight("/api/todos/3", "https://app.example.com", "PATCH", "authorization,content-type");
        assertThat(pre.statusCode()).isEqualTo(204);
        HttpHeaders h = pre.headers();
        assertThat(h.firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example.com");
        assertThat(h.firstValue("Access-Control-Allow-Credentials")).hasValue("true");
        assertThat(h.firstValue("Access-Control-Allow-Methods")).hasValue("GET, HEAD, POST, PUT, PATCH");
        assertThat(h.firstValue("Access-Control-Allow-Headers")).hasValue("Content-Type, Authorization");
        assertThat(h.firstValue("Access-Control-Max-Age")).hasValue("3600");
        assertThat(h.allValues("Vary")).containsExactly("Origin");
        assertThat(h.firstValue("Allow")).as("CORS answered, not the automatic OPTIONS").isEmpty();

        HttpResponse<String> actual = server.patch("/api/todos/3", "application/json", "{}",
                "Origin", "https://app.example.com", "Authorization", "Bearer t");
        assertThat(actual.statusCode()).isEqualTo(200);
        assertThat(actual.body()).isEqualTo("patched 3");
        assertThat(actual.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example.com");
        assertThat(actual.headers().firstValue("Access-Control-Expose-Headers")).hasValue("X-Request-Id");
        assertThat(actual.headers().allValues("Vary")).containsExactly("Origin");
    }

    @Test
    void aPostOnlyPathAnswersItsPreflight() {
        HttpResponse<String> pre = preflight("/api/todos", "http://localhost:3000", "POST", "content-type");
        assertThat(pre.statusCode()).isEqualTo(204);
        assertThat(pre.headers().firstValue("Access-Control-Allow-Origin")).hasValue("http://localhost:3000");
        HttpResponse<String> post = server.post("/api/todos", "application/json", "{}", "Origin", "http://localhost:3000");
        assertThat(post.statusCode()).isEqualTo(201);
        assertThat(post.headers().firstValue("Access-Control-Allow-Origin")).hasValue("http://localhost:3000");
    }

    @Test
    void refusedPreflightsAre403WithoutCorsHeaders() {
        for (List<String> bad : List.of(
                List.of("https://evil.example", "PATCH", "content-type"),
                List.of("https://example.com.evil.org", "PATCH", "content-type"),
                List.of("https://notexample.com", "PATCH", "content-type"),
                List.of("null", "PATCH", "content-type"),
                List.of("https://example.com", "DELETE", "content-type"),
                List.of("https://example.com", "PATCH", "x-custom"),
                List.of("https://example.com", "PATCH", "content-type, cookie"))) {
            HttpResponse<String> r = preflight("/api/todos/1", bad.get(0), bad.get(1), bad.get(2));
            assertThat(r.statusCode()).as(bad.toString()).isEqualTo(403);
            assertThat(r.body()).as(bad.toString()).startsWith("CORS preflight refused: ");
            assertThat(r.headers().map().keySet()).as(bad.toString())
                    .noneMatch(k -> k.toLowerCase().startsWith("access-control-"));
            assertThat(r.headers().allValues("Vary")).containsExactly("Origin");
        }
    }

    @Test
    void spoofedOriginsOnAnActualRequestAreServedWithoutCorsHeaders() {
        for (String origin : List.of("https://example.com.evil.org", "https://evil.org", "http://example.com",
                "https://app.example.com:444", "null", "http://localhost:3001", "http://localhost")) {
            HttpResponse<String> r = server.post("/api/todos", "application/json", "{}", "Origin", origin);
            assertThat(r.statusCode()).as(origin).isEqualTo(201);
            assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).as(origin).isEmpty();
            assertThat(r.headers().allValues("Vary")).as(origin).containsExactly("Origin");
        }
    }

    @Test
    void routesOutsideTheGroupHaveNoCors() {
        HttpResponse<String> r = server.get("/public", "Origin", "https://example.com");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(r.headers().firstValue("Vary")).isEmpty();
    }

    /**
     * A body over the route's limit is refused by the engine before any handler or middleware runs; the
     * 413 still carries the route's CORS headers, so the page reads "too large" instead of a network
     * error (HTTP/2: {@code TlsTest.theEnginesRefusalsCarryCorsHeadersOverHttp2}).
     */
    @Test
    void theEnginesOwnRefusalsCarryTheRoutesCorsHeaders() throws Exception {
        HttpResponse<String> r = server.post("/api/notes", "text/plain", "x".repeat(200), "Origin", "https://example.com");
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.body()).isEqualTo("Request body is larger than 100 bytes\n");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://example.com");
        assertThat(r.headers().firstValue("Access-Control-Allow-Credentials")).hasValue("true");
        assertThat(r.headers().firstValue("Access-Control-Expose-Headers")).hasValue("X-Request-Id");
        assertThat(r.headers().allValues("Vary")).containsExactly("Origin");
        HttpResponse<String> evil = server.post("/api/notes", "text/plain", "x".repeat(200),
                "Origin", "https://example.com.evil.org");
        assertThat(evil.statusCode()).isEqualTo(413);
        assertThat(evil.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(evil.headers().allValues("Vary")).containsExactly("Origin");
        HttpResponse<String> outside = server.post("/public-notes", "text/plain", "x".repeat(200),
                "Origin", "https://example.com");
        assertThat(outside.statusCode()).isEqualTo(413);
        assertThat(outside.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(outside.headers().firstValue("Vary")).isEmpty();

        assumeTrue(Curl.available(), "curl is not installed");
        String base = "http://127.0.0.1:" + server.port();
        // HTTP/1.1 here; over HTTP/2 in TlsTest (curl's h2c upload may report the stream's reset, sent
        // right after the 413 to stop its body, as an error instead of printing the answer)
        assertThat(Curl.run("--http1.1", "-H", "Origin: http://localhost:3000", "--data-binary", "x".repeat(200),
                base + "/api/notes"))
                .startsWith("HTTP/1.1 413 ")
                .contains("\nAccess-Control-Allow-Origin: http://localhost:3000\n")
                .contains("\nVary: Origin\n")
                .endsWith("\n\nRequest body is larger than 100 bytes\n");
    }

    @Test
    void curlPreflightAndRequest() throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        String base = "http://127.0.0.1:" + server.port();
        assertThat(Curl.run("-X", "OPTIONS", "-H", "Origin: https://example.com",
                "-H", "Access-Control-Request-Method: PATCH", base + "/api/todos/9"))
                .startsWith("HTTP/1.1 204 No Content\n")
                .contains("\nAccess-Control-Allow-Origin: https://example.com\n")
                .contains("\nAccess-Control-Allow-Methods: GET, HEAD, POST, PUT, PATCH\n");
        assertThat(Curl.run("-X", "OPTIONS", "-H", "Origin: https://example.com",
                "-H", "Access-Control-Request-Method: DELETE", base + "/api/todos/9"))
                .startsWith("HTTP/1.1 403 Forbidden\n").doesNotContain("Access-Control-")
                .endsWith("\n\nCORS preflight refused: method \"DELETE\" is not allowed");
        assertThat(Curl.run("-X", "OPTIONS", "-H", "Origin: https://example.com.evil.org",
                "-H", "Access-Control-Request-Method: PATCH", base + "/api/todos/9"))
                .startsWith("HTTP/1.1 403 Forbidden\n").doesNotContain("Access-Control-")
                .endsWith("\n\nCORS preflight refused: origin \"https://example.com.evil.org\" is not allowed");
        assertThat(Curl.run("-H", "Origin: https://example.com", "--data-binary", "{}", base + "/api/todos"))
                .startsWith("HTTP/1.1 201 Created\n").contains("\nAccess-Control-Allow-Origin: https://example.com\n")
                .endsWith("\n\ncreated");
    }
}
