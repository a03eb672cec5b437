package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.ClientDisconnectedException;
import dev.brisk.Context;
import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Request bodies streamed to their handler ({@code Route.streamBody}): read through
 * {@code ctx.bodyAsStream()} as they arrive, whatever their size, with backpressure to the client and
 * no more than a small window of them in memory.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class StreamedBodyTest {
    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;

    @Parameter
    Engine engine;

    private final CountDownLatch gate = new CountDownLatch(1);
    private final AtomicReference<Throwable> readFailure = new AtomicReference<>();

    /** Reads the whole stream: its length and CRC-32, as {@code n=<length> crc=<hex>}. */
    private String count(Context ctx) throws IOException {
        CRC32 crc = new CRC32();
        long n = 0;
        byte[] buf = new byte[8 * KIB];
        try (InputStream in = ctx.bodyAsStream()) {
            for (int r; (r = in.read(buf)) >= 0; ) {
                crc.update(buf, 0, r);
                n += r;
            }
        } catch (RuntimeException | IOException e) {
            readFailure.set(e);
            throw e;
        }
        return "n=" + n + " crc=" + Long.toHexString(crc.getValue());
    }

    private void routes(BriskConfig cfg) {
        cfg.post("/count", ctx -> ctx.text(count(ctx))).streamBody();
        cfg.post("/count-loop", ctx -> ctx.text(count(ctx) + " loop=" + Thread.currentThread().getName().startsWith("brisk-io")))
                .streamBody().dispatch(Dispatch.EVENT_LOOP);
        cfg.post("/limited", ctx -> ctx.text(count(ctx))).streamBody().maxBodySize(MIB);
        cfg.post("/ignore", ctx -> ctx.text("ignored")).streamBody();
        cfg.post("/whole", ctx -> ctx.text("n=" + ctx.body().length)).streamBody();
        cfg.post("/gated", ctx -> {
            if (!gate.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
            ctx.text(count(ctx));
        }).streamBody();
        cfg.get("/hello", ctx -> ctx.text("hello"));
    }

    private BriskTestServer start(long budget) {
        return Wire.start(engine, cfg -> {
            cfg.options().bodyMemoryBudget(budget);
            routes(cfg);
        });
    }

    /** Writes {@code length} pseudo-random bytes (seeded) in pieces of {@code piece}, returning their CRC-32. */
    private static long writeBody(OutputStream out, long length, int piece, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] buf = new byte[piece];
        CRC32 crc = new CRC32();
        for (long left = length; left > 0; ) {
            int n = (int) Math.min(left, piece);
            random.nextBytes(buf);
            crc.update(buf, 0, n);
            out.write(buf, 0, n);
            left -= n;
        }
        out.flush();
        return crc.getValue();
    }

    private static String expect(long n, long crc) {
        return "n=" + n + " crc=" + Long.toHexString(crc);
    }

    private static byte[] head(String path, long length) {
        return ("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The head of a request after which the server closes, so its answer can be read to the end of the stream. */
    private static byte[] lastHead(String path, long length) {
        return ("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: " + length
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static String answer(Socket s) throws IOException {
        return new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    }

    @Test
    void aFiftyMebibyteUploadIsReadThroughTheStreamWithinASmallBudget() throws Exception {
        long length = 50L * MIB;
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            AtomicLong maxReserved = new AtomicLong();
            Thread sampler = Thread.ofVirtual().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    maxReserved.accumulateAndGet(t.app().metrics().bodyMemoryReserved(), Math::max);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            long crc;
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.setSoTimeout(20_000);
                OutputStream out = s.getOutputStream();
                out.write(lastHead("/count", length));
                crc = writeBody(out, length, 64 * KIB, 1);
                assertThat(answer(s)).startsWith("HTTP/1.1 200 OK").endsWith(expect(length, crc));
            } finally {
                sampler.interrupt();
                sampler.join();
            }
            assertThat(maxReserved.get()).as("the stream's window, never the body").isLessThanOrEqualTo(64 * KIB);
            BodyBudgetTest.awaitNoneReserved(t);
        }
    }

    @Test
    void aChunkedBodyIsStreamedWithItsFramingRemoved() throws Exception {
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            Random sizes = new Random(7);
            Random data = new Random(8);
            CRC32 crc = new CRC32();
            long total = 0;
            c.send("POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            while (total < 5 * MIB) {
                byte[] chunk = new byte[1 + sizes.nextInt(70_000)];
                data.nextBytes(chunk);
                crc.update(chunk);
                total += chunk.length;
                c.send(Integer.toHexString(chunk.length) + ";ext=1\r\n").send(chunk).send("\r\n");
            }
            c.send("0\r\nX-Trailer: t\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(expect(total, crc.getValue()));
            // framed exactly: the connection serves the next request
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("hello");
            BodyBudgetTest.awaitNoneReserved(t);
        }
    }

    @Test
    void aHandlerThatDoesNotReadHoldsTheClientBack() throws Exception {
        long length = 8L * MIB;
        try (BriskTestServer t = start(64 * KIB); Socket s = new Socket("127.0.0.1", t.port())) {
            s.setSoTimeout(20_000);
            long before = t.app().metrics().bytesIn();
            AtomicLong crc = new AtomicLong();
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    out.write(lastHead("/gated", length));
                    crc.set(writeBody(out, length, 64 * KIB, 2));
                } catch (IOException e) {
                    readFailure.set(e);
                }
            });
            // the server reads its window and an input buffer, then stops: the rest waits in the client
            long read = awaitStable(() -> t.app().metrics().bytesIn() - before);
            assertThat(read).as("bytes the server read while its handler did not").isLessThan(256 * KIB);
            gate.countDown();
            String answer = answer(s);
            writer.join();
            assertThat(answer).endsWith(expect(length, crc.get()));
            BodyBudgetTest.awaitNoneReserved(t);
        }
    }

    /** Polls {@code value} until it has not changed for 300 ms (5 s at most) and returns it. */
    private static long awaitStable(java.util.function.LongSupplier value) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long last = value.getAsLong();
        long since = System.nanoTime();
        while (System.nanoTime() - since < TimeUnit.MILLISECONDS.toNanos(300) && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            long now = value.getAsLong();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            }
        }
        return last;
    }

    @Test
    void aStreamOverItsRoutesLimitFailsTheReadWith413() throws Exception {
        try (BriskTestServer t = start(64 * KIB)) {
            try (RawConnection c = t.raw()) {
                c.send("POST /limited HTTP/1.1\r\nHost: x\r\nContent-Length: " + (MIB + 1) + "\r\n\r\n");
                assertThat(c.read().status()).as("a declared length: refused before the handler").isEqualTo(413);
            }
            try (RawConnection c = t.raw()) {
                c.send("POST /limited HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
                for (int i = 0; i < 5; i++) {
                    c.send("40000\r\n").send(new byte[256 * KIB]).send("\r\n");
                }
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(413);
                assertThat(r.header("Connection")).isEqualTo("close");
                assertThat(readFailure.get()).isInstanceOf(dev.brisk.HttpException.class);
            }
            BodyBudgetTest.awaitNoneReserved(t);
        }
    }

    @Test
    void anAnswerBeforeTheWholeBodyClosesTheConnectionAfterIt() throws Exception {
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            c.send(head("/ignore", MIB)).send(new byte[64 * KIB]);
            RawConnection.Response r = c.read();
            assertThat(r.body()).isEqualTo("ignored");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(c.closedWithin(3_000)).isTrue();
            BodyBudgetTest.awaitNoneReserved(t);
        }
    }

    @Test
    void aSmallBodyAlreadyInIsReadAndTheConnectionStaysOpen() {
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            for (int i = 0; i < 3; i++) {
                c.send("POST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).startsWith("n=5 ");
                assertThat(r.header("Connection")).isNull();
            }
        }
    }

    @Test
    void withExpectContinueTheBodyIsAskedForOnlyWhenTheHandlerReads() throws Exception {
        try (BriskTestServer t = start(64 * KIB)) {
            try (RawConnection c = t.raw()) {
                c.send("POST /ignore HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n");
                RawConnection.Response r = c.read();
                assertThat(r.status()).as("the final answer, never 100 Continue").isEqualTo(200);
                assertThat(r.header("Connection")).isEqualTo("close");
            }
            try (RawConnection c = t.raw()) {
                c.send("POST /count HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(100);
                byte[] body = new byte[100_000];
                new Random(3).nextBytes(body);
                CRC32 crc = new CRC32();
                crc.update(body);
                c.send(body);
                assertThat(c.read().body()).isEqualTo(expect(body.length, crc.getValue()));
            }
            BodyBudgetTest.awaitNoneReserved(t);
        }
    }

    @Test
    void aClientThatLeavesMidBodyFailsTheReadAndGivesTheWindowBack() throws Exception {
        try (BriskTestServer t = start(64 * KIB)) {
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.getOutputStream().write(head("/count", 10L * MIB));
                writeBody(s.getOutputStream(), 100 * KIB, 16 * KIB, 4);
                Wire.awaitBytesRead(t, 100 * KIB);
                s.setSoLinger(true, 0);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (readFailure.get() == null && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            assertThat(readFailure.get()).isInstanceOf(ClientDisconnectedException.class);
            BodyBudgetTest.awaitNoneReserved(t);
            assertThat(t.get("/hello").body()).isEqualTo("hello");
        }
    }

    @Test
    void anEventLoopRouteThatStreamsRunsOffTheLoop() throws Exception {
        try (BriskTestServer t = start(64 * KIB); Socket s = new Socket("127.0.0.1", t.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(lastHead("/count-loop", 2L * MIB));
            long crc = writeBody(s.getOutputStream(), 2L * MIB, 32 * KIB, 5);
            assertThat(answer(s)).endsWith(expect(2L * MIB, crc) + " loop=false");
        }
    }

    @Test
    void bodyOnAStreamedRouteIsAnError() {
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            c.send("POST /whole HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
            assertThat(c.read().status()).isEqualTo(500);
        }
    }

    @Test
    void aStreamTheBudgetCannotTakeIs503() throws Exception {
        try (BriskTestServer t = start(40 * KIB)) {
            try (RawConnection held = t.raw(); RawConnection refused = t.raw()) {
                held.send(head("/gated", 10));
                BodyBudgetTest.awaitReserved(t, r -> r > 0, "the first stream's window");
                refused.send(head("/count", 10));
                RawConnection.Response r = refused.read();
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.header("Retry-After")).isEqualTo("1");
                gate.countDown();
                held.send("0123456789");
                assertThat(held.read().body()).startsWith("n=10 ");
            }
            BodyBudgetTest.awaitNoneReserved(t);
        }
    }
}
