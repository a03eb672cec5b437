package dev.brisk.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.Method;
import dev.brisk.ServerOptions;
import dev.brisk.StaticResponse;
import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.ops.FixedLimit;
import dev.brisk.internal.transport.InputDrain;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Upgrade;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.AppConfig;
import dev.brisk.internal.web.Exchange;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/1.1 protocol class on an in-memory wire: no sockets, no threads but the test's (and one
 * handler thread where a test says so), every byte and every loop turn under the test's control.
 */
class Http1ConnectionTest {
    private static final String GET_HELLO = "GET /hello HTTP/1.1\r\nHost: t\r\n\r\n";
    private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");
    private final ExecutorService handlers = Executors.newSingleThreadExecutor();
    private MemoryWire wire;
    private Http1Connection conn;
    private Http1Shared shared;

    @AfterEach
    void stop() {
        handlers.shutdownNow();
    }

    private void start(Consumer<AppConfig> routes, ServerOptions options, AdmissionControl admission, boolean blocking) {
        AppConfig cfg = new AppConfig();
        routes.accept(cfg);
        App app = cfg.freeze(options);
        app.executors(handlers, handlers);
        shared = new Http1Shared(options, app, null, admission);
        shared.streams(handlers);
        wire = new MemoryWire(blocking);
        conn = new Http1Connection(wire, shared, false);
        wire.protocol(conn);
    }

    private void start(Consumer<AppConfig> routes) {
        start(routes, ServerOptions.builder().build(), null, false);
    }

