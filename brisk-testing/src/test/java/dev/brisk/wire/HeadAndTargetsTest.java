package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** HEAD, request-target forms, and the 404 / 405 / 501 answers. */
@ParameterizedClass
@EnumSource(Engine.class)
class HeadAndTargetsTest {
    @Parameter
    Engine engine;


    private static Map<String, String> withoutDate(Map<String, String> headers) {
        Map<String, String> m = new LinkedHashMap<>(headers);
        m.remove("date");
        return m;
    }

    // ---- HEAD --------------------------------------------------------------------------------

    @Test
    void headOnAGetRouteHasTheGetHeadersAndNoBody() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            Wire.routes().accept(cfg);
            cfg.get("/page", ctx -> ctx.header("X-Page", "1").html("<p>" + "x".repeat(2000) + "</p>"));
        }); RawConnection c = t.raw()) {
            c.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response get = c.read();
            assertThat(get.bodyBytes()).hasSize(2007);

            // HEAD then GET in one write: if HEAD carried body bytes, the GET response would not parse
            c.send("HEAD /page HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = c.read(true);
            assertThat(head.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(head.header("Content-Length")).isEqualTo("2007");
            assertThat(withoutDate(head.headers())).isEqualTo(withoutDate(get.headers()));
            RawConnection.Response after = c.read();
            assertThat(after.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(after.body()).isEqualTo("hello");
        }
    }

    @Test
    void headOnAFastRouteHasTheGetHeadersAndNoBody() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /static HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response get = c.read();
            c.send("HEAD /static HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = c.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("6");
            assertThat(withoutDate(head.headers())).isEqualTo(withoutDate(get.headers()));
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void theEnginesOwnRefusalsOfAHeadRequestHaveNoBody() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes())) {
            String[][] cases = {
                    {"HEAD /hello HTTP/1.1\r\nHost: x y\r\n\r\n", "400"},
                    {"HEAD /hello HTTP/1.1\r\nHost: x\r\nContent-Length: +1\r\n\r\n", "400"},
                    {"HEAD /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "501"},
                    {"HEAD /hello HTTP/1.1\r\nHost: x\r\nExpect: x\r\n\r\n", "417"}};
            for (String[] k : cases) {
                try (RawConnection c = t.raw()) {
                    c.send(k[0]);
                    String head = c.readHead();
                    assertThat(head).as(k[0]).startsWith("HTTP/1.1 " + k[1]).contains("Connection: close\r\n");
                    // the length a GET would get, and not one byte of it (RFC 9110 9.3.2)
                    assertThat(head).as(k[0]).containsPattern("Content-Length: [1-9]");
                    assertThat(c.readAll()).as(k[0]).isEmpty();
                }
            }
            try (RawConnection c = t.raw()) {
                c.send("GET /hello HTTP/1.1\r\nHost: x y\r\n\r\n");
                assertThat(c.read().body()).as("GET still gets the reason").isEqualTo("Malformed Host header\n");
            }
        }
    }

    @Test
    void theAsteriskTargetIsForOptionsOnly() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes())) {
            try (RawConnection c = t.raw()) {
                c.send("GET * HTTP/1.1\r\nHost: x\r\n\r\n");
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(400);
                assertThat(r.body()).isEqualTo("The asterisk target is for OPTIONS only\n");
                assertThat(c.closedWithin(2_000)).isTrue();
            }
            try (RawConnection c = t.raw()) {
                c.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(c.read().status()).isBetween(200, 299);
            }
        }
    }

    @Test
    void headOnAStreamedRouteHasNoBody() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            Wire.routes().accept(cfg);
            cfg.get("/stream", ctx -> ctx.stream(new ByteArrayInputStream("streamed".getBytes(StandardCharsets.UTF_8))));
        }); RawConnection c = t.raw()) {
            c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response get = c.read();
            assertThat(get.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(get.body()).isEqualTo("streamed");
            c.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = c.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(withoutDate(head.headers())).isEqualTo(withoutDate(get.headers()));
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void headOnAnUnknownPathIs404WithoutBody() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("HEAD /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = c.read(true);
            assertThat(head.status()).isEqualTo(404);
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    // ---- request targets ---------------------------------------------------------------------

    @Test
    void higherHttp1MinorVersionIsServedAsHttp11() {
        // RFC 9110 6.2: a 1.x minor version above ours is processed as 1.1
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.2\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response first = c.read();
            assertThat(first.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(first.body()).isEqualTo("hello");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void absoluteFormTargetIsRouted() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET http://localhost/users/7?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET HTTP://LOCALHOST:8080/users/8 HTTP/1.1\r\nHost: localhost:8080\r\n\r\n"
                    + "GET https://localhost/users/9?x=2 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET http://localhost/static?y=1 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET http://localhost?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            RawConnection.Response r1 = c.read();
            assertThat(r1.status()).isEqualTo(200);
            assertThat(r1.body()).isEqualTo("user=7;x=1");
            assertThat(c.read().body()).isEqualTo("user=8");
            assertThat(c.read().body()).isEqualTo("user=9;x=2");
            assertThat(c.read().body()).isEqualTo("static");
            assertThat(c.read().status()).as("absolute-form without a path is /").isEqualTo(404);
        }
    }

    @Test
    void percentEncodedPathParameterIsDecoded() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /users/a%20b?x=c%26d HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("user=a b;x=c&d");
            c.send("GET /users/caf%C3%A9?x=%E2%82%AC HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("user=caf\u00e9;x=\u20ac");
            // bytes that are not UTF-8 once decoded are a 400 that says so, never a U+FFFD in the handler
            c.send("GET /users/%c3%28 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response path = c.read();
            assertThat(path.status()).isEqualTo(400);
            assertThat(path.body()).isEqualTo("Malformed UTF-8 in path");
            c.send("GET /users/7?x=%E9 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response query = c.read();
            assertThat(query.status()).isEqualTo(400);
            assertThat(query.body()).isEqualTo("Malformed UTF-8 in query");
        }
    }

    @Test
    void optionsAsteriskIs204WithAllow() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.statusLine()).isEqualTo("HTTP/1.1 204 No Content");
            assertThat(r.header("Allow")).isEqualTo("GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS");
            assertThat(r.header("Content-Length")).isNull();
            assertThat(r.header("Connection")).isNull();
            assertThat(c.read().body()).as("no body bytes before the next response").isEqualTo("hello");
        }
    }

    @Test
    void optionsOnARouteIs204WithItsAllow() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("OPTIONS /users/1 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(204);
            assertThat(r.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
        }
    }

    // ---- 404 / 405 / 501 --------------------------------------------------------------------

    @Test
    void unknownMethodIs501AndTheConnectionStaysUsable() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("BREW / HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "get /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response brew = c.read();
            assertThat(brew.statusLine()).isEqualTo("HTTP/1.1 501 Not Implemented");
            assertThat(brew.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
            RawConnection.Response lower = c.read();
            assertThat(lower.status()).as("methods are case-sensitive").isEqualTo(501);
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void unknownMethodWithABodyIs501AndTheBodyIsSkipped() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("BREW /pot HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\ntea!"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(501);
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void knownPathWithWrongMethodIs405WithAllow() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("DELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /users/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"
                    + "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r1 = c.read();
            assertThat(r1.statusLine()).isEqualTo("HTTP/1.1 405 Method Not Allowed");
            assertThat(r1.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
            assertThat(r1.header("Connection")).isNull();
            RawConnection.Response r2 = c.read();
            assertThat(r2.status()).isEqualTo(405);
            assertThat(r2.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
            RawConnection.Response r3 = c.read();
            assertThat(r3.status()).isEqualTo(405);
            assertThat(r3.header("Allow")).isEqualTo("POST, OPTIONS");
        }
    }

    @Test
    void unknownPathIs404AndTheConnectionStaysOpen() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.statusLine()).isEqualTo("HTTP/1.1 404 Not Found");
            assertThat(r.body()).isEqualTo("Not Found");
            assertThat(r.header("Connection")).isNull();
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void bodylessStatusesCarryNoBodyAndNoLength() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            Wire.routes().accept(cfg);
            cfg.get("/nocontent", ctx -> ctx.status(204).text("dropped"));
            cfg.get("/notmodified", ctx -> ctx.status(304).header("ETag", "\"v1\"").text("dropped"));
        }); RawConnection c = t.raw()) {
            c.send("GET /nocontent HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /notmodified HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r204 = c.read();
            assertThat(r204.statusLine()).isEqualTo("HTTP/1.1 204 No Content");
            assertThat(r204.header("Content-Length")).isNull();
            assertThat(r204.header("Transfer-Encoding")).isNull();
            assertThat(r204.header("Content-Type")).isNull();
            RawConnection.Response r304 = c.read();
            assertThat(r304.statusLine()).isEqualTo("HTTP/1.1 304 Not Modified");
            assertThat(r304.header("ETag")).isEqualTo("\"v1\"");
            assertThat(r304.header("Content-Length")).isNull();
            // had either carried body bytes, this response would not parse
            RawConnection.Response next = c.read();
            assertThat(next.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(next.body()).isEqualTo("hello");
        }
    }

    @Test
    void handlerExceptionIs500AndTheConnectionStaysUsable() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            Wire.routes().accept(cfg);
            cfg.get("/boom", ctx -> {
                ctx.header("X-Partial", "1").text("half");
                throw new IllegalStateException("boom");
            });
        }); RawConnection c = t.raw()) {
            c.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.statusLine()).isEqualTo("HTTP/1.1 500 Internal Server Error");
            assertThat(r.body()).isEqualTo("Internal Server Error").doesNotContain("boom");
            assertThat(r.header("X-Partial")).as("what the handler set before failing is dropped").isNull();
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void streamedResponseToHttp10IsDelimitedByClose() {
        try (BriskTestServer t = Wire.start(engine, cfg ->
                cfg.get("/stream", ctx -> ctx.stream(new ByteArrayInputStream("streamed".getBytes(StandardCharsets.UTF_8)))));
             RawConnection c = t.raw()) {
            c.send("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            c.timeout(3_000);
            String wire = c.readAll();
            int headEnd = wire.indexOf("\r\n\r\n");
            String head = wire.substring(0, headEnd + 2);
            assertThat(head).startsWith("HTTP/1.1 200 OK\r\n");
            assertThat(head).doesNotContainIgnoringCase("Transfer-Encoding").doesNotContainIgnoringCase("Content-Length");
            assertThat(head).contains("\r\nConnection: close\r\n");
            assertThat(wire.substring(headEnd + 4)).isEqualTo("streamed");
        }
    }

    @Test
    void fastRouteIgnoresTheQueryString() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /static?a=1&b=2 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("static");
        }
    }

    @Test
    void fastRouteWithOtherMethodsIs405AndOptionsIs204() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /static HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                    + "OPTIONS /static HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response post = c.read();
            RawConnection.Response options = c.read();
            assertThat(List.of(post.status(), options.status())).isEqualTo(List.of(405, 204));
            assertThat(post.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
            assertThat(options.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
        }
    }

    @Test
    void fastRouteGetWithABodyIsServed() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /static HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("static");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }
}
