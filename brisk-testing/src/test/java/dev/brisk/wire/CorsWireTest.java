package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Cors;
import dev.brisk.HttpException;
import dev.brisk.Method;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CORS on the wire, byte for byte: preflights answered before routing (also for a path whose only
 * route is {@code POST}, and for a CORS middleware on a group), {@code Vary: Origin} on every answer,
 * refusals as {@code 403} without CORS headers, lookalike and {@code null} origins never allowed.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class CorsWireTest {
    @Parameter
    Engine engine;

    private static final Cors CORS = Cors.builder()
            .allowOrigin("https://example.com")
            .allowOriginPattern("https://*.example.org")
            .allowMethods(Method.PUT, Method.DELETE)
            .allowHeaders("Content-Type", "X-Token")
            .exposeHeaders("X-Total")
            .allowCredentials(true)
            .maxAge(Duration.ofMinutes(10))
            .build();

    /** App-wide CORS: POST-only {@code /things}, a GET that fails, a group without CORS of its own. */
    private BriskTestServer appWide() {
        return Wire.start(engine, cfg -> {
            cfg.use(CORS);
            cfg.options().bodyMemoryBudget(64 * 1024);
            cfg.post("/things", ctx -> ctx.status(201).header("X-Total", "1").text("made"));
            cfg.post("/small", ctx -> ctx.text("small")).maxBodySize(10);
            cfg.post("/large", ctx -> ctx.text("large")).maxBodySize(1 << 20);
            cfg.get("/fails", ctx -> {
                ctx.header("X-Handler", "dropped");
                throw new HttpException.Conflict("no");
            });
        });
    }

    /** CORS on a group only: {@code /api/items/{id}} has DELETE and PUT; {@code /open} is outside it. */
    private BriskTestServer grouped() {
        return Wire.start(engine, cfg -> {
            cfg.group("/api", g -> {
                g.use(CORS);
                g.delete("/items/{id}", ctx -> ctx.status(204));
                g.put("/items/{id}", ctx -> ctx.text("put " + ctx.pathParam("id")));
                g.post("/exact", ctx -> ctx.text("posted"));
            });
            cfg.post("/open", ctx -> ctx.text("open"));
        });
    }

    /** One request on its own connection ({@code Connection: close} added), the answer with its Date masked. */
    private static String exchange(BriskTestServer t, String requestLine, String... headers) {
        StringBuilder r = new StringBuilder(requestLine).append("\r\nHost: x\r\nConnection: close\r\n");
        for (String h : headers) {
            r.append(h).append("\r\n");
        }
        try (RawConnection c = t.raw()) {
            c.send(r.append("\r\n").toString());
            return c.readAll().replaceFirst("\r\nDate: [^\r]*\r\n", "\r\nDate: *\r\n");
        }
    }

    private static final String PREFLIGHT_OK = "HTTP/1.1 204 No Content\r\n"
            + "Date: *\r\n"
            + "Connection: close\r\n"
            + "Vary: Origin\r\n"
            + "Access-Control-Allow-Origin: https://example.com\r\n"
            + "Access-Control-Allow-Credentials: true\r\n"
            + "Access-Control-Allow-Methods: GET, HEAD, POST, PUT, DELETE\r\n"
            + "Access-Control-Allow-Headers: Content-Type, X-Token\r\n"
            + "Access-Control-Max-Age: 600\r\n"
            + "\r\n";

    private static String refused(String reason) {
        String body = "CORS preflight refused: " + reason;
        return "HTTP/1.1 403 Forbidden\r\n"
                + "Date: *\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: " + body.length() + "\r\n"
                + "Connection: close\r\n"
                + "Vary: Origin\r\n"
                + "\r\n"
                + body;
    }

    @Test
    void preflightToAPostOnlyPathIsAnsweredByCorsNotByTheAutomaticOptions() {
        try (BriskTestServer t = appWide()) {
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: content-type,x-token"))
                    .isEqualTo(PREFLIGHT_OK);
        }
    }

    @Test
    void actualRequestFromAnAllowedOriginGetsTheHeaders() {
        try (BriskTestServer t = appWide()) {
            assertThat(exchange(t, "POST /things HTTP/1.1", "Origin: https://a.example.org", "Content-Length: 0"))
                    .isEqualTo("HTTP/1.1 201 Created\r\n"
                            + "Date: *\r\n"
                            + "Content-Type: text/plain; charset=utf-8\r\n"
                            + "Content-Length: 4\r\n"
                            + "Connection: close\r\n"
                            + "Vary: Origin\r\n"
                            + "Access-Control-Allow-Origin: https://a.example.org\r\n"
                            + "Access-Control-Allow-Credentials: true\r\n"
                            + "Access-Control-Expose-Headers: X-Total\r\n"
                            + "X-Total: 1\r\n"
                            + "\r\n"
                            + "made");
        }
    }

    @Test
    void errorAnswersKeepTheCorsHeadersSoThePageCanReadThem() {
        try (BriskTestServer t = appWide()) {
            assertThat(exchange(t, "GET /fails HTTP/1.1", "Origin: https://example.com"))
                    .isEqualTo("HTTP/1.1 409 Conflict\r\n"
                            + "Date: *\r\n"
                            + "Content-Type: text/plain; charset=utf-8\r\n"
                            + "Content-Length: 2\r\n"
                            + "Connection: close\r\n"
                            + "Vary: Origin\r\n"
                            + "Access-Control-Allow-Origin: https://example.com\r\n"
                            + "Access-Control-Allow-Credentials: true\r\n"
                            + "Access-Control-Expose-Headers: X-Total\r\n"
                            + "\r\n"
                            + "no");
            String notFound = exchange(t, "GET /nowhere HTTP/1.1", "Origin: https://example.com");
            assertThat(notFound).startsWith("HTTP/1.1 404 Not Found\r\n")
                    .contains("\r\nAccess-Control-Allow-Origin: https://example.com\r\n");
        }
    }

    /**
     * The engine's own answers, given before any middleware runs (a body over the route's limit, a body
     * the memory budget cannot take), carry the route's CORS headers too: a page reads their status.
     */
    @Test
    void theEnginesOwnRefusalsCarryTheCorsHeaders() {
        try (BriskTestServer t = appWide()) {
            String tooLarge = exchange(t, "POST /small HTTP/1.1", "Origin: https://example.com", "Content-Length: 11");
            assertThat(tooLarge).isEqualTo("HTTP/1.1 413 Content Too Large\r\n"
                    + "Date: *\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 37\r\n"
                    + "Connection: close\r\n"
                    + "Vary: Origin\r\n"
                    + "Access-Control-Allow-Origin: https://example.com\r\n"
                    + "Access-Control-Allow-Credentials: true\r\n"
                    + "Access-Control-Expose-Headers: X-Total\r\n"
                    + "\r\n"
                    + "Request body is larger than 10 bytes\n");
            String noMemory = exchange(t, "POST /large HTTP/1.1", "Origin: https://a.example.org",
                    "Content-Length: 100000");
            assertThat(noMemory).startsWith("HTTP/1.1 503 Service Unavailable\r\n")
                    .contains("\r\nRetry-After: 1\r\n")
                    .contains("\r\nAccess-Control-Allow-Origin: https://a.example.org\r\n")
                    .endsWith("\r\n\r\nService Unavailable: no request-body memory free, retry shortly\n");
            assertThat(exchange(t, "POST /small HTTP/1.1", "Origin: https://example.net", "Content-Length: 11"))
                    .as("an origin not allowed: Vary only").startsWith("HTTP/1.1 413 Content Too Large\r\n")
                    .contains("\r\nVary: Origin\r\n").doesNotContain("Access-Control-");
        }
        try (BriskTestServer t = grouped()) {
            assertThat(exchange(t, "POST /api/exact HTTP/1.1", "Origin: https://example.com",
                    "Content-Length: 2000000")).as("a group's route").startsWith("HTTP/1.1 413 ")
                    .contains("\r\nAccess-Control-Allow-Origin: https://example.com\r\n");
            assertThat(exchange(t, "POST /open HTTP/1.1", "Origin: https://example.com", "Content-Length: 2000000"))
                    .as("a route without CORS").startsWith("HTTP/1.1 413 ").doesNotContain("Vary")
                    .doesNotContain("Access-Control-");
        }
    }

    @Test
    void aRequestWithoutOriginGetsOnlyVary() {
        try (BriskTestServer t = appWide()) {
            assertThat(exchange(t, "POST /things HTTP/1.1", "Content-Length: 0"))
                    .isEqualTo("HTTP/1.1 201 Created\r\n"
                            + "Date: *\r\n"
                            + "Content-Type: text/plain; charset=utf-8\r\n"
                            + "Content-Length: 4\r\n"
                            + "Connection: close\r\n"
                            + "Vary: Origin\r\n"
                            + "X-Total: 1\r\n"
                            + "\r\n"
                            + "made");
        }
    }

    @Test
    void anOptionsRequestThatIsNoPreflightGetsTheAutomaticAnswerWithCorsHeaders() {
        try (BriskTestServer t = appWide()) {
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://example.com"))
                    .isEqualTo("HTTP/1.1 204 No Content\r\n"
                            + "Date: *\r\n"
                            + "Connection: close\r\n"
                            + "Vary: Origin\r\n"
                            + "Access-Control-Allow-Origin: https://example.com\r\n"
                            + "Access-Control-Allow-Credentials: true\r\n"
                            + "Access-Control-Expose-Headers: X-Total\r\n"
                            + "Allow: POST, OPTIONS\r\n"
                            + "\r\n");
        }
    }

    @Test
    void preflightWithADisallowedMethodHeaderOrOriginIs403WithoutCorsHeaders() {
        try (BriskTestServer t = appWide()) {
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: PATCH"))
                    .isEqualTo(refused("method \"PATCH\" is not allowed"));
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: put"))
                    .as("methods are case-sensitive").isEqualTo(refused("method \"put\" is not allowed"));
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: content-type, authorization"))
                    .isEqualTo(refused("header \"authorization\" is not allowed"));
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: x-token;evil"))
                    .isEqualTo(refused("malformed Access-Control-Request-Headers \"x-token;evil\""));
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://evil.org",
                    "Access-Control-Request-Method: POST"))
                    .isEqualTo(refused("origin \"https://evil.org\" is not allowed"));
            assertThat(exchange(t, "OPTIONS /things HTTP/1.1", "Origin: https://example.com", "Origin: https://example.com",
                    "Access-Control-Request-Method: POST"))
                    .as("an allowed origin, twice").isEqualTo(refused("the request has more than one Origin field"));
        }
    }

    @Test
    void lookalikeAndNullOriginsGetNoCorsHeaders() {
        try (BriskTestServer t = appWide()) {
            for (String origin : List.of("https://example.com.evil.org", "https://evilexample.com", "http://example.com",
                    "https://example.com:8443", "https://a.example.org.evil.org", "https://example.org",
                    "https://a.example.org@evil.org", "null", "https://EXAMPLE.com", "https://example.com/")) {
                String wire = exchange(t, "POST /things HTTP/1.1", "Origin: " + origin, "Content-Length: 0");
                assertThat(wire).as(origin).startsWith("HTTP/1.1 201 Created\r\n").contains("\r\nVary: Origin\r\n")
                        .doesNotContain("Access-Control-");
                String preflight = exchange(t, "OPTIONS /things HTTP/1.1", "Origin: " + origin,
                        "Access-Control-Request-Method: PUT");
                assertThat(preflight).as(origin).startsWith("HTTP/1.1 403 Forbidden\r\n")
                        .doesNotContain("Access-Control-Allow");
            }
        }
    }

    @Test
    void twoOriginHeadersAreNeverAllowed() {
        try (BriskTestServer t = appWide()) {
            String wire = exchange(t, "POST /things HTTP/1.1", "Origin: https://example.com",
                    "Origin: https://example.com", "Content-Length: 0");
            assertThat(wire).startsWith("HTTP/1.1 201 Created\r\n").doesNotContain("Access-Control-");
        }
    }

    @Test
    void preflightForAGroupsRouteRunsThroughTheGroupsCors() {
        try (BriskTestServer t = grouped()) {
            assertThat(exchange(t, "OPTIONS /api/items/7 HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: DELETE"))
                    .isEqualTo(PREFLIGHT_OK);
            assertThat(exchange(t, "OPTIONS /api/exact HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: POST")).isEqualTo(PREFLIGHT_OK);
            assertThat(exchange(t, "OPTIONS /api/exact HTTP/1.1", "Origin: https://evil.org",
                    "Access-Control-Request-Method: POST"))
                    .isEqualTo(refused("origin \"https://evil.org\" is not allowed"));
            assertThat(exchange(t, "PUT /api/items/9 HTTP/1.1", "Origin: https://example.com", "Content-Length: 0"))
                    .contains("\r\nAccess-Control-Allow-Origin: https://example.com\r\n").endsWith("\r\n\r\nput 9");
        }
    }

    @Test
    void corsOnOneRouteAnswersItsPreflightsAlsoWhenAnExactPathShadowsItsTemplate() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/files/latest", ctx -> ctx.text("latest"));
            cfg.delete("/files/{name}", ctx -> ctx.status(204)).use(CORS);
            cfg.options("/own/{x}", ctx -> ctx.status(200).text("own options"));
            cfg.put("/own/{x}", ctx -> ctx.text("own put")).use(CORS);
        })) {
            assertThat(exchange(t, "OPTIONS /files/report HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: DELETE")).isEqualTo(PREFLIGHT_OK);
            // the exact path /files/latest has no DELETE: the request would reach /files/{name}, so does its preflight
            assertThat(exchange(t, "OPTIONS /files/latest HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: DELETE")).isEqualTo(PREFLIGHT_OK);
            // a path with an OPTIONS route of its own answers its preflights there
            assertThat(exchange(t, "OPTIONS /own/1 HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: PUT")).startsWith("HTTP/1.1 200 OK\r\n")
                    .doesNotContain("Access-Control-").endsWith("own options");
        }
    }

    @Test
    void aPreflightTheGroupDoesNotGuardGetsTheAutomaticAnswer() {
        try (BriskTestServer t = grouped()) {
            String automatic = "HTTP/1.1 204 No Content\r\n"
                    + "Date: *\r\n"
                    + "Connection: close\r\n"
                    + "Allow: POST, OPTIONS\r\n"
                    + "\r\n";
            assertThat(exchange(t, "OPTIONS /open HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: POST")).isEqualTo(automatic);
            // a method the path does not have: no route announces it, so no route's middleware answers
            assertThat(exchange(t, "OPTIONS /api/exact HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: PATCH")).isEqualTo(automatic);
            assertThat(exchange(t, "OPTIONS /api/exact HTTP/1.1", "Origin: https://example.com",
                    "Access-Control-Request-Method: BREW")).isEqualTo(automatic);
        }
    }

    @Test
    void anyOriginSendsAStarOnEveryAnswerAndNeedsNoVary() {
        Cors any = Cors.builder().allowAnyOrigin().allowHeaders("*").build();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.use(any);
            cfg.get("/pub", ctx -> ctx.text("pub"));
        })) {
            String expected = "HTTP/1.1 200 OK\r\n"
                    + "Date: *\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 3\r\n"
                    + "Connection: close\r\n"
                    + "Access-Control-Allow-Origin: *\r\n"
                    + "\r\n"
                    + "pub";
            assertThat(exchange(t, "GET /pub HTTP/1.1")).isEqualTo(expected);
            assertThat(exchange(t, "GET /pub HTTP/1.1", "Origin: null")).isEqualTo(expected);
            assertThat(exchange(t, "OPTIONS /pub HTTP/1.1", "Origin: https://anyone.test",
                    "Access-Control-Request-Method: GET", "Access-Control-Request-Headers: x-a, x-b"))
                    .isEqualTo("HTTP/1.1 204 No Content\r\n"
                            + "Date: *\r\n"
                            + "Connection: close\r\n"
                            + "Access-Control-Allow-Origin: *\r\n"
                            + "Access-Control-Allow-Methods: GET, HEAD, POST\r\n"
                            + "Access-Control-Allow-Headers: *\r\n"
                            + "\r\n");
            // the wildcard never covers Authorization (Fetch standard)
            assertThat(exchange(t, "OPTIONS /pub HTTP/1.1", "Origin: https://anyone.test",
                    "Access-Control-Request-Method: GET", "Access-Control-Request-Headers: authorization"))
                    .startsWith("HTTP/1.1 403 Forbidden\r\n").doesNotContain("Access-Control-Allow");
        }
    }
}
