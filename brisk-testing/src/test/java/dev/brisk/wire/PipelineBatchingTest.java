package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.ServerMetrics;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Pipelined responses answered at once are batched into one socket write on the selector engine, and a
 * batch never holds an answer back: it goes out when the buffered requests run out, when the next
 * handler runs elsewhere, or ahead of an error.
 */
class PipelineBatchingTest {
    private static final String GATE = "GET /gate HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final String HELLO = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n";

    private static String users(int from, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + n; i++) {
            b.append("GET /users/").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        return b.toString();
    }

    private static void assertUsers(List<RawConnection.Response> rs, int from) {
        for (int i = 0; i < rs.size(); i++) {
            assertThat(rs.get(i).status()).as("response %d", i).isEqualTo(200);
            assertThat(rs.get(i).body()).as("response %d", i).isEqualTo("user=" + (from + i));
        }
    }

    /**
     * Waits until the server has written answers and then stopped writing (its output unchanged over
     * 100 ms) because the socket is full; returns the bytes written by then. Fails after 10 s.
     */
    private static long awaitOutputStalled(ServerMetrics m) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long last = -1;
        int unchanged = 0;
        while (System.nanoTime() - deadline < 0) {
            long now = m.bytesOut();
            unchanged = now > 0 && now == last ? unchanged + 1 : 0;
            if (unchanged == 5) {
                return now;
            }
            last = now;
            Thread.sleep(20);
        }
        throw new AssertionError("the server's output did not stall within 10 s; written: " + m.bytesOut());
    }

    private static BriskTestServer start(Engine engine, CountDownLatch gate) {
        return Wire.start(engine, cfg -> {
            cfg.dispatch(Dispatch.EVENT_LOOP);
            Wire.routes().accept(cfg);
            // waits on another thread, so the loop goes on while it does
            cfg.get("/gate", ctx -> {
                try {
                    ctx.text(gate.await(10, TimeUnit.SECONDS) ? "opened" : "timed out");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }).dispatch(Dispatch.VIRTUAL_THREADS);
        });
    }

    @Test
    void sixteenAnswersOnTheEventLoopGoOutInOneWrite() {
        try (BriskTestServer t = start(Engine.NIO, new CountDownLatch(0)); RawConnection c = t.raw()) {
            ServerMetrics m = t.app().metrics();
            c.send(users(100, 1));
            assertUsers(c.read(1), 100);
            long before = m.socketWrites();

            c.send(users(0, 16)); // one segment on loopback, so one read on the server
            assertUsers(c.read(16), 0);
            assertThat(m.socketWrites() - before).as("writes for 16 pipelined answers").isLessThanOrEqualTo(2);

            long beforeStatic = m.socketWrites();
            c.send("GET /static HTTP/1.1\r\nHost: x\r\n\r\n".repeat(16));
            for (RawConnection.Response r : c.read(16)) {
                assertThat(r.body()).isEqualTo("static");
            }
            assertThat(m.socketWrites() - beforeStatic).as("writes for 16 fast-static answers").isLessThanOrEqualTo(2);
            assertThat(c.silentFor(100)).isTrue();
        }
    }

    @Test
    void theBatchGoesOutWhileTheNextHandlerWaits() {
        CountDownLatch gate = new CountDownLatch(1);
        try (BriskTestServer t = start(Engine.NIO, gate); RawConnection c = t.raw()) {
            c.timeout(3_000);
            c.send(HELLO + "GET /static HTTP/1.1\r\nHost: x\r\n\r\n" + GATE + HELLO);
            // answered while /gate is still closed: the batch did not wait for it
            assertThat(c.read().body()).isEqualTo("hello");
            assertThat(c.read().body()).isEqualTo("static");
            gate.countDown();
            assertThat(c.read().body()).isEqualTo("opened");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void aBlockingEngineDoesNotHoldAnAnswerBehindTheNextHandler() {
        CountDownLatch gate = new CountDownLatch(1);
        try (BriskTestServer t = start(Engine.BLOCKING_VIRTUAL, gate); RawConnection c = t.raw()) {
            c.timeout(3_000);
            c.send(HELLO + GATE);
            assertThat(c.read().body()).isEqualTo("hello"); // while /gate blocks its connection's thread
            gate.countDown();
            assertThat(c.read().body()).isEqualTo("opened");
        }
    }

    @Test
    void theBatchGoesOutWhenTheNextRequestIsIncomplete() {
        try (BriskTestServer t = start(Engine.NIO, new CountDownLatch(0)); RawConnection c = t.raw()) {
            c.timeout(3_000);
            String next = users(3, 1);
            c.send(users(0, 3) + next.substring(0, 10));
            assertUsers(c.read(3), 0);
            c.send(next.substring(10));
            assertUsers(c.read(1), 3);
        }
    }

    @Test
    void aBadRequestInThePipelineIsAnsweredAfterTheBatchedOnesAndCloses() {
        try (BriskTestServer t = start(Engine.NIO, new CountDownLatch(0)); RawConnection c = t.raw()) {
            c.send(users(0, 2) + "GET /nope\r\n\r\n" + users(2, 1));
            assertUsers(c.read(2), 0);
            assertThat(c.read().status()).isEqualTo(400);
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @Test
    void connectionCloseInThePipelineEndsItAfterTheBatch() {
        try (BriskTestServer t = start(Engine.NIO, new CountDownLatch(0)); RawConnection c = t.raw()) {
            c.send(users(0, 2) + "GET /users/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + users(3, 2));
            List<RawConnection.Response> rs = c.read(3);
            assertUsers(rs, 0);
            assertThat(rs.get(2).header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @Test
    void aClientThatReadsLateGetsEveryAnswerInOrder() throws Exception {
        // ~6.5 MB of answers (the query comes back in each body): more than the socket buffers hold
        // (Linux lets a send buffer grow to 4 MB), so batches wait for the client to read and later
        // answers queue behind them
        int n = 6_000;
        String x = "x".repeat(1_000);
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < n; i++) {
            requests.append("GET /users/").append(i).append("?x=").append(x).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        try (BriskTestServer t = start(Engine.NIO, new CountDownLatch(0)); RawConnection c = t.raw()) {
            c.timeout(10_000);
            ServerMetrics m = t.app().metrics();
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> c.send(requests.toString()));
            long writtenUnread = awaitOutputStalled(m);
            for (int i = 0; i < n; i += 1_000) {
                List<RawConnection.Response> rs = c.read(1_000);
                for (int k = 0; k < rs.size(); k++) {
                    assertThat(rs.get(k).status()).as("response %d", i + k).isEqualTo(200);
                    assertThat(rs.get(k).body()).as("response %d", i + k).isEqualTo("user=" + (i + k) + ";x=" + x);
                }
            }
            sent.get(10, TimeUnit.SECONDS);
            assertThat(c.silentFor(100)).isTrue();
            assertThat(writtenUnread).as("bytes written before the client read anything, of %d", m.bytesOut())
                    .isLessThan(m.bytesOut());
        }
    }
}
