package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.HttpException;
import dev.brisk.JsonCodec;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Engine paths found by review: each test failed before its fix. */
@ParameterizedClass
@EnumSource(Engine.class)
class EngineRegressionTest {
    @Parameter
    Engine engine;


    /** A client that sends a large body without waiting for 100 Continue must not stall. */
    @Test
    void eagerBodyLargerThanTheReadBufferWithExpectContinue() {
        CountDownLatch entered = new CountDownLatch(1);
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().bodyReadTimeout(Duration.ofSeconds(3));
            cfg.post("/upload", ctx -> {
                entered.countDown();
                Thread.sleep(200); // let the eager body fill the server's buffer first
                ctx.text("got " + ctx.body().length);
            });
        }); RawConnection c = t.raw()) {
            String body = "b".repeat(100_000);
            c.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " + body.length()
                    + "\r\n\r\n" + body);
            RawConnection.Response r = c.read();
            if (r.status() == 100) {
                r = c.read();
            }
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("got 100000");
        }
    }

    /** Closing after the last allowed request must not reset the connection under a large answer. */
    @Test
    void lastResponseIsDeliveredWholeWhenMoreRequestsWereSent() throws Exception {
        byte[] big = new byte[4 << 20];
        java.util.Arrays.fill(big, (byte) 'z');
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxRequestsPerConnection(1);
            cfg.get("/big", ctx -> ctx.bytes(big));
        }); Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", t.port()), 2_000);
            s.setSoTimeout(10_000);
            StringBuilder req = new StringBuilder("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
            for (int i = 0; i < 1_000; i++) {
                req.append("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
            }
            s.getOutputStream().write(req.toString().getBytes(StandardCharsets.US_ASCII));
            Thread.sleep(300); // the client reads late: the server has long finished writing and closing
            byte[] all = s.getInputStream().readAllBytes();
            String text = new String(all, 0, Math.min(all.length, 300), StandardCharsets.ISO_8859_1);
            assertThat(text).startsWith("HTTP/1.1 200 OK").contains("Connection: close");
            int headEnd = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII)) + 4;
            assertThat(all.length - headEnd).as("body bytes received").isEqualTo(big.length);
        }
    }

    private static int indexOf(byte[] a, byte[] b) {
        outer:
        for (int i = 0; i + b.length <= a.length; i++) {
            for (int j = 0; j < b.length; j++) {
                if (a[i + j] != b[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** A null body or a codec returning null is a 500, and the connection is not left hanging. */
    @Test
    void nullBodiesAreServerErrorsNotStuckConnections() {
        JsonCodec nullCodec = new JsonCodec() {
            @Override
            public byte[] write(Object value) {
                return null;
            }

            @Override
            public <T> T read(byte[] json, Class<T> type) {
                return null;
            }
        };
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.json(nullCodec);
            cfg.get("/null-bytes", ctx -> ctx.bytes((byte[]) null));
            cfg.get("/null-buffer", ctx -> ctx.bytes((java.nio.ByteBuffer) null));
            cfg.get("/null-json", ctx -> ctx.json("x"));
            cfg.get("/hello", ctx -> ctx.text("hello"));
        }); RawConnection c = t.raw()) {
            c.send("GET /null-bytes HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(500);
            c.send("GET /null-buffer HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(500);
            c.send("GET /null-json HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(500);
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    /** A client leaving during a stream whose source is idle ends the stream and frees the connection. */
    @Test
    void clientGoneDuringAnIdleStreamFreesTheConnection() throws Exception {
        CountDownLatch sourceIdle = new CountDownLatch(1);
        CountDownLatch sourceClosed = new CountDownLatch(1);
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/events", ctx -> ctx.stream(new InputStream() {
            private boolean sent;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0];
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (!sent) {
                    sent = true;
                    b[off] = 'e';
                    return 1;
                }
                sourceIdle.countDown();
                try {
                    Thread.sleep(60_000); // an event source with nothing to say
                } catch (InterruptedException e) {
                    throw new IOException("interrupted");
                }
                return -1;
            }

            @Override
            public void close() {
                sourceClosed.countDown();
            }
        })))) {
            try (RawConnection c = t.raw()) {
                c.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(sourceIdle.await(5, TimeUnit.SECONDS)).as("stream started, its source idle").isTrue();
            }
            assertThat(sourceClosed.await(5, TimeUnit.SECONDS)).as("stream source closed").isTrue();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (t.app().connectionCount() > 0 && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertThat(t.app().connectionCount()).isZero();
        }
    }

    /** Asking for a failed deferred body again repeats the failure; no second 100 Continue is sent. */
    @Test
    void deferredBodyFailureIsFinal() {
        AtomicInteger secondFailure = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxBodySize(100);
            cfg.post("/upload", ctx -> ctx.text("got " + ctx.body().length));
            cfg.exception(HttpException.class, (e, ctx) -> {
                try {
                    ctx.body();
                } catch (HttpException again) {
                    secondFailure.incrementAndGet();
                }
                ctx.status(e.status()).text(e.getMessage());
            });
        }); RawConnection c = t.raw()) {
            c.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(100);
            c.send("c8\r\n" + "a".repeat(200) + "\r\n0\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(secondFailure.get()).isEqualTo(1);
            assertThat(c.closedWithin(3_000)).isTrue();
        }
    }
}
