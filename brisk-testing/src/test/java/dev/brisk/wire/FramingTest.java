package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strict framing: every message two parsers could frame differently is refused, answered once, and
 * the connection is closed, so bytes after it are never taken for a request. Each case writes the
 * bad request and a second, valid request ({@code GET /smuggled}) in the same write.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class FramingTest {
    @Parameter
    Engine engine;

    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

    static Stream<Arguments> badRequests() {
        return Stream.of(
                // ---- Content-Length / Transfer-Encoding ----
                Arguments.of("CL and TE together",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("TE and CL together (TE first)",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("two differing Content-Length fields",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400),
                Arguments.of("Content-Length list with differing values",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\nhello!", 400),
                Arguments.of("Content-Length +5",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello", 400),
                Arguments.of("Content-Length -5",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\nhello", 400),
                Arguments.of("Content-Length 1 0",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1 0\r\n\r\nhellohello", 400),
                Arguments.of("Content-Length abc",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\nhello", 400),
                Arguments.of("Content-Length of 20 digits",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 12345678901234567890\r\n\r\nhello", 400),
                Arguments.of("Content-Length empty",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \r\n\r\nhello", 400),
                Arguments.of("Content-Length in hex",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\nhello", 400),
                Arguments.of("TE last coding not chunked",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("TE gzip only",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("TE chunked twice",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("TE chunked in two fields, then gzip",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("TE with a parameter on chunked",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("TE in HTTP/1.0",
                        "POST /echo HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("TE unknown coding before chunked",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
                // ---- header syntax ----
                Arguments.of("obs-fold",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400),
                Arguments.of("obs-fold with a tab",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n\tb\r\n\r\n", 400),
                Arguments.of("space before colon",
                        "GET /hello HTTP/1.1\r\nHost : x\r\n\r\n", 400),
                Arguments.of("space before colon on Transfer-Encoding",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n", 400),
                Arguments.of("bare CR in a header value",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400),
                Arguments.of("bare CR ending a header value",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\r\n\r\n", 400),
                Arguments.of("NUL in a header value",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n", 400),
                Arguments.of("NUL in a header name",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nX-\0A: b\r\n\r\n", 400),
                Arguments.of("non-token character in a header name",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nX(A): b\r\n\r\n", 400),
                Arguments.of("header line without a colon",
                        "GET /hello HTTP/1.1\r\nHost: x\r\nGarbage\r\n\r\n", 400),
                Arguments.of("bare LF line ends",
                        "GET /hello HTTP/1.1\nHost: x\n\n", 400),
                Arguments.of("bare LF ending one header line",
                        "GET /hello HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n", 400),
                // ---- chunked body ----
                Arguments.of("chunk size zz",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("chunk size 0x5",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("chunk size of 16 significant hex digits",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000005\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("chunk size -5",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("empty chunk size",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("chunk data longer than its size",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n", 400),
                Arguments.of("chunk size line ended by a bare LF",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("bare LF after the last chunk",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\n", 400),
                // ---- Host ----
                Arguments.of("missing Host on HTTP/1.1",
                        "GET /hello HTTP/1.1\r\nX-A: b\r\n\r\n", 400),
                Arguments.of("missing Host with an absolute-form target",
                        "GET http://x/hello HTTP/1.1\r\n\r\n", 400),
                Arguments.of("two Host fields",
                        "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                Arguments.of("two Host fields with the same value",
                        "GET /hello HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400),
                Arguments.of("Host with a space inside",
                        "GET /hello HTTP/1.1\r\nHost: exa mple.com\r\n\r\n", 400),
                Arguments.of("Host with a slash",
                        "GET /hello HTTP/1.1\r\nHost: example.com/evil\r\n\r\n", 400),
                Arguments.of("Host with user info",
                        "GET /hello HTTP/1.1\r\nHost: user@example.com\r\n\r\n", 400),
                // ---- request line ----
                Arguments.of("HTTP/2.0 request line",
                        "GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505),
                // the whole preface is HTTP/2 with prior knowledge (h2c, Http2ClientsTest); a near miss is HTTP/1.1
                Arguments.of("HTTP/2 connection preface with a wrong end",
                        "PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n", 505),
                Arguments.of("lower-case protocol name",
                        "GET /hello http/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("two spaces after the method",
                        "GET  /hello HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("space after the version",
                        "GET /hello HTTP/1.1 \r\nHost: x\r\n\r\n", 400),
                Arguments.of("no version (HTTP/0.9 style)",
                        "GET /hello\r\nHost: x\r\n\r\n", 400),
                Arguments.of("control character in the target",
                        "GET /hel\tlo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("fragment in the target",
                        "GET /hello#frag HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("absolute-form without a host",
                        "GET http:///hello HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("too many empty lines before the request line",
                        "\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                // ---- Expect ----
                Arguments.of("Expect other than 100-continue",
                        "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 5\r\n\r\nhello", 417));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("badRequests")
    void refusedAnsweredOnceAndClosed(String name, String request, int status) {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            c.send(request + SMUGGLED);
            RawConnection.Response r = c.read();
            assertThat(r.status()).as(name).isEqualTo(status);
            assertThat(r.statusLine()).startsWith("HTTP/1.1 " + status + " ");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(r.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
            assertThat(r.header("Content-Length")).isEqualTo(String.valueOf(r.bodyBytes().length));
            Wire.assertNothingMoreAndClosed(c);
            assertThat(smuggled).as("handler of the request after the bad one").hasValue(0);
        }
    }

    @Test
    void badRequestAfterAGoodOneOnTheSameConnection() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    + "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response first = c.read();
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.body()).isEqualTo("hello");
            assertThat(first.header("Connection")).isNull();
            RawConnection.Response second = c.read();
            assertThat(second.status()).isEqualTo(400);
            assertThat(second.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void equalContentLengthFieldsAreOneLength() {
        // RFC 9112 6.3: equal repeated values may be taken as one; the body is framed by it either way
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            if (r.status() == 200) {
                assertThat(r.body()).isEqualTo("hello");
                RawConnection.Response next = c.read();
                assertThat(next.status()).isEqualTo(200);
                assertThat(next.body()).isEqualTo("hello");
            } else {
                assertThat(r.status()).isEqualTo(400);
                Wire.assertNothingMoreAndClosed(c);
            }
        }
    }

    @Test
    void emptyHeaderNameIsRefused() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n: x\r\n\r\n" + SMUGGLED);
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
            assertThat(smuggled).hasValue(0);
        }
    }
}
