package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Request bodies framed by Content-Length or chunked coding, however they arrive. */
@ParameterizedClass
@EnumSource(Engine.class)
class BodyTest {
    @Parameter
    Engine engine;


    @Test
    void contentLengthBodyIsEchoed() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world");
            RawConnection.Response r = c.read();
            assertThat(r.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(r.body()).isEqualTo("hello world");
            assertThat(r.header("Content-Length")).isEqualTo("11");
            assertThat(r.header("Content-Type")).isEqualTo("application/octet-stream");
            assertThat(r.header("Connection")).isNull();
            // the connection is still usable: the body was framed exactly
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void binaryBodyWithEveryByteValueIsEchoed() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            byte[] body = new byte[256];
            for (int i = 0; i < 256; i++) {
                body[i] = (byte) i;
            }
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 256\r\n\r\n");
            c.send(body);
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyBytes()).isEqualTo(body);
        }
    }

    @Test
    void contentLengthWithLeadingZerosAndSurroundingSpaces() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length:   005 \t\r\n\r\nhello"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("hello");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void chunkedBodyWithExtensionsAndTrailersIsEchoed() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;name=value\r\nhello\r\n"
                    + "1 ; lone\r\n \r\n"
                    + "5;a;b=\"c d\"\r\nworld\r\n"
                    + "A\r\n, chunked!\r\n"
                    + "0;last=yes\r\n"
                    + "X-Trailer: one\r\n"
                    + "X-Other: two\r\n"
                    + "\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello world, chunked!");
            assertThat(r.header("Content-Length")).isEqualTo("21");
            // the request after the trailers is framed correctly
            RawConnection.Response next = c.read();
            assertThat(next.status()).isEqualTo(200);
            assertThat(next.body()).isEqualTo("hello");
        }
    }

    @Test
    void chunkedCodingNameIsCaseInsensitive() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("abc");
        }
    }

    @Test
    void emptyChunkedBody() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyBytes()).isEmpty();
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void upperCaseHexChunkSize() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("abcdefghijklmnopqrstuvwxyz");
        }
    }

    @Test
    void contentLengthBodySentInSeveralWritesWithPauses() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 26\r\n\r\n");
            c.sendInPieces("abcdefghijklmnopqrstuvwxyz", 5, 60);
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("abcdefghijklmnopqrstuvwxyz");
        }
    }

    @Test
    void wholeRequestSentByteByByte() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.sendInPieces("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 1, 2);
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void chunkedBodySentInSeveralWritesWithPausesSplitInsideSizeLinesAndData() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            c.sendInPieces("5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: v\r\n\r\n", 3, 40);
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello world");
        }
    }

    @Test
    void largeBodyBeyondTheInputBufferIsEchoed() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            // 128 KiB of numbered lines: no two 4 KiB slabs of it alike, so bytes out of order would show
            StringBuilder numbered = new StringBuilder(131_072);
            for (int i = 0; i < 16_384; i++) {
                numbered.append(String.format("%07d\n", i));
            }
            String body = numbered.toString();
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 131072\r\n\r\n" + body
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n20000\r\n" + body + "\r\n0\r\n\r\n");
            RawConnection.Response r1 = c.read();
            assertThat(r1.status()).isEqualTo(200);
            assertThat(r1.body()).isEqualTo(body);
            RawConnection.Response r2 = c.read();
            assertThat(r2.status()).isEqualTo(200);
            assertThat(r2.body()).isEqualTo(body);
        }
    }

    @Test
    void emptyLineBeforeTheRequestLineIsTolerated() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello");
            // also between requests on a kept-alive connection (e.g. a client's stray CRLF after a body)
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok\r\n"
                    + "GET /users/5 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("ok");
            assertThat(c.read().body()).isEqualTo("user=5");
        }
    }

    @Test
    void bodyIsDecodedWithTheCharsetOfItsContentType() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.post("/text", ctx -> ctx.text(ctx.bodyAsString())));
             RawConnection c = t.raw()) {
            byte[] latin1 = "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1); // 4 bytes
            c.send("POST /text HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Length: 4\r\n\r\n");
            c.send(latin1);
            assertThat(c.read().body()).isEqualTo("caf\u00e9"); // re-encoded as UTF-8 by ctx.text
        }
    }

    @Test
    void getWithABodyOnANormalRoute() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/peek", ctx -> ctx.text("got " + ctx.bodyAsString())));
             RawConnection c = t.raw()) {
            c.send("GET /peek HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                    + "GET /peek HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("got abc");
            assertThat(c.read().body()).isEqualTo("got ");
        }
    }

    @Test
    void unreadBodyIsSkippedAndTheNextRequestIsServed() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.post("/ignore", ctx -> ctx.text("ignored")));
             RawConnection c = t.raw()) {
            c.send("POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 31\r\n\r\nGET /ignore HTTP/1.1\r\nHost: x\r\n"
                    + "POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("ignored");
            RawConnection.Response second = c.read();
            assertThat(second.status()).isEqualTo(200);
            assertThat(second.body()).isEqualTo("ignored");
            assertThat(c.silentFor(150)).isTrue();
        }
    }
}
