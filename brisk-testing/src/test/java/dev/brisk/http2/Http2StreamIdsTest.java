package dev.brisk.http2;

import static dev.brisk.http2.H2Conn.GOAWAY;
import static dev.brisk.http2.H2Conn.HEADERS;
import static dev.brisk.http2.H2Conn.on;
import static dev.brisk.http2.H2Conn.type;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * RFC 9113 5.1.1 on the wire, every engine: a header block on a lower id the client skipped is an
 * unexpected stream identifier ({@code PROTOCOL_ERROR}); on a stream it opened and that is closed now,
 * {@code STREAM_CLOSED}.
 */
class Http2StreamIdsTest {
    private Brisk app;

    private H2Conn start(Engine engine) throws Exception {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/hello", ctx -> ctx.text("hello"));
        }).start();
        return new H2Conn(app.port());
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static void assertGoAway(H2Conn c, int code, int lastStream) throws Exception {
        H2Conn.Frame g = c.await(type(GOAWAY));
        assertThat(g.errorCode()).as("GOAWAY's code").isEqualTo(code);
        assertThat(g.lastStream()).isEqualTo(lastStream);
        assertThat(c.closedWithin(Duration.ofSeconds(5))).as("closed after the GOAWAY").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void headersOnALowerIdNeverOpenedIsAProtocolError(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(5, "/hello"); // skips 1 and 3
            assertThat(c.await(on(HEADERS, 5)).status()).isEqualTo(200);
            c.get(3, "/hello");
            assertGoAway(c, H2Conn.PROTOCOL_ERROR, 5);
        }
    }

    /** Below the highest id, an even one is still the client's protocol error, whatever its neighbours. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void headersOnALowerEvenIdIsAProtocolError(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/hello");
            c.get(3, "/hello");
            c.await(on(H2Conn.DATA, 3).and(f -> f.has(H2Conn.END_STREAM)));
            c.get(2, "/hello");
            assertGoAway(c, H2Conn.PROTOCOL_ERROR, 3);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void headersOnAStreamOpenedAndClosedIsStreamClosed(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/hello");
            c.await(on(H2Conn.DATA, 1).and(f -> f.has(H2Conn.END_STREAM)));
            c.get(3, "/hello");
            c.await(on(H2Conn.DATA, 3).and(f -> f.has(H2Conn.END_STREAM)));
            c.get(1, "/hello");
            assertGoAway(c, H2Conn.STREAM_CLOSED, 3);
        }
    }
}
