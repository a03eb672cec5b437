package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.Dispatch;
import dev.brisk.ServerMetrics;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The server-wide request-body memory budget ({@code body-memory-budget}): a body that does not fit
 * is refused at once with 503 + Retry-After and the connection closes; what a body reserved comes back
 * whichever way its exchange ends.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class BodyBudgetTest {
    private static final int KIB = 1024;

    @Parameter
    Engine engine;

    /** {@code POST /upload} (1 MiB at most) answers the body's length; {@code GET /hello}; {@code POST /fail} throws. */
    private static void routes(BriskConfig cfg) {
        cfg.post("/upload", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(1 << 20);
        cfg.post("/stream-read", ctx -> {
            try (InputStream in = ctx.bodyAsStream()) {
                ctx.text("n=" + in.readAllBytes().length);
            }
        }).maxBodySize(1 << 20);
        cfg.post("/fail", ctx -> {
            ctx.body();
            throw new IllegalStateException("handler failed after reading its body");
        });
        cfg.get("/hello", ctx -> ctx.text("hello"));
        cfg.post("/huge", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(3L << 30);
    }

    private BriskTestServer start(long budget) {
        return Wire.start(engine, cfg -> {
            cfg.options().bodyMemoryBudget(budget).bodySpoolDisk(0);
            routes(cfg);
        });
    }

    private static String post(String path, int length) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n";
    }

    /** Waits (5 s at most) until the reserved body memory satisfies {@code condition}, and returns it. */
    static long awaitReserved(BriskTestServer t, LongPredicate condition, String what) throws InterruptedException {
        ServerMetrics m = t.app().metrics();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.test(m.bodyMemoryReserved()) && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        long reserved = m.bodyMemoryReserved();
        assertThat(condition.test(reserved)).as("%s (reserved: %d bytes)", what, reserved).isTrue();
        return reserved;
    }

    static void awaitNoneReserved(BriskTestServer t) throws InterruptedException {
        awaitReserved(t, r -> r == 0, "every reservation given back");
    }

    /**
     * {@code c}'s request was refused for want of body memory: 503, Retry-After, closed, counted; its
     * reservation is back and the server goes on serving.
     */
    private static void assertRefusedForMemory(BriskTestServer t, RawConnection c) throws InterruptedException {
        RawConnection.Response r = c.read();
        assertThat(r.status()).isEqualTo(503);
        assertThat(r.header("Retry-After")).isEqualTo("1");
        assertThat(r.header("Connection")).isEqualTo("close");
        assertThat(r.body()).contains("request-body memory");
        assertThat(c.closedWithin(3_000)).isTrue();
        assertThat(t.app().metrics().shed()).containsEntry("body-memory", 1L);
        awaitNoneReserved(t);
        assertThat(t.get("/hello").body()).isEqualTo("hello");
    }

    @Test
    void aDeclaredBodyOverWhatIsLeftIs503WithRetryAfterBeforeItIsRead() throws InterruptedException {
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            // only the head: the answer must not wait for the body
            c.send(post("/upload", 100 * KIB));
            assertRefusedForMemory(t, c);
        }
    }

    @Test
    void aBodyTheHeapCannotHoldIs503EvenWhenTheBudgetAllowsIt() throws InterruptedException {
        // a budget above the heap (the tests run at -Xmx1g): only the array's allocation can fail
        long length = 2_000_000_000L;
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().maxMemory() < length,
                "needs a heap smaller than " + length + " bytes");
        try (BriskTestServer t = start(8L << 30); RawConnection c = t.raw()) {
            c.send("POST /huge HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n").send("x".repeat(KIB));
            assertRefusedForMemory(t, c);
        }
    }

    @Test
    void aBodyInProgressHoldsItsReservationAndANewOneThatDoesNotFitIsRefused() throws InterruptedException {
        try (BriskTestServer t = start(64 * KIB); RawConnection a = t.raw(); RawConnection b = t.raw()) {
            a.send(post("/upload", 40 * KIB)).send("x".repeat(10 * KIB));
            assertThat(awaitReserved(t, r -> r >= 40 * KIB, "the declared length reserved whole"))
                    .isEqualTo(40 * KIB);
            b.send(post("/upload", 40 * KIB));
            assertThat(b.read().status()).as("24 KiB left: 40 do not fit").isEqualTo(503);
            a.send("x".repeat(30 * KIB));
            RawConnection.Response r = a.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("n=" + 40 * KIB);
            awaitNoneReserved(t);
            assertThat(t.app().metrics().bodyMemoryPooled()).as("the body was held in off-heap slabs, kept")
                    .isEqualTo(40 * KIB);
            // the same request fits now, on the connection the first one kept alive
            a.send(post("/upload", 40 * KIB)).send("y".repeat(40 * KIB));
            assertThat(a.read().body()).isEqualTo("n=" + 40 * KIB);
            awaitNoneReserved(t);
            assertThat(t.app().metrics().bodyMemoryPooled()).as("and used again, none made anew").isEqualTo(40 * KIB);
        }
    }

    @Test
    void aChunkedBodyGrowingPastTheBudgetIs503AndCloses() throws InterruptedException {
        try (BriskTestServer t = start(24 * KIB); RawConnection c = t.raw()) {
            StringBuilder req = new StringBuilder("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 16; i++) {
                req.append("1000\r\n").append("c".repeat(4 * KIB)).append("\r\n");
            }
            req.append("0\r\n\r\n");
            c.send(req.toString());
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(c.closedWithin(3_000)).isTrue();
            assertThat(t.app().metrics().shed()).containsEntry("body-memory", 1L);
            awaitNoneReserved(t);
        }
    }

    @Test
    void aChunkedBodyWithinTheBudgetIsServedWholeAndAsAStream() throws InterruptedException {
        try (BriskTestServer t = start(256 * KIB); RawConnection c = t.raw()) {
            String body = "0123456789abcdef".repeat(6 * KIB); // 96 KiB: several segments, assembled by body()
            for (String path : new String[] {"/upload", "/stream-read"}) {
                c.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n");
                assertThat(c.read().body()).isEqualTo("n=" + body.length());
            }
            awaitNoneReserved(t);
        }
    }

    @Test
    void theReservationComesBackWhenTheClientResetsMidBody() throws Exception {
        try (BriskTestServer t = start(64 * KIB)) {
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.getOutputStream().write((post("/upload", 40 * KIB) + "x".repeat(KIB)).getBytes());
                awaitReserved(t, r -> r == 40 * KIB, "the declared length reserved");
                s.setSoLinger(true, 0); // a reset, not a clean close
            }
            awaitNoneReserved(t);
            assertThat(t.get("/hello").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void theReservationComesBackWhenTheBodyTimesOut() throws InterruptedException {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().bodyMemoryBudget(64 * KIB).bodyReadTimeout(Duration.ofMillis(300));
            routes(cfg);
        }); RawConnection c = t.raw()) {
            c.send(post("/upload", 40 * KIB) + "x".repeat(KIB));
            assertThat(c.read().status()).isEqualTo(408);
            awaitNoneReserved(t);
        }
    }

    @Test
    void theReservationComesBackWhenTheHandlerThrows() throws InterruptedException {
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            c.send(post("/fail", 20 * KIB) + "x".repeat(20 * KIB));
            assertThat(c.read().status()).isEqualTo(500);
            awaitNoneReserved(t);
        }
    }

    @Test
    void aDeferredBodyOverWhatIsLeftIs503WithoutContinue() throws InterruptedException {
        try (BriskTestServer t = start(16 * KIB); RawConnection c = t.raw()) {
            c.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " + 20 * KIB
                    + "\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).as("the final answer, not 100 Continue").isEqualTo(503);
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(t.app().metrics().shed()).containsEntry("body-memory", 1L);
            awaitNoneReserved(t);
        }
    }

    @Test
    void aDeferredBodyThatFitsIsReadAndGivenBack() throws InterruptedException {
        try (BriskTestServer t = start(64 * KIB); RawConnection c = t.raw()) {
            c.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " + 20 * KIB
                    + "\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(100);
            c.send("z".repeat(20 * KIB));
            assertThat(c.read().body()).isEqualTo("n=" + 20 * KIB);
            awaitNoneReserved(t);
        }
    }

    @Test
    void theReservationComesBackWhenTheServerShutsDownMidBody() throws Exception {
        BriskTestServer t = start(64 * KIB);
        try (RawConnection c = t.raw()) {
            c.send(post("/upload", 40 * KIB) + "x".repeat(KIB));
            awaitReserved(t, r -> r == 40 * KIB, "the declared length reserved");
            t.close();
            assertThat(t.app().metrics().bodyMemoryReserved()).isZero();
        } finally {
            t.close();
        }
    }

    @Test
    void aBodyReadOnAnEventLoopCountsAndComesBackToo() throws InterruptedException {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().bodyMemoryBudget(64 * KIB);
            cfg.post("/loop", ctx -> ctx.text("n=" + ctx.body().length)).dispatch(Dispatch.EVENT_LOOP);
        }); RawConnection c = t.raw()) {
            for (int i = 0; i < 3; i++) {
                c.send(post("/loop", 50 * KIB) + "e".repeat(50 * KIB));
                assertThat(c.read().body()).isEqualTo("n=" + 50 * KIB);
            }
            awaitNoneReserved(t);
        }
    }

    @Test
    void aBodyFirstReadByTheResponseAfterTheHandlerReturnedComesBackToo() throws Exception {
        // the response stream reads the body only once the engine sends it, after the handler returned:
        // that late use must not take a hold of the body nobody gives back (its memory would stay reserved)
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().bodyMemoryBudget(64 * KIB).bodySpoolDisk(0);
            cfg.post("/late", ctx -> ctx.stream(new InputStream() {
                private InputStream body;

                @Override
                public int read() throws java.io.IOException {
                    if (body == null) {
                        body = new java.io.ByteArrayInputStream(("n=" + ctx.body().length).getBytes());
                    }
                    return body.read();
                }
            }));
        }); RawConnection c = t.raw()) {
            for (int i = 0; i < 2; i++) {
                c.send(post("/late", 40 * KIB) + "l".repeat(40 * KIB));
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("n=" + 40 * KIB);
                awaitNoneReserved(t);
            }
        }
    }
}
