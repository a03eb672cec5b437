package dev.brisk.http2;

import static dev.brisk.http2.H2Conn.DATA;
import static dev.brisk.http2.H2Conn.HEADERS;
import static dev.brisk.http2.H2Conn.WINDOW_UPDATE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A streamed HTTP/2 body's window is opened only for room the body really has: while a DATA frame is
 * half in, its whole length has left the window but only part of it is in the body, so a handler that
 * reads what came must not earn the client the rest of the frame again (it would let the client send
 * past the body's buffer and overwrite bytes not yet read: uploads arrived with the right length and
 * the wrong bytes, seen with curl -F over h2c).
 */
@ParameterizedClass
@EnumSource(value = Engine.class, names = {"NIO", "URING"}) // the blocking engine collects the body whole
class Http2StreamedWindowTest {
    private static final int WINDOW = 16_384;

    @Parameter
    Engine engine;

    private Brisk app;
    private final AtomicLong read = new AtomicLong();

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aHalfArrivedFrameEarnsNoWindowUntilItIsWhole() throws Exception {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1)).h2InitialWindowSize(WINDOW);
            cfg.post("/read", ctx -> {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                byte[] buf = new byte[4096];
                try (InputStream in = ctx.bodyAsStream()) {
                    for (int r; (r = in.read(buf)) >= 0; ) {
                        sha.update(buf, 0, r);
                        read.addAndGet(r);
                    }
                }
                ctx.text(read.get() + " " + HexFormat.of().formatHex(sha.digest()));
            }).streamBody();
        }).start();
        byte[] body = new byte[WINDOW];
        new Random(3).nextBytes(body);
        try (H2Conn c = new H2Conn(app.port())) {
            c.headers(1, false, H2Conn.request("POST", "/read"));
            byte[] frame = H2Conn.encode(DATA, 0, 1, body); // the whole window in one frame
            int part = 9 + 4000;
            c.raw(Arrays.copyOfRange(frame, 0, part));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (read.get() < 4000 && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            assertThat(read.get()).as("the handler read what came of the frame").isEqualTo(4000);
            // what the server sends now, within a quiet 300 ms (nothing can be interleaved: the rest of the
            // frame is what the connection reads next), must not open the window past what was read
            int granted = 0;
            c.timeout(300);
            try {
                while (true) {
                    H2Conn.Frame f = c.read();
                    if (f != null && f.type() == WINDOW_UPDATE && f.stream() == 1) {
                        granted += ByteBuffer.wrap(f.payload()).getInt();
                    }
                }
            } catch (java.net.SocketTimeoutException quiet) {
                // nothing more came
            }
            c.timeout(10_000);
            assertThat(granted).as("window given back for a frame still arriving").isZero();
            c.raw(Arrays.copyOfRange(frame, part, frame.length));
            H2Conn.Frame update = c.await(f -> f.type() == WINDOW_UPDATE && f.stream() == 1);
            assertThat(ByteBuffer.wrap(update.payload()).getInt()).as("room the body has once the frame is in")
                    .isPositive().isLessThanOrEqualTo(WINDOW);
            c.data(1, true, new byte[0]);
            assertThat(c.await(f -> f.type() == HEADERS && f.stream() == 1).stream()).isEqualTo(1);
            H2Conn.Frame answer = c.await(f -> f.type() == DATA && f.stream() == 1);
            assertThat(new String(answer.payload(), StandardCharsets.US_ASCII)).isEqualTo(WINDOW + " "
                    + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)));
        }
    }
}
