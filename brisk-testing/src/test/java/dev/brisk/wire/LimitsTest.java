package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.ServerOptions;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Size limits: request line (414), header block and field count (431), body (413). Limits are checked
 * on the head alone where they can be, so a 413 for a declared length is sent before any body byte.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class LimitsTest {
    @Parameter
    Engine engine;

    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

    private static void assertRefused(RawConnection c, int status) {
        RawConnection.Response r = c.read();
        assertThat(r.status()).isEqualTo(status);
        assertThat(r.header("Connection")).isEqualTo("close");
        assertThat(r.header("Content-Length")).isEqualTo(String.valueOf(r.bodyBytes().length));
        Wire.assertNothingMoreAndClosed(c);
    }

    // ---- request line ----------------------------------------------------------------------

    @Test
    void requestTargetOverTheDefaultLimitIs414() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            // request line: "GET /" + 9000 x "a" + " HTTP/1.1" = 9014 bytes > 8192
            c.send("GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: x\r\n\r\n" + SMUGGLED);
            assertRefused(c, 414);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void requestLineOfExactlyTheLimitIsServedAndOneMoreByteIs414() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/{p}", ctx -> ctx.text("len=" + ctx.pathParam("p").length())))) {
            // "GET /" (5) + 8178 x "a" + " HTTP/1.1" (9) = 8192 bytes: exactly max-request-line
            try (RawConnection c = t.raw()) {
                c.send("GET /" + "a".repeat(8178) + " HTTP/1.1\r\nHost: x\r\n\r\n");
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("len=8178");
            }
            // 8193 bytes
            try (RawConnection c = t.raw()) {
                c.send("GET /" + "a".repeat(8179) + " HTTP/1.1\r\nHost: x\r\n\r\n");
                assertRefused(c, 414);
            }
        }
    }

    @Test
    void requestLineOfExactlyTheLimitIsServedWhenSplitBetweenCrAndLf() throws InterruptedException {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/{p}", ctx -> ctx.text("len=" + ctx.pathParam("p").length())));
             RawConnection c = t.raw()) {
            // 8192-byte request line; the first write ends with its CR, the second starts with its LF
            String toCr = "GET /" + "a".repeat(8178) + " HTTP/1.1\r";
            long readBefore = t.app().metrics().bytesIn();
            c.send(toCr);
            Wire.awaitBytesRead(t, readBefore + toCr.length()); // so the LF arrives in a later read
            c.send("\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("len=8178");
        }
    }

    @Test
    void hugeRequestLineWithoutLineEndIs414BeforeItEnds() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            // the line never ends: the server must answer once it is over the limit, not wait
            c.send("GET /" + "a".repeat(30_000));
            assertRefused(c, 414);
        }
    }

    @Test
    void smallerConfiguredRequestLineLimit() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxRequestLine(64);
            Wire.routes().accept(cfg);
        }); RawConnection c = t.raw()) {
            // "GET /users/" + 60 digits + " HTTP/1.1" = 80 bytes > 64
            c.send("GET /users/123456789012345678901234567890123456789012345678901234567890 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertRefused(c, 414);
        }
    }

    // ---- header block ----------------------------------------------------------------------

    @Test
    void headerBlockOver16KiBIs431() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            StringBuilder req = new StringBuilder("GET /hello HTTP/1.1\r\nHost: x\r\n");
            for (int i = 0; i < 17; i++) {
                // 17 lines of 1010 bytes: "X-Fill-NN: " (11) + 997 x "v" + CRLF
                req.append(String.format("X-Fill-%02d: ", i)).append("v".repeat(997)).append("\r\n");
            }
            req.append("\r\n");
            c.send(req + SMUGGLED);
            assertRefused(c, 431);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void headerBlockOfExactly16KiBIsServedAndOneMoreByteIs431() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/hello", ctx -> ctx.text("fill=" + ctx.header("X-Fill").length())))) {
            // header lines: "Host: x\r\n" (9) + "X-Fill: " (8) + 16365 x "v" + "\r\n" (2) = 16384
            try (RawConnection c = t.raw()) {
                c.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Fill: " + "v".repeat(16365) + "\r\n\r\n");
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("fill=16365");
            }
            try (RawConnection c = t.raw()) {
                c.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Fill: " + "v".repeat(16366) + "\r\n\r\n");
                assertRefused(c, 431);
            }
        }
    }

    @Test
    void oneHeaderLineThatNeverEndsIs431() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Endless: " + "v".repeat(20_000));
            assertRefused(c, 431);
        }
    }

    @Test
    void oneHeaderFieldOverTheDefaultLimitIs431() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            StringBuilder req = new StringBuilder("GET /hello HTTP/1.1\r\nHost: x\r\n");
            for (int i = 1; i <= ServerOptions.DEFAULT_MAX_HEADERS; i++) {
                req.append("X-").append(i).append(": v\r\n"); // Host + the limit = one field too many
            }
            req.append("\r\n");
            c.send(req + SMUGGLED);
            assertRefused(c, 431);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void exactlyTheDefaultLimitOfHeaderFieldsIsServed() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/hello", ctx -> ctx.text("n=" + ctx.headerNames().size())));
             RawConnection c = t.raw()) {
            StringBuilder req = new StringBuilder("GET /hello HTTP/1.1\r\nHost: x\r\n");
            for (int i = 1; i < ServerOptions.DEFAULT_MAX_HEADERS; i++) {
                req.append("X-").append(i).append(": v\r\n"); // Host + (limit - 1) = the limit
            }
            req.append("\r\n");
            c.send(req.toString());
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("n=" + ServerOptions.DEFAULT_MAX_HEADERS);
        }
    }

    // ---- body --------------------------------------------------------------------------------

    @Test
    void declaredBodyOverTheLimitIs413BeforeTheBodyIsSent() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(1024);
            Wire.routes(smuggled).accept(cfg);
        }); RawConnection c = t.raw()) {
            // only the head: the answer must not wait for the 1025 body bytes
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.statusLine()).isEqualTo("HTTP/1.1 413 Content Too Large");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(c.closedWithin(2_000)).isTrue();
        }
    }

    @Test
    void declaredBodyOfExactlyTheLimitIsServed() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(1024);
            Wire.routes().accept(cfg);
        }); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n" + "b".repeat(1024));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("b".repeat(1024));
            assertThat(r.header("Connection")).isNull();
        }
    }

    @Test
    void declaredBodyOverTheLimitSentAnywayIsNotTakenForRequests() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(1024);
            Wire.routes(smuggled).accept(cfg);
        }); RawConnection c = t.raw()) {
            // the "body" is itself a request: it must be drained, never served
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2048\r\n\r\n"
                    + SMUGGLED + "x".repeat(2048 - SMUGGLED.length()));
            assertRefused(c, 413);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void chunkedBodyGrowingOverTheLimitIs413() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(1024);
            Wire.routes(smuggled).accept(cfg);
        }); RawConnection c = t.raw()) {
            // 0x400 = 1024 bytes fit; one more byte does not
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "400\r\n" + "a".repeat(1024) + "\r\n"
                    + "1\r\nb\r\n"
                    + "0\r\n\r\n"
                    + SMUGGLED);
            assertRefused(c, 413);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void chunkedBodyWithOneChunkDeclaredOverTheLimitIs413BeforeItsData() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(1024);
            Wire.routes().accept(cfg);
        }); RawConnection c = t.raw()) {
            // only the chunk-size line: the 413 must not wait for the data
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n401\r\n");
            assertRefused(c, 413);
        }
    }

    @Test
    void chunkedBodyOfExactlyTheLimitIsServed() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(1024);
            Wire.routes().accept(cfg);
        }); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "200\r\n" + "a".repeat(512) + "\r\n"
                    + "200\r\n" + "b".repeat(512) + "\r\n"
                    + "0\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("a".repeat(512) + "b".repeat(512));
        }
    }

    @Test
    void chunkExtensionOverTheLimitIs400() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            // default max-chunk-extension is 256 bytes
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;ext=" + "e".repeat(300) + "\r\nhello\r\n0\r\n\r\n");
            assertRefused(c, 400);
        }
    }

    @Test
    void trailerSectionOverTheHeaderLimitIs431() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxHeaderSize(1024);
            Wire.routes().accept(cfg);
        }); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\nX-Trailer: " + "t".repeat(2000) + "\r\n\r\n");
            assertRefused(c, 431);
        }
    }

    // ---- a route's own body limit ------------------------------------------------------------

    private static final int MIB = 1 << 20;

    @Test
    void theDefaultBodyLimitIsOneMebibyte() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            byte[] body = new byte[MIB];
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + MIB + "\r\n\r\n").send(body);
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyBytes()).hasSize(MIB);
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + (MIB + 1) + "\r\n\r\n");
            assertRefused(c, 413);
        }
    }

    @Test
    void aRouteMayRaiseTheBodyLimitForItselfOnly() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().bodySpoolDisk(0); // held in memory: this is about the limit, not the spooling
            cfg.post("/big", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(4L * MIB);
            Wire.routes().accept(cfg);
        })) {
            try (RawConnection c = t.raw()) {
                c.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: " + 3 * MIB + "\r\n\r\n").send(new byte[3 * MIB]);
                assertThat(c.read().body()).isEqualTo("n=" + 3 * MIB);
                c.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: " + (4 * MIB + 1) + "\r\n\r\n");
                assertRefused(c, 413);
            }
            try (RawConnection c = t.raw()) {
                c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + 3 * MIB + "\r\n\r\n");
                assertRefused(c, 413); // the other routes keep the server's limit
            }
        }
    }

    @Test
    void aRouteMayLowerTheBodyLimitAlsoForChunkedBodies() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.post("/small", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(100);
        })) {
            try (RawConnection c = t.raw()) {
                c.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + "s".repeat(100));
                assertThat(c.read().body()).isEqualTo("n=100");
                c.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n");
                assertRefused(c, 413);
            }
            try (RawConnection c = t.raw()) {
                c.send("POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "50\r\n" + "a".repeat(80) + "\r\n" + "50\r\n" + "b".repeat(80) + "\r\n0\r\n\r\n");
                assertRefused(c, 413);
            }
        }
    }

    @Test
    void aBodyForNoRouteHasTheServersLimit() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(1024);
            Wire.routes().accept(cfg);
        }); RawConnection c = t.raw()) {
            c.send("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n");
            assertRefused(c, 413);
        }
    }
}