    private static void hello(AppConfig cfg) {
        cfg.route(Method.GET, "/hello", ctx -> ctx.text("Hello")).dispatch(Dispatch.EVENT_LOOP);
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static String firstStatus(String out) {
        Matcher m = STATUS.matcher(out);
        return m.find() ? m.group(1) : "none";
    }

    @Test
    void answersARequestAndWaitsForTheNext() {
        start(Http1ConnectionTest::hello);
        wire.feed(GET_HELLO).turn();
        String out = wire.output();
        assertThat(out).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: 5\r\n").endsWith("\r\n\r\nHello");
        assertThat(out).doesNotContain("Connection: close");
        assertThat(wire.readInterest).isTrue();
        assertThat(wire.hasDeadline).as("the idle timeout runs between requests").isTrue();
        assertThat(wire.closed).isFalse();
        assertThat(conn.idle()).isTrue();
        assertThat(conn.holdsInput()).as("an idle connection holds no buffer").isFalse();
    }

    @Test
    void aHeadSplitAtEveryOffsetGivesTheSameAnswer() {
        for (int split = 1; split < GET_HELLO.length(); split++) {
            start(Http1ConnectionTest::hello);
            wire.feed(GET_HELLO.substring(0, split)).turn();
            assertThat(wire.output()).as("split at %d", split).isEmpty();
            wire.feed(GET_HELLO.substring(split)).turn();
            assertThat(wire.output()).as("split at %d", split).startsWith("HTTP/1.1 200 OK").endsWith("Hello");
        }
    }

    @Test
    void pipelinedAnswersShareOneWrite() {
        start(Http1ConnectionTest::hello);
        wire.feed(GET_HELLO.repeat(8)).turn();
        assertThat(count(wire.output(), "HTTP/1.1 200 OK")).isEqualTo(8);
        assertThat(wire.writeCalls).isEqualTo(1);
    }

    @Test
    void aBlockingLoopWritesEachAnswerAtOnce() {
        // its next handler may block: batched answers would wait behind it
        start(Http1ConnectionTest::hello, ServerOptions.builder().build(), null, true);
        wire.feed(GET_HELLO.repeat(3)).turn();
        assertThat(count(wire.output(), "HTTP/1.1 200 OK")).isEqualTo(3);
        assertThat(wire.writeCalls).isEqualTo(3);
    }

    @Test
    void aFullSocketHoldsTheRestUntilWritable() {
        start(cfg -> {
            hello(cfg);
            cfg.route(Method.GET, "/big", ctx -> ctx.text("x".repeat(40_000))).dispatch(Dispatch.EVENT_LOOP);
        });
        wire.writeBudget = 1000;
        wire.feed("GET /big HTTP/1.1\r\nHost: t\r\n\r\n" + GET_HELLO).turn();
        assertThat(wire.writeInterest).isTrue();
        assertThat(wire.output()).hasSize(1000);
        // the pipelined request waits behind the large answer: served, in order, once that is out
        wire.turnUntil(() -> wire.output().endsWith("Hello"));
        String out = wire.output();
        assertThat(out.indexOf("HTTP/1.1", 1)).isEqualTo(out.indexOf("x".repeat(40_000)) + 40_000);
        assertThat(wire.writeInterest).isFalse();
    }

    @Test
    void aWriteThatStallsPastTheWriteTimeoutCloses() {
        start(Http1ConnectionTest::hello);
        wire.writeBudget = 0;
        wire.feed(GET_HELLO).turn();
        wire.advanceClock(ServerOptions.builder().build().writeTimeout().toNanos() / 2);
        assertThat(wire.closed).isFalse();
        wire.advanceClock(ServerOptions.builder().build().writeTimeout().toNanos());
        assertThat(wire.closed).isTrue();
        assertThat(wire.stats.connectionsTimedOut()).isEqualTo(1);
    }

    @Test
    void aPartialHeadPastTheHeaderTimeoutGets408AndLingers() {
        start(Http1ConnectionTest::hello);
        wire.feed("GET /hello HTTP/1.1\r\nHost:").turn();
        wire.advanceClock(ServerOptions.builder().build().headerReadTimeout().toNanos() + 1);
        assertThat(wire.output()).startsWith("HTTP/1.1 408 ").contains("Connection: close");
        assertThat(wire.protocol).as("the wire is handed to the lingering close").isInstanceOf(InputDrain.class);
        assertThat(conn.isClosed()).isTrue();
        assertThat(wire.outputShut).isTrue();
        assertThat(wire.closed).isFalse();
        // the peer closes its side: the connection ends
        wire.endInput().turn();
        assertThat(wire.closed).isTrue();
    }

    @Test
    void aLingeringCloseEndsAfterItsBound() {
        start(Http1ConnectionTest::hello);
        wire.feed("BAD\r\n\r\n").turn();
        assertThat(firstStatus(wire.output())).isEqualTo("400");
        assertThat(wire.protocol).isInstanceOf(InputDrain.class);
        wire.feed("more junk from the client").turn();
        assertThat(wire.closed).isFalse();
        wire.advanceClock(LingeringClose.NANOS / 2);
        assertThat(wire.closed).isFalse();
        wire.advanceClock(LingeringClose.NANOS / 2 + 1);
        assertThat(wire.closed).isTrue();
    }

    @Test
    void aLingeringCloseReadsOneBufferPerTurnAndStopsPastItsByteBound() {
        start(Http1ConnectionTest::hello);
        wire.feed("BAD\r\n\r\n").turn();
        assertThat(wire.protocol).isInstanceOf(InputDrain.class);
        // a refused upload keeps coming: two hundred buffers' worth, more than the byte bound
        String piece = "x".repeat(8 * 1024);
        int pieces = 200;
        for (int i = 0; i < pieces; i++) {
            wire.feed(piece);
        }
        wire.turn();
        // one read per turn: a flood of refused uploads drained at once must not keep the loop from
        // the connections it serves (reading on until the socket is empty took it 100+ ms under load)
        assertThat(wire.unreadFeeds()).isEqualTo(pieces - 1);
        assertThat(wire.closed).isFalse();
        wire.turnUntil(() -> wire.closed);
        int read = pieces - wire.unreadFeeds();
        assertThat((long) read * piece.length()).as("bytes dropped before closing")
                .isGreaterThan(LingeringClose.MAX_BYTES).isLessThanOrEqualTo(LingeringClose.MAX_BYTES + piece.length());
    }

    @Test
    void anIdleConnectionPastTheIdleTimeoutClosesSilently() {
        start(Http1ConnectionTest::hello);
        wire.feed(GET_HELLO).turn();
        int written = wire.output().length();
        wire.advanceClock(ServerOptions.builder().build().idleTimeout().toNanos() + 1);
        assertThat(wire.closed).isTrue();
        assertThat(wire.output()).hasSize(written);
    }

    @Test
    void theEndOfInputAfterRequestsAnswersThemThenCloses() {
        start(Http1ConnectionTest::hello);
        wire.feed(GET_HELLO + GET_HELLO).endInput().turn();
        assertThat(count(wire.output(), "HTTP/1.1 200 OK")).isEqualTo(2);
        wire.turn(); // the next read sees the end
        assertThat(wire.closed).isTrue();
    }

    @Test
    void aFastStaticRouteIsAnsweredFromItsBytes() {
        start(cfg -> cfg.fastGet("/static", StaticResponse.text("fixed")));
        wire.feed("GET /static HTTP/1.1\r\nHost: t\r\n\r\nHEAD /static HTTP/1.1\r\nHost: t\r\n\r\n").turn();
        String out = wire.output();
        assertThat(count(out, "HTTP/1.1 200 OK")).isEqualTo(2);
        assertThat(count(out, "fixed")).as("HEAD has no body").isEqualTo(1);
    }

    @Test
    void aChunkedBodyIsReadWholeBeforeItsHandler() {
        start(cfg -> cfg.route(Method.POST, "/echo", ctx -> ctx.bytes(ctx.body())).dispatch(Dispatch.EVENT_LOOP));
        wire.feed("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n").turn();
        assertThat(wire.output()).isEmpty();
        wire.feed("2\r\nde\r\n0\r\n\r\n").turn();
        assertThat(wire.output()).startsWith("HTTP/1.1 200 OK").endsWith("\r\n\r\nabcde");
    }

    @Test
    void aBodyThatStopsComingGets408() {
        start(cfg -> cfg.route(Method.POST, "/echo", ctx -> ctx.bytes(ctx.body())).dispatch(Dispatch.EVENT_LOOP));
        wire.feed("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc").turn();
        wire.advanceClock(ServerOptions.builder().build().bodyReadTimeout().toNanos() + 1);
        assertThat(firstStatus(wire.output())).isEqualTo("408");
    }

    @Test
    void aDeferredBodyIsReadOnlyWhenItsHandlerAsks() {
        start(cfg -> cfg.route(Method.POST, "/echo", ctx -> ctx.bytes(ctx.body())).dispatch(Dispatch.VIRTUAL_THREADS));
        wire.feed("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n").turn();
        wire.turnUntil(() -> wire.output().equals("HTTP/1.1 100 Continue\r\n\r\n"));
        wire.feed("body");
        wire.turnUntil(() -> wire.output().endsWith("\r\n\r\nbody"));
        assertThat(wire.output()).contains("HTTP/1.1 200 OK");
    }

    @Test
    void aHandlerOnAnotherThreadAnswersThroughTheLoop() {
        Thread loop = Thread.currentThread();
        start(cfg -> cfg.route(Method.GET, "/hello", ctx -> ctx.text("elsewhere " + (Thread.currentThread() != loop)))
                .dispatch(Dispatch.WORKER_POOL));
        wire.feed(GET_HELLO + GET_HELLO).turn();
        // the second request waits for the first answer: one at a time, in order
        wire.turnUntil(() -> count(wire.output(), "elsewhere true") == 2);
    }

    @Test
    void noSlotFreeAndNoQueueMeans503WithRetryAfter() {
        AdmissionControl admission = new AdmissionControl(new FixedLimit(1), 0);
        assertThat(admission.tryAcquire()).isTrue(); // the one slot is taken
        start(Http1ConnectionTest::hello, ServerOptions.builder().build(), admission, false);
        wire.feed(GET_HELLO).turn();
        assertThat(wire.output()).startsWith("HTTP/1.1 503 ").contains("Retry-After: 1");
        assertThat(wire.closed).isFalse();
        assertThat(conn.idle()).as("a body-less shed request keeps the connection").isTrue();
    }

    @Test
    void aQueuedRequestRunsWhenASlotComesFree() {
        AdmissionControl admission = new AdmissionControl(new FixedLimit(1), 4);
        assertThat(admission.tryAcquire()).isTrue();
        start(Http1ConnectionTest::hello, ServerOptions.builder().build(), admission, false);
        wire.feed(GET_HELLO).turn();
        assertThat(wire.output()).isEmpty();
        assertThat(wire.readInterest).as("a queued request pauses reading").isFalse();
        admission.release(0, false); // passes the slot to the queued request, through the loop
        wire.turnUntil(() -> wire.output().endsWith("Hello"));
    }

    @Test
    void anUpgradeHandsTheWireToAnotherProtocolAfterTheResponse() {
        AtomicReference<Http1Connection> self = new AtomicReference<>();
        ByteArrayOutputStream echoed = new ByteArrayOutputStream();
        Upgrade toEcho = (w, buffered) -> new Echo(w, buffered, echoed);
        start(cfg -> cfg.route(Method.GET, "/switch", ctx -> {
            self.get().channel().upgradeAfter(self.get().channel().exchange(), toEcho); // ctx is a handle on it
            ctx.text("switching");
        }).dispatch(Dispatch.EVENT_LOOP));
        self.set(conn);
        // the client sends its first bytes of the new protocol right behind the request
        wire.feed("GET /switch HTTP/1.1\r\nHost: t\r\n\r\nping").turn();
        // the new protocol got the bytes sent behind the request, and answered them
        assertThat(wire.output()).startsWith("HTTP/1.1 200 OK").endsWith("\r\n\r\nswitchingping");
        assertThat(wire.protocol).isInstanceOf(Echo.class);
        assertThat(conn.isClosed()).as("HTTP/1.1 let go of the wire").isTrue();
        assertThat(wire.closed).isFalse();
        wire.feed("GET /hello HTTP/1.1\r\n\r\n").turn();
        assertThat(echoed.toString(StandardCharsets.ISO_8859_1)).isEqualTo("pingGET /hello HTTP/1.1\r\n\r\n");
        assertThat(wire.output()).endsWith("switchingpingGET /hello HTTP/1.1\r\n\r\n");
    }

    @Test
    void anUpgradeAfterARequestWithABodyGivesItsMemoryBack() {
        AtomicReference<Http1Connection> self = new AtomicReference<>();
        ByteArrayOutputStream echoed = new ByteArrayOutputStream();
        Upgrade toEcho = (w, buffered) -> new Echo(w, buffered, echoed);
        start(cfg -> cfg.route(Method.POST, "/switch", ctx -> {
            self.get().channel().upgradeAfter(self.get().channel().exchange(), toEcho); // ctx is a handle on it
            ctx.text("switching " + ctx.body().length);
        }).dispatch(Dispatch.EVENT_LOOP));
        self.set(conn);
        wire.feed("POST /switch HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello").turn();
        assertThat(wire.output()).startsWith("HTTP/1.1 200 OK").endsWith("switching 5");
        assertThat(wire.protocol).isInstanceOf(Echo.class);
        assertThat(shared.bodies.memory().reserved()).isZero();
    }

    @Test
    void aBodyIsReservedWhileItIsReadAndGivenBackWhenTheConnectionCloses() {
        start(cfg -> cfg.route(Method.POST, "/upload", ctx -> ctx.text("n=" + ctx.body().length))
                .dispatch(Dispatch.EVENT_LOOP));
        wire.feed("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n" + "x".repeat(10)).turn();
        assertThat(shared.bodies.memory().reserved()).as("the declared length, before the body is read").isEqualTo(1000);
        conn.close();
        assertThat(shared.bodies.memory().reserved()).isZero();
    }

    @Test
    void aStreamedBodyPausesReadingWithoutADeadlineWhileItsWindowIsFull() throws InterruptedException {
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        start(cfg -> cfg.route(Method.POST, "/count", ctx -> {
            gate.await();
            ctx.text("n=" + ctx.bodyAsStream().readAllBytes().length);
        }).streamBody());
        int length = 200 * 1024;
        wire.feed("POST /count HTTP/1.1\r\nHost: t\r\nContent-Length: " + length + "\r\n\r\n");
        for (int i = 0; i < 50; i++) {
            wire.feed("x".repeat(length / 50)); // all of it sent; the socket holds what is not read
        }
        for (int i = 0; i < 50; i++) {
            wire.turn();
        }
        assertThat(wire.readInterest).as("reading paused: the window is full").isFalse();
        assertThat(wire.hasDeadline).as("no body timeout while the handler does not read").isFalse();
        assertThat(shared.bodies.memory().reserved()).isEqualTo(dev.brisk.internal.body.BodyStream.WINDOW);
        wire.advanceClock(ServerOptions.builder().build().bodyReadTimeout().toNanos() * 2);
        assertThat(wire.output()).as("no 408").isEmpty();
        gate.countDown();
        wire.turnUntil(() -> wire.output().endsWith("n=" + length));
        assertThat(wire.readInterest).isTrue();
        wire.turnUntil(() -> shared.bodies.memory().reserved() == 0);
    }

    @Test
    void aStreamedBodyIsReadOnABlockingLoopByTheHandlersOwnThread() {
        start(cfg -> cfg.route(Method.POST, "/count", ctx -> ctx.text("n=" + ctx.bodyAsStream().readAllBytes().length))
                .streamBody(), ServerOptions.builder().build(), null, true);
        // everything is here before the handler runs: it reads it through the connection, on this thread
        wire.feed("POST /count HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 20; i++) {
            wire.feed("1000\r\n" + "y".repeat(4096) + "\r\n");
        }
        wire.feed("0\r\n\r\n").turn();
        assertThat(wire.output()).startsWith("HTTP/1.1 200 OK").endsWith("n=" + 20 * 4096);
        assertThat(shared.bodies.memory().reserved()).isZero();
    }

    /** A test-only protocol: echoes every byte back. */
    private static final class Echo implements Protocol {
        private final Wire wire;
        private final ByteArrayOutputStream seen;
        private boolean closed;

        Echo(Wire wire, ByteBuffer buffered, ByteArrayOutputStream seen) {
            this.wire = wire;
            this.seen = seen;
            echo(buffered);
        }

        private void echo(ByteBuffer b) {
            byte[] a = new byte[b.remaining()];
            b.get(a);
            seen.writeBytes(a);
            try {
                wire.write(new ByteBuffer[] {ByteBuffer.wrap(a)}, 1);
            } catch (java.io.IOException e) {
                close();
            }
        }

        @Override
        public void onReadable() {
            ByteBuffer b = ByteBuffer.allocate(256);
            try {
                int n = wire.read(b);
                if (n < 0) {
                    close();
                } else if (n > 0) {
                    echo(b.flip());
                }
            } catch (java.io.IOException e) {
                close();
            }
        }

        @Override
        public void onWritable() {
        }

        @Override
        public void onTimer(long now) {
        }

        @Override
        public void onBytes(byte[] src, int n) {
            echo(ByteBuffer.wrap(src, 0, Math.max(n, 0)));
        }

        @Override
        public void drain() {
            close();
        }

        @Override
        public void close() {
            closed = true;
            wire.close();
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public boolean idle() {
            return true;
        }

        @Override
        public boolean holdsInput() {
            return false;
        }

        @Override
        public boolean awaitsTask() {
            return false;
        }
    }

    @Test
    void requestsPerConnectionAreBounded() {
        start(Http1ConnectionTest::hello, ServerOptions.builder().maxRequestsPerConnection(2).build(), null, false);
        wire.feed(GET_HELLO + GET_HELLO + GET_HELLO).turn();
        String out = wire.output();
        assertThat(count(out, "HTTP/1.1 200 OK")).isEqualTo(2);
        assertThat(count(out, "Connection: close")).isEqualTo(1);
        assertThat(wire.protocol).isInstanceOf(InputDrain.class);
    }

    @Test
    void drainMakesABusyConnectionsResponseItsLast() {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        start(cfg -> cfg.route(Method.GET, "/hello", ctx -> {
            release.await();
            ctx.text("Hello");
        }).dispatch(Dispatch.WORKER_POOL));
        wire.feed(GET_HELLO).turn();
        shared.startDraining();
        conn.drain(); // busy: the handler waits on another thread
        assertThat(wire.closed).isFalse();
        release.countDown();
        wire.turnUntil(() -> wire.output().endsWith("Hello"));
        assertThat(wire.output()).contains("Connection: close");
        assertThat(wire.protocol).isInstanceOf(InputDrain.class);
    }

    @Test
    void drainGivesAnIdleConnectionItsGraceThenClosesIt() {
        start(Http1ConnectionTest::hello);
        wire.feed(GET_HELLO).turn();
        assertThat(wire.output()).doesNotContain("Connection: close");
        shared.startDraining();
        conn.drain();
        conn.drain(); // again (a blocking loop may tell it twice): the grace is given once
        assertThat(wire.closed).isFalse();
        long grace = ServerOptions.DEFAULT_DRAIN_GRACE.toNanos();
        assertThat(wire.deadline).isEqualTo(wire.now + grace);
        wire.advanceClock(grace - 1);
        assertThat(wire.closed).isFalse();
        wire.advanceClock(2);
        assertThat(wire.closed).isTrue();
        assertThat(wire.stats.connectionsTimedOut()).as("the grace's end is not a client's timeout").isZero();
    }

    @Test
    void aRequestArrivingInTheGraceIsAnsweredWithConnectionClose() {
        start(Http1ConnectionTest::hello);
        shared.startDraining();
        conn.drain(); // a new connection, nothing sent yet
        assertThat(wire.closed).isFalse();
        wire.advanceClock(ServerOptions.DEFAULT_DRAIN_GRACE.toNanos() / 2);
        wire.feed(GET_HELLO).turn();
        assertThat(firstStatus(wire.output())).isEqualTo("200");
        assertThat(wire.output()).contains("Connection: close").endsWith("Hello");
        assertThat(wire.protocol).isInstanceOf(InputDrain.class);
    }

    @Test
    void aZeroGraceClosesAnIdleConnectionAtOnce() {
        start(Http1ConnectionTest::hello, ServerOptions.builder().drainGrace(Duration.ZERO).build(), null, false);
        wire.feed(GET_HELLO).turn();
        shared.startDraining();
        conn.drain();
        assertThat(wire.closed).isTrue();
    }

    @Test
    void aKeepAliveResponseFramedBeforeTheDrainGetsTheGraceOnceWritten() {
        start(Http1ConnectionTest::hello);
        wire.writeBudget = 10; // the response goes out in pieces: still writing when the drain begins
        wire.feed(GET_HELLO).turn();
        shared.startDraining();
        conn.drain();
        assertThat(wire.closed).isFalse();
        wire.writeBudget = Long.MAX_VALUE;
        wire.turnUntil(() -> wire.output().endsWith("Hello"));
        assertThat(wire.output()).doesNotContain("Connection: close");
        // the client was told keep-alive: its next request, sent in the grace, is answered
        assertThat(wire.closed).isFalse();
        assertThat(wire.deadline).isEqualTo(wire.now + ServerOptions.DEFAULT_DRAIN_GRACE.toNanos());
        wire.feed(GET_HELLO).turn();
        assertThat(count(wire.output(), "Hello")).isEqualTo(2);
        assertThat(wire.output()).endsWith("Hello");
        assertThat(count(wire.output(), "Connection: close")).isEqualTo(1);
    }

    @Test
    void theHeaderDeadlineStartsAtAccept() {
        // the header deadline counts from accept, on the wire's clock
        start(Http1ConnectionTest::hello, ServerOptions.builder().headerReadTimeout(Duration.ofSeconds(3)).build(), null, false);
        assertThat(wire.deadline).isEqualTo(wire.now + Duration.ofSeconds(3).toNanos());
    }
}
