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
 * {@code STREAM_CLOSED}. And 6.4: a stream error on a stream the client never opened is not answered
 * with a {@code RST_STREAM} naming that idle stream (which the client must take as a connection error),
 * but as the connection's error.
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

    /** A PRIORITY of the wrong size is a stream error (6.3); on an idle stream it cannot be a RST_STREAM. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aStreamErrorOnAnIdleStreamIsTheConnectionsNotARstStreamNamingIt(Engine engine) throws Exception {
        try (H2Conn c = start(engine)) {
            c.get(1, "/hello");
            c.await(on(H2Conn.DATA, 1).and(f -> f.has(H2Conn.END_STREAM)));
            c.frame(H2Conn.PRIORITY, 0, 1, new byte[4]); // stream 1, closed now: a RST_STREAM may name it
            assertThat(c.await(type(H2Conn.RST_STREAM)).stream()).isEqualTo(1);
            c.frame(H2Conn.PRIORITY, 0, 3, new byte[] {0, 0, 0, 3, 15}); // idle stream 3 depends on itself
            H2Conn.Frame f = c.await(type(H2Conn.RST_STREAM).or(type(GOAWAY)));
            assertThat(f.type()).as("frame after a stream error on idle stream 3 (RST_STREAM on stream %d?)", f.stream())
                    .isEqualTo(GOAWAY);
            assertThat(f.errorCode()).isEqualTo(H2Conn.PROTOCOL_ERROR);
            assertThat(f.lastStream()).isEqualTo(1);
            assertThat(c.closedWithin(Duration.ofSeconds(5))).as("closed after the GOAWAY").isTrue();
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
