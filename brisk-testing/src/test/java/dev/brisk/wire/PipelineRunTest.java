package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pipelined requests handed to the connection's virtual thread together (a pipeline run, on the loop
 * engines; the blocking engines run every request on the connection's thread anyway): answered in order,
 * each from its own request, a handler that blocks holding back no answer before it, and the run ending
 * at a request a handler may not run ahead for.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class PipelineRunTest {
    @Parameter
    Engine engine;

    private static String gets(String path, int from, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + n; i++) {
            b.append("GET ").append(path).append("?i=").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        return b.toString();
    }

    @Test
    void fortyPipelinedRequestsAreAnsweredInOrderOnTheConnectionsThread() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/n", ctx -> {
            threads.add(String.valueOf(Thread.currentThread().threadId()));
            ctx.text("n=" + ctx.queryParam("i") + " " + ctx.method());
        })); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 40) + "HEAD /n?i=40 HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 41, 3));
            List<RawConnection.Response> rs = c.read(40);
            for (int i = 0; i < 40; i++) {
                assertThat(rs.get(i).body()).as("answer %d", i).isEqualTo("n=" + i + " GET");
                assertThat(rs.get(i).header("Connection")).isNull();
            }
            RawConnection.Response head = c.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo(String.valueOf("n=40 HEAD".length()));
            assertThat(c.read(3)).extracting(RawConnection.Response::body).containsExactly("n=41 GET", "n=42 GET", "n=43 GET");
            assertThat(c.silentFor(150)).isTrue();
            assertThat(t.app().metrics().requestsByRoute().get("GET /n")).isNotNull();
        }
        assertThat(threads).hasSize(1); // one kept thread ran them all
    }

    /** The answers before a blocked handler go out while it blocks: a run does not hold them back. */
    @Test
    void aBlockedHandlerHoldsBackNoAnswerBeforeIt() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/n", ctx -> ctx.text("n=" + ctx.queryParam("i")));
            cfg.get("/block", ctx -> {
                entered.countDown();
                release.await(10, TimeUnit.SECONDS);
                ctx.text("unblocked");
            });
        }); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 3) + "GET /block HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 3, 2));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            // the handler still blocks: the three before it are answered all the same
            assertThat(c.timeout(3_000).read(3)).extracting(RawConnection.Response::body)
                    .containsExactly("n=0", "n=1", "n=2");
            assertThat(c.silentFor(200)).as("nothing after the blocked one yet").isTrue();
            release.countDown();
            assertThat(c.read(3)).extracting(RawConnection.Response::body).containsExactly("unblocked", "n=3", "n=4");
        } finally {
            release.countDown();
        }
    }

    /**
     * A request that closes the connection ends the run before it: no handler runs for what was sent
     * after it (it is never answered), and a request with a body is parsed in its turn.
     */
    @Test
    void noHandlerRunsAheadPastARequestThatEndsTheConnectionOrHasABody() {
        AtomicInteger ran = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/n", ctx -> {
                ran.incrementAndGet();
                ctx.text("n=" + ctx.queryParam("i"));
            });
            cfg.post("/echo", ctx -> ctx.text("echo " + ctx.bodyAsString()));
        }); RawConnection c = t.raw()) {
            String body = "GET /n?i=99 HTTP/1.1\r\nHost: x\r\n\r\n"; // a body that looks like a request
            c.send(gets("/n", 0, 2)
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n" + body
                    + gets("/n", 2, 2)
                    + "GET /n?i=4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    + gets("/n", 5, 3));
            List<RawConnection.Response> rs = c.read(6);
            assertThat(rs).extracting(RawConnection.Response::body)
                    .containsExactly("n=0", "n=1", "echo " + body, "n=2", "n=3", "n=4");
            assertThat(rs.get(5).header("Connection")).isEqualTo("close");
            assertThat(c.closedWithin(3_000)).isTrue();
        }
        assertThat(ran.get()).as("handlers run: none for the body, none after the close").isEqualTo(5);
    }

    /** {@code max-requests-per-connection}: the last allowed request says close and none after it runs. */
    @Test
    void theRequestLimitPerConnectionEndsARun() {
        AtomicInteger ran = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxRequestsPerConnection(5);
            cfg.get("/n", ctx -> {
                ran.incrementAndGet();
                ctx.text("n=" + ctx.queryParam("i"));
            });
        }); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 9));
            List<RawConnection.Response> rs = c.read(5);
            assertThat(rs).extracting(RawConnection.Response::body).containsExactly("n=0", "n=1", "n=2", "n=3", "n=4");
            assertThat(rs.get(4).header("Connection")).isEqualTo("close");
            assertThat(rs.get(3).header("Connection")).isNull();
            assertThat(c.closedWithin(3_000)).isTrue();
        }
        assertThat(ran.get()).isEqualTo(5);
    }

    /**
     * An answer whose head cannot be framed (header fields past 1 MiB) is refused with 500 and ends the
     * connection: no handler runs ahead of it for the requests behind, which are never answered.
     */
    @Test
    void noHandlerRunsAheadPastAnAnswerWhoseHeadIsTooLarge() {
        AtomicInteger ran = new AtomicInteger();
        String huge = "v".repeat(1_100_000); // just past the 1 MiB a head may take, checked quickly enough to stay in the run's slice
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/n", ctx -> {
                ran.incrementAndGet();
                ctx.text("n=" + ctx.queryParam("i"));
            });
            cfg.get("/huge", ctx -> ctx.header("X-Huge", huge).text("never sent"));
        }); RawConnection c = t.raw()) {
            for (int i = 0; i < 20; i++) { // warm: a cold handler alone can spend the run's time slice
                c.send(gets("/n", 0, 3));
                assertThat(c.read(3)).hasSize(3);
                try (RawConnection once = t.raw()) { // and the huge one, which ends its connection
                    once.send("GET /huge HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertThat(once.timeout(5_000).read().status()).isEqualTo(500);
                }
            }
            ran.set(0);
            for (int i = 0; i < 4; i++) { // a thread running ahead races the loop's refusal: several tries
                try (RawConnection run = t.raw()) {
                    run.send("GET /huge HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 0, 5));
                    RawConnection.Response r = run.timeout(5_000).read();
                    assertThat(r.status()).isEqualTo(500);
                    assertThat(r.header("Connection")).isEqualTo("close");
                    assertThat(run.closedWithin(3_000)).isTrue();
                }
            }
        }
        assertThat(ran.get()).as("handlers run for requests never answered").isZero();
    }

    /** A handler that fails spoils none of the requests after it. */
    @Test
    void aFailingHandlerInARunIsAnsweredInItsPlace() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/n", ctx -> ctx.text("n=" + ctx.queryParam("i")));
            cfg.get("/fail", ctx -> {
                throw new IllegalStateException("boom");
            });
        }); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 1) + "GET /fail HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 1, 2));
            List<RawConnection.Response> rs = c.read(4);
            assertThat(rs).extracting(RawConnection.Response::status).containsExactly(200, 500, 200, 200);
            assertThat(rs.get(2).body()).isEqualTo("n=1");
            assertThat(rs.get(3).body()).isEqualTo("n=2");
        }
    }

    /**
     * An answer that is a stream ends the run ahead: the requests after it are handled in their turn,
     * once the stream has ended (an event stream may never end; an HTTP/1.0 one ends the connection, and
     * then they are never handled).
     */
    @Test
    void noHandlerRunsAheadPastAStreamedAnswer() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch streamEnds = new CountDownLatch(1);
        CountDownLatch streamPumped = new CountDownLatch(1);
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/stream", ctx -> ctx.stream(new java.io.InputStream() {
                private final boolean hold = ctx.queryParam("hold") != null;
                private int sent;

                @Override
                public int read() throws java.io.IOException {
                    if (sent == 1 && !hold) {
                        return -1;
                    }
                    if (sent == 1) {
                        streamPumped.countDown();
                        try {
                            streamEnds.await(10, TimeUnit.SECONDS); // the stream's end is the test's to say
                        } catch (InterruptedException e) {
                            throw new java.io.InterruptedIOException();
                        }
                        return -1;
                    }
                    sent++;
                    return 's';
                }
            }));
            cfg.get("/n", ctx -> {
                ran.incrementAndGet();
                ctx.text("n=" + ctx.queryParam("i"));
            });
        }); RawConnection c = t.raw()) {
            for (int i = 0; i < 20; i++) { // warm: a cold handler alone can spend the run's time slice
                c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 0, 2));
                assertThat(c.read(3)).extracting(RawConnection.Response::body).containsExactly("s", "n=0", "n=1");
            }
            ran.set(0);
            c.send("GET /stream?hold HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 0, 2));
            assertThat(streamPumped.await(5, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(300); // the time a thread running ahead would take to run the next handlers
            assertThat(ran.get()).as("handlers run while the stream before them is open").isZero();
            streamEnds.countDown();
            List<RawConnection.Response> rs = c.timeout(5_000).read(3);
            assertThat(rs).extracting(RawConnection.Response::body).containsExactly("s", "n=0", "n=1");
            assertThat(ran.get()).isEqualTo(2);
        } finally {
            streamEnds.countDown();
        }
    }

    /**
     * A run keeps its thread (and so a carrier) for a bounded slice only: another connection's request
     * waits for about one of the run's handlers, not for all sixteen. Two connections run busy handlers,
     * so that with two carriers both are taken.
     */
    @Test
    void aRunOfBusyHandlersLetsOtherConnectionsIn() throws Exception {
        CountDownLatch spinning = new CountDownLatch(2);
        // the blocking engine's virtual threads read pipelined requests without parking: a JDK scheduler
        // limit that README's "Request bodies" describes, not a run's (runs are the loops')
        org.junit.jupiter.api.Assumptions.assumeTrue(engine == Engine.NIO || engine == Engine.URING);
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/spin", ctx -> {
                spinning.countDown();
                long end = System.nanoTime() + 40_000_000L; // 40 ms of CPU
                long x = 0;
                while (System.nanoTime() < end) {
                    x++;
                }
                ctx.text("spun " + (x > 0));
            });
            cfg.get("/n", ctx -> ctx.text("n=" + ctx.queryParam("i")));
        }); RawConnection a = t.raw(); RawConnection b = t.raw(); RawConnection probe = t.raw()) {
            String spins = "GET /spin HTTP/1.1\r\nHost: x\r\n\r\n".repeat(16);
            a.send(spins);
            b.send(spins);
            assertThat(spinning.await(5, TimeUnit.SECONDS)).as("both runs under way").isTrue();
            long worst = 0;
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                probe.send("GET /n?i=" + i + " HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(probe.timeout(10_000).read().body()).isEqualTo("n=" + i);
                worst = Math.max(worst, (System.nanoTime() - t0) / 1_000_000);
            }
            // 16 handlers of 40 ms back to back would be 640 ms; a few handlers' wait is the bound
            assertThat(worst).as("ms the probe waited at worst").isLessThan(400);
            assertThat(a.timeout(20_000).read(16)).allSatisfy(r -> assertThat(r.body()).isEqualTo("spun true"));
            assertThat(b.timeout(20_000).read(16)).allSatisfy(r -> assertThat(r.body()).isEqualTo("spun true"));
        }
    }

    /**
     * Answers run ahead wait in memory for their turn, so after a large one (here one a client that does
     * not read holds up) no handler runs ahead: the rest are handled in their turn, once it is written.
     */
    @Test
    void noHandlerRunsAheadPastALargeAnswer() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(engine == Engine.NIO || engine == Engine.URING);
        byte[] big = new byte[32 << 20]; // more than the socket buffers on both sides take
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch bigRan = new CountDownLatch(1);
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/big", ctx -> {
                ctx.bytes(big);
                bigRan.countDown();
            });
            cfg.get("/n", ctx -> {
                ran.incrementAndGet();
                ctx.text("n=" + ctx.queryParam("i"));
            });
        }); RawConnection c = t.raw()) {
            for (int i = 0; i < 20; i++) { // warm: a cold handler alone can spend the run's time slice
                c.send(gets("/n", 0, 3));
                assertThat(c.read(3)).hasSize(3);
            }
            ran.set(0);
            c.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 0, 2));
            assertThat(bigRan.await(5, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(300); // the time a thread running ahead would take to run the next handlers
            assertThat(ran.get()).as("handlers run while the large answer before them is unread").isZero();
            RawConnection.Response r = c.timeout(20_000).read();
            assertThat(r.bodyBytes()).hasSize(big.length);
            assertThat(c.read(2)).extracting(RawConnection.Response::body).containsExactly("n=0", "n=1");
            assertThat(ran.get()).isEqualTo(2);
        }
    }
}
