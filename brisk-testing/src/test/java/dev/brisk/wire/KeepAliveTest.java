package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Persistent connections: defaults per version, the Connection header, and the per-connection cap. */
@ParameterizedClass
@EnumSource(Engine.class)
class KeepAliveTest {
    @Parameter
    Engine engine;


    @Test
    void http11KeepsTheConnectionOpenByDefault() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response first = c.read();
            assertThat(first.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(first.body()).isEqualTo("hello");
            assertThat(first.header("Connection")).isNull();
            assertThat(first.header("Content-Length")).isEqualTo("5");
            assertThat(first.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
            assertThat(first.header("Date")).isNotBlank();
            assertThat(c.silentFor(200)).as("connection stays open and quiet").isTrue();

            c.send("GET /users/42 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response second = c.read();
            assertThat(second.status()).isEqualTo(200);
            assertThat(second.body()).isEqualTo("user=42");
            assertThat(second.header("Connection")).isNull();
            assertThat(c.silentFor(200)).isTrue();
        }
    }

    @Test
    void http10ClosesByDefault() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            // no Host is fine for HTTP/1.0; the second request must not be answered
            c.send("GET /hello HTTP/1.0\r\n\r\nGET /smuggled HTTP/1.0\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello");
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void http10ClosesByDefaultOnAFastRoute() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /static HTTP/1.0\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("static");
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @Test
    void http10WithKeepAliveStaysOpen() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawConnection.Response first = c.read();
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.body()).isEqualTo("hello");
            assertThat(first.header("Connection")).isEqualTo("keep-alive");
            assertThat(c.silentFor(200)).isTrue();

            c.send("GET /static HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
            RawConnection.Response second = c.read();
            assertThat(second.status()).isEqualTo(200);
            assertThat(second.body()).isEqualTo("static");
            assertThat(second.header("Connection")).isEqualTo("keep-alive");
            assertThat(c.silentFor(200)).isTrue();

            // the next HTTP/1.0 request without the token ends it
            c.send("GET /users/3 HTTP/1.0\r\n\r\n");
            RawConnection.Response third = c.read();
            assertThat(third.body()).isEqualTo("user=3");
            assertThat(third.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @Test
    void connectionCloseIsHonouredAndAPipelinedRequestIsNotAnswered() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    + "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello");
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void connectionCloseOnAFastRoute() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, Wire.routes(smuggled)); RawConnection c = t.raw()) {
            c.send("GET /static HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    + "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("static");
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void connectionCloseAmongOtherTokensAndInAnyCase() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, CLOSE\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @Test
    void connectionCloseOnAPostWithBody() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 4\r\n\r\nping");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("ping");
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @Test
    void maxRequestsPerConnectionClosesAfterTheThird() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxRequestsPerConnection(3);
            Wire.routes().accept(cfg);
        }); RawConnection c = t.raw()) {
            c.send("GET /users/1 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r1 = c.read();
            assertThat(r1.body()).isEqualTo("user=1");
            assertThat(r1.header("Connection")).isNull();
            c.send("GET /static HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r2 = c.read();
            assertThat(r2.body()).isEqualTo("static");
            assertThat(r2.header("Connection")).isNull();
            c.send("GET /users/3 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r3 = c.read();
            assertThat(r3.body()).isEqualTo("user=3");
            assertThat(r3.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @Test
    void maxRequestsPerConnectionWithPipelinedRequests() {
        AtomicInteger smuggled = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxRequestsPerConnection(3);
            Wire.routes(smuggled).accept(cfg);
        }); RawConnection c = t.raw()) {
            c.send("GET /users/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/2 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /static HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r1 = c.read();
            RawConnection.Response r2 = c.read();
            RawConnection.Response r3 = c.read();
            assertThat(r1.body()).isEqualTo("user=1");
            assertThat(r2.body()).isEqualTo("user=2");
            assertThat(r3.body()).isEqualTo("static");
            assertThat(r1.header("Connection")).isNull();
            assertThat(r2.header("Connection")).isNull();
            assertThat(r3.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
            assertThat(smuggled).hasValue(0);
        }
    }

    @Test
    void clientHalfCloseAfterARequestStillGetsTheResponse() {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").shutdownOutput();
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello");
            Wire.assertNothingMoreAndClosed(c);
        }
    }
}
