package dev.brisk.http2;

import static dev.brisk.http2.H2Conn.CONTINUATION;
import static dev.brisk.http2.H2Conn.DATA;
import static dev.brisk.http2.H2Conn.GOAWAY;
import static dev.brisk.http2.H2Conn.HEADERS;
import static dev.brisk.http2.H2Conn.PING;
import static dev.brisk.http2.H2Conn.RST_STREAM;
import static dev.brisk.http2.H2Conn.SETTINGS;
import static dev.brisk.http2.H2Conn.on;
import static dev.brisk.http2.H2Conn.type;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import dev.brisk.testing.Within;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 17: the protections HTTP/2 needs against the field's known attacks, each on the wire with a
 * raw client ({@link H2Conn}): rapid reset (CVE-2023-44487), CONTINUATION floods, HPACK bombs,
 * SETTINGS and PING floods, zero-window stalls; and the limits a client meets on the way: concurrent
 * streams, body size, body and header timeouts, idle connections. Each case also checks that the
 * server goes on serving.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class Http2ProtectionsTest {
    private static final Duration QUICK = Duration.ofMillis(400);

    @Parameter
    Engine engine;

    private Brisk app;
    private final AtomicInteger slowStarted = new AtomicInteger();

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private Brisk start(Consumer<BriskConfig> options) {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            options.accept(cfg);
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.get("/big", ctx -> ctx.bytes(new byte[300_000]));
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()));
            cfg.get("/slow", ctx -> {
                slowStarted.incrementAndGet();
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return; // the server is closing (after the rapid-reset test): nobody waits for this answer
                }
                ctx.text("slow");
            });
        }).start();
        return app;
    }

    /** The server still answers a new connection. */
    private void stillServes() throws Exception {
        try (H2Conn c = new H2Conn(app.port())) {
            c.get(1, "/hello");
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
        }
    }

    private static void assertGoAway(H2Conn c, int code) throws Exception {
        H2Conn.Frame g = c.await(type(GOAWAY));
        assertThat(g.errorCode()).as("GOAWAY's code").isEqualTo(code);
        assertThat(c.closedWithin(Duration.ofSeconds(5))).as("closed after the GOAWAY").isTrue();
    }

    @Test
    void rapidResetEndsTheConnection() throws Exception {
        // streams reset while their handlers run: each frees a slot the client fills again at once
        org.junit.jupiter.api.Assumptions.assumeTrue(onEventLoops(),
                "on the blocking engine a connection's handlers run one at a time on its thread: a reset "
                        + "never finds a handler running, and costs what a request costs");
        start(cfg -> { });
        try (H2Conn c = new H2Conn(app.port())) {
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            byte[] get = H2Conn.request("GET", "/slow");
            for (int i = 0; i < 260; i++) {
                int stream = 1 + 2 * i;
                burst.writeBytes(H2Conn.encode(HEADERS, H2Conn.END_HEADERS | H2Conn.END_STREAM, stream, get));
                burst.writeBytes(H2Conn.encode(RST_STREAM, 0, stream, new byte[] {0, 0, 0, 8}));
            }
            c.raw(burst.toByteArray());
            assertGoAway(c, H2Conn.ENHANCE_YOUR_CALM);
        }
        assertThat(slowStarted.get()).as("handlers started before the cap").isLessThanOrEqualTo(260);
        stillServes();
    }

    @Test
    void aContinuationFloodIsBoundedByTheHeaderListSize() throws Exception {
        start(cfg -> cfg.options().h2MaxHeaderListSize(4096));
        try (H2Conn c = new H2Conn(app.port())) {
            c.frame(HEADERS, 0, 1, H2Conn.request("GET", "/hello"));
            byte[] junk = new byte[1000];
            java.util.Arrays.fill(junk, (byte) 0x82); // indexed :method GET, over and over
            for (int i = 0; i < 20; i++) {
                c.frame(CONTINUATION, 0, 1, junk);
            }
            assertGoAway(c, H2Conn.ENHANCE_YOUR_CALM);
        }
        stillServes();
    }

    @Test
    void emptyContinuationsAreAFlood() throws Exception {
        start(cfg -> { });
        try (H2Conn c = new H2Conn(app.port())) {
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            burst.writeBytes(H2Conn.encode(HEADERS, 0, 1, H2Conn.request("GET", "/hello")));
            for (int i = 0; i < 1_100; i++) {
                burst.writeBytes(H2Conn.encode(CONTINUATION, 0, 1, new byte[0]));
            }
            c.raw(burst.toByteArray());
            assertGoAway(c, H2Conn.ENHANCE_YOUR_CALM);
        }
    }

    @Test
    void aHeaderBlockLeftOpenEndsWithTheHeaderTimeout() throws Exception {
        start(cfg -> cfg.options().headerReadTimeout(QUICK));
        try (H2Conn c = new H2Conn(app.port())) {
            c.frame(HEADERS, 0, 1, H2Conn.request("GET", "/hello"));
            assertGoAway(c, H2Conn.PROTOCOL_ERROR);
        }
    }

    @Test
    void anHpackBombIsAnswered431AndTheConnectionGoesOn() throws Exception {
        start(cfg -> { });
        try (H2Conn c = new H2Conn(app.port())) {
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            first.writeBytes(H2Conn.request("GET", "/hello"));
            H2Conn.indexed(first, "x-pad", "a".repeat(4000)); // now at dynamic index 62
            c.headers(1, true, first.toByteArray());
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
            ByteArrayOutputStream bomb = new ByteArrayOutputStream();
            bomb.writeBytes(H2Conn.request("GET", "/hello"));
            for (int i = 0; i < 200; i++) {
                bomb.write(0x80 | 62); // 200 bytes that decode to 800 KB
            }
            c.headers(3, true, bomb.toByteArray());
            assertThat(c.await(on(HEADERS, 3)).status()).isEqualTo(431);
            c.get(5, "/hello");
            assertThat(c.await(on(HEADERS, 5)).status()).isEqualTo(200);
        }
    }

    @Test
    void aTableSizeUpdateKeepsTheEntriesThatStillFit() throws Exception {
        // RFC 7541 4.3: a client that announces a size update (here: the same size) goes on referring to
        // the entries that fit; the decoder once dropped them all, and the next reference was a
        // COMPRESSION_ERROR that closed the connection (found by HpackDecoderFuzzTest)
        start(cfg -> cfg.get("/who", ctx -> ctx.text("tenant " + ctx.header("x-tenant"))));
        try (H2Conn c = new H2Conn(app.port())) {
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            first.writeBytes(H2Conn.request("GET", "/who"));
            H2Conn.indexed(first, "x-tenant", "acme"); // now at dynamic index 62
            c.headers(1, true, first.toByteArray());
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
            assertThat(new String(c.await(on(DATA, 1)).payload(), StandardCharsets.UTF_8)).isEqualTo("tenant acme");
            ByteArrayOutputStream second = new ByteArrayOutputStream();
            H2Conn.integer(second, 0x20, 5, 4096); // a size update: 4096, as before
            second.writeBytes(H2Conn.request("GET", "/who"));
            second.write(0x80 | 62); // x-tenant: acme, from the table
            c.headers(3, true, second.toByteArray());
            assertThat(c.await(on(HEADERS, 3)).status()).isEqualTo(200);
            assertThat(new String(c.await(on(DATA, 3)).payload(), StandardCharsets.UTF_8)).isEqualTo("tenant acme");
        }
    }

    @Test
    void aTableSizeAboveTheSettingIsACompressionError() throws Exception {
        start(cfg -> { });
        try (H2Conn c = new H2Conn(app.port())) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            H2Conn.integer(b, 0x20, 5, 1 << 20); // a dynamic table of 1 MiB, above our 4096
            b.writeBytes(H2Conn.request("GET", "/hello"));
            c.headers(1, true, b.toByteArray());
            assertGoAway(c, H2Conn.COMPRESSION_ERROR);
        }
    }

    /**
     * The client lowers its HPACK table to 0, and the next answer's head is over 1 MiB, so it is refused
     * (500). The size update the refused block carried must still reach the client (RFC 7541 4.2): in
     * the 500's block, the next one sent. It was dropped with the refused block.
     */
    @Test
    void aTableSizeUpdateOwedSurvivesAHeadRefusedForItsSize() throws Exception {
        start(cfg -> cfg.get("/huge-head", ctx -> {
            String value = "v".repeat(60_000);
            for (int i = 0; i < 30; i++) { // about 1.5 MiB once Huffman-coded, over the 1 MiB a block may have
                ctx.header("x-big-" + i, value);
            }
            ctx.text("never sent");
        }));
        try (H2Conn c = new H2Conn(app.port())) {
            c.settings(1, 0); // SETTINGS_HEADER_TABLE_SIZE: 0
            c.await(f -> f.type() == SETTINGS && f.has(H2Conn.ACK));
            c.get(1, "/huge-head");
            H2Conn.Frame refused = c.await(on(HEADERS, 1));
            assertThat(refused.status()).isEqualTo(500);
            assertThat(refused.payload()[0] & 0xff).as("the size update to 0 starts the block").isEqualTo(0x20);
            c.get(3, "/hello");
            H2Conn.Frame next = c.await(on(HEADERS, 3));
            assertThat(next.status()).isEqualTo(200);
            assertThat(next.payload()[0] & 0xe0).as("announced once").isNotEqualTo(0x20);
        }
    }

    /**
     * Frames on a stream the server reset are dropped, not answered (the client may not have seen the
     * reset yet); empty ones in a flood are work for nothing like a PING flood, and end the connection
     * the same way. They were dropped without being counted, however many came.
     */
    @Test
    void aFloodOfEmptyFramesOnAStreamTheServerResetEndsTheConnection() throws Exception {
        start(cfg -> { });
        try (H2Conn c = new H2Conn(app.port())) {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            head.writeBytes(new byte[] {0, 0, 0, 3, 15}); // PRIORITY: stream 3 depends on itself, weight 16
            head.writeBytes(H2Conn.request("GET", "/hello"));
            c.frame(HEADERS, H2Conn.END_HEADERS | 0x20, 3, head.toByteArray()); // no END_STREAM: a body may follow
            assertThat(c.await(on(RST_STREAM, 3)).errorCode()).isEqualTo(H2Conn.PROTOCOL_ERROR);
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            for (int i = 0; i < 1_100; i++) {
                burst.writeBytes(H2Conn.encode(DATA, 0, 3, new byte[0]));
            }
            c.raw(burst.toByteArray());
            assertGoAway(c, H2Conn.ENHANCE_YOUR_CALM);
        }
        stillServes();
    }

    @Test
    void settingsAndPingFloodsEndTheConnection() throws Exception {
        start(cfg -> { });
        for (int type : new int[] {SETTINGS, PING}) {
            try (H2Conn c = new H2Conn(app.port())) {
                ByteArrayOutputStream burst = new ByteArrayOutputStream();
                for (int i = 0; i < 1_100; i++) {
                    burst.writeBytes(H2Conn.encode(type, 0, 0, new byte[type == PING ? 8 : 0]));
                }
                c.raw(burst.toByteArray());
                assertGoAway(c, H2Conn.ENHANCE_YOUR_CALM);
            }
        }
        stillServes();
    }

    @Test
    void aStreamWindowKeptShutIsResetAfterTheWriteTimeout() throws Exception {
        start(cfg -> cfg.options().writeTimeout(QUICK));
        try (H2Conn c = new H2Conn(app.port())) {
            c.settings(4, 0); // SETTINGS_INITIAL_WINDOW_SIZE = 0: no DATA may come
            c.get(1, "/big");
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
            long t0 = System.nanoTime();
            H2Conn.Frame rst = c.await(f -> f.type() == RST_STREAM || f.type() == DATA);
            assertThat(rst.type()).isEqualTo(RST_STREAM);
            assertThat(rst.errorCode()).isEqualTo(H2Conn.CANCEL);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(QUICK.minusMillis(150));
            c.ping(7);
            assertThat(c.await(type(PING)).has(H2Conn.ACK)).as("the connection goes on").isTrue();
        }
    }

    @Test
    void aConnectionWindowKeptShutResetsTheStreamsWaitingForIt() throws Exception {
        start(cfg -> cfg.options().writeTimeout(QUICK));
        try (H2Conn c = new H2Conn(app.port())) {
            c.settings(4, 1 << 20); // streams may take 1 MiB, the connection only its first 65535 bytes
            c.get(1, "/big");
            int got = 0;
            H2Conn.Frame f;
            while ((f = c.await(g -> g.type() == DATA || g.type() == RST_STREAM)).type() == DATA) {
                got += f.payload().length;
            }
            assertThat(got).isEqualTo(65_535);
            assertThat(f.errorCode()).isEqualTo(H2Conn.CANCEL);
        }
        assertThat(app.metrics().connectionsTimedOut()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void streamsOverTheLimitAreRefused() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(onEventLoops(), "the blocking engine serves a connection's streams one at a time");
        start(cfg -> cfg.options().h2MaxConcurrentStreams(2));
        try (H2Conn c = new H2Conn(app.port())) {
            c.gets(1, "/slow", "/slow", "/slow");
            H2Conn.Frame refused = c.await(on(RST_STREAM, 5));
            assertThat(refused.errorCode()).isEqualTo(H2Conn.REFUSED_STREAM);
            assertThat(c.statuses(1, 3)).containsEntry(1, 200).containsEntry(3, 200);
        }
    }

    @Test
    void theInFlightLimitShedsAndQueuesStreams() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(onEventLoops(), "the blocking engine serves a connection's streams one at a time");
        start(cfg -> cfg.options().maxConcurrentRequests(1).requestQueueSize(1)
                .requestQueueTimeout(Duration.ofSeconds(5)));
        try (H2Conn c = new H2Conn(app.port())) {
            // /slow holds the one slot for 300 ms; the first /hello waits in the queue, then is served;
            // the second finds the queue full: shed at once
            c.gets(1, "/slow", "/hello", "/hello");
            assertThat(c.statuses(1, 3, 5)).containsEntry(1, 200).containsEntry(3, 200).containsEntry(5, 503);
        }
        assertThat(app.metrics().shed()).containsEntry("concurrency-limit", 1L);
        assertThat(app.metrics().inFlight()).isZero();
        assertThat(app.metrics().requestsByProtocol()).containsEntry("h2c", 3L).containsEntry("http/1.1", 0L);
        assertThat(app.metrics().requestsByRoute().get("GET /hello")).as("the shed answer under its route")
                .containsExactly(0, 0, 1, 0, 0, 1);
    }

    @Test
    void aStreamQueuedTooLongIsShed() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(onEventLoops(), "the blocking engine serves a connection's streams one at a time");
        start(cfg -> cfg.options().maxConcurrentRequests(1).requestQueueSize(4)
                .requestQueueTimeout(Duration.ofMillis(100)));
        try (H2Conn c = new H2Conn(app.port())) {
            c.gets(1, "/slow", "/hello");
            assertThat(c.statuses(1, 3)).containsEntry(1, 200).containsEntry(3, 503);
        }
        assertThat(app.metrics().shed()).containsEntry("queue-timeout", 1L);
        assertThat(app.metrics().queued()).isZero();
    }

    /** An event-loop engine (NIO or io_uring): a connection's streams are served at once. */
    private boolean onEventLoops() {
        return engine == Engine.NIO || engine == Engine.URING;
    }

    @Test
    void bodiesOverTheLimitAre413() throws Exception {
        start(cfg -> cfg.options().maxBodySize(1000));
        try (H2Conn c = new H2Conn(app.port())) {
            // declared: refused before any byte of it
            c.headers(1, false, H2Conn.request("POST", "/echo", "content-length", "5000"));
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(413);
            assertThat(c.await(on(RST_STREAM, 1)).errorCode()).as("stop sending").isEqualTo(H2Conn.NO_ERROR);
            // undeclared: refused when it grows past the limit
            c.headers(3, false, H2Conn.request("POST", "/echo"));
            c.data(3, false, new byte[600]);
            c.data(3, false, new byte[600]);
            assertThat(c.await(on(HEADERS, 3)).status()).isEqualTo(413);
            c.data(3, true, new byte[600]); // on its way before the client saw the answer: dropped
            c.get(5, "/hello");
            assertThat(c.await(on(HEADERS, 5)).status()).isEqualTo(200);
            // and a body within the limit is echoed
            c.headers(7, false, H2Conn.request("POST", "/echo", "content-length", "5"));
            c.data(7, true, "12345".getBytes(StandardCharsets.US_ASCII));
            assertThat(c.await(on(HEADERS, 7)).status()).isEqualTo(200);
            assertThat(new String(c.await(on(DATA, 7)).payload(), StandardCharsets.US_ASCII)).isEqualTo("12345");
        }
    }

    @Test
    void bodiesDrawFromTheServersBudgetAndTheStreamItCannotTakeIs503() throws Exception {
        // HTTP/2 bodies draw from body-memory-budget as HTTP/1.1 bodies do (a declared length reserved
        // whole): the stream the budget cannot take is answered 503 and reset, the others go on
        start(cfg -> cfg.options().bodyMemoryBudget(160_000));
        try (H2Conn c = new H2Conn(app.port())) {
            for (int stream = 1; stream <= 9; stream += 2) { // five bodies of 35,000 bytes (36,864 in slabs) > 160,000
                c.headers(stream, false, H2Conn.request("POST", "/echo", "content-length", "35000"));
                c.data(stream, false, new byte[35_000]);
            }
            H2Conn.Frame refused = c.await(f -> f.type() == HEADERS);
            assertThat(refused.stream()).as("the fifth body went past the budget").isEqualTo(9);
            assertThat(refused.status()).isEqualTo(503);
            assertThat(c.await(on(RST_STREAM, 9)).errorCode()).isEqualTo(H2Conn.NO_ERROR);
            assertThat(app.metrics().bodyMemoryReserved()).as("four bodies held, each in nine 4 KiB slabs")
                    .isEqualTo(4 * 36_864);
            for (int stream = 1; stream <= 7; stream += 2) {
                c.data(stream, true, new byte[0]);
            }
            assertThat(c.statuses(1, 3, 5, 7).values()).containsOnly(200);
        }
        Within.within(10_000, () -> app.metrics().bodyMemoryReserved() == 0);
        assertThat(app.metrics().bodyMemoryReserved()).as("every body's memory given back").isZero();
    }

    /**
     * A body refused for the budget is refused once: its answer is one HEADERS (a second, without
     * END_STREAM, is a protocol error: 8.1), and its handler never runs, whatever DATA still comes.
     */
    @Test
    void aBodyRefusedForTheBudgetIsAnsweredOnceAndNeverHandled() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        start(cfg -> {
            cfg.options().bodyMemoryBudget(4096);
            cfg.post("/count", ctx -> ctx.text("handled " + handled.incrementAndGet()));
        });
        try (H2Conn c = new H2Conn(app.port())) {
            c.headers(1, false, H2Conn.request("POST", "/count", "content-length", "10000"));
            for (int i = 0; i < 5; i++) { // five frames: each piece once found the body gone and refused it again
                c.data(1, i == 4, new byte[2000]);
            }
            c.get(3, "/hello");
            int heads = 0;
            for (H2Conn.Frame f = c.read(); f != null; f = c.read()) {
                if (f.stream() == 1 && f.type() == HEADERS) {
                    heads++;
                    assertThat(f.status()).isEqualTo(503);
                }
                if (f.stream() == 3 && f.type() == H2Conn.DATA && f.has(H2Conn.END_STREAM)) {
                    break; // the later stream's whole answer: stream 1's came before it or never will
                }
            }
            assertThat(heads).as("one answer on the refused stream").isEqualTo(1);
            c.get(5, "/hello");
            assertThat(c.statuses(5).get(5)).isEqualTo(200);
        }
        assertThat(handled).as("the refused request reached no handler").hasValue(0);
    }

    /** A stream the client resets while its handler runs is still counted and logged once, as over HTTP/1.1. */
    @Test
    void aStreamResetDuringItsHandlerIsStillCounted() throws Exception {
        start(cfg -> { });
        try (H2Conn c = new H2Conn(app.port())) {
            c.get(1, "/slow");
            assertThat(dev.brisk.testing.Within.within(5_000, () -> slowStarted.get() == 1)).isTrue();
            c.rst(1, 8); // CANCEL, as a browser that navigates away
            c.get(3, "/hello");
            assertThat(c.await(on(HEADERS, 3)).status()).isEqualTo(200);
            assertThat(dev.brisk.testing.Within.within(5_000, () -> {
                long[] slow = app.metrics().requestsByRoute().get("GET /slow");
                return slow != null && slow[2] == 1 && app.metrics().requestsByProtocol().get("h2c") == 2;
            })).as("the reset stream's answer counted under its route and its protocol").isTrue();
            c.get(5, "/hello");
            assertThat(c.await(on(HEADERS, 5)).status()).isEqualTo(200);
            assertThat(app.metrics().requestsByRoute().get("GET /slow")[2]).as("counted once").isEqualTo(1);
        }
    }

    /** {@code max-request-line} bounds HTTP/2's :method and :path as the HTTP/1.1 request line they stand for. */
    @Test
    void aPathPastMaxRequestLineIs414AsOverHttp1() throws Exception {
        start(cfg -> cfg.options().maxRequestLine(1024));
        String fits = "/hello?" + "a".repeat(1024 - "GET /hello? HTTP/1.1".length());
        String over = fits + "a";
        try (H2Conn c = new H2Conn(app.port())) {
            c.get(1, over);
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(414);
            c.get(3, fits);
            assertThat(c.await(on(HEADERS, 3)).status()).as("the line at the limit").isEqualTo(200);
        }
        try (dev.brisk.testing.RawConnection c = dev.brisk.testing.RawConnection.open("127.0.0.1", app.port())) {
            c.send("GET " + over + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().status()).as("the same request over HTTP/1.1").isEqualTo(414);
        }
        try (dev.brisk.testing.RawConnection c = dev.brisk.testing.RawConnection.open("127.0.0.1", app.port())) {
            c.send("GET " + fits + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
        }
    }

    /** Trailers past the header-list size are 431, as HTTP/1.1's past max-header-size: the handler never runs. */
    @Test
    void trailersPastTheHeaderListSizeAre431() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        start(cfg -> {
            cfg.options().h2MaxHeaderListSize(4096);
            cfg.post("/count", ctx -> ctx.text("handled " + handled.incrementAndGet() + " " + ctx.body().length));
            cfg.post("/streamed", ctx -> ctx.text("read " + ctx.bodyAsStream().readAllBytes().length)).streamBody();
        });
        String[] big = new String[2 * 10];
        for (int i = 0; i < big.length; i += 2) {
            big[i] = "x-trailer-" + i;
            big[i + 1] = "v".repeat(600);
        }
        ByteArrayOutputStream trailers = new ByteArrayOutputStream();
        for (int i = 0; i < big.length; i += 2) {
            H2Conn.literal(trailers, big[i], big[i + 1]);
        }
        ByteArrayOutputStream small = new ByteArrayOutputStream();
        H2Conn.literal(small, "x-checksum", "abc");
        try (H2Conn c = new H2Conn(app.port())) {
            c.headers(1, false, H2Conn.request("POST", "/count"));
            c.data(1, false, new byte[10]);
            c.headers(1, true, trailers.toByteArray());
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(431);

            c.headers(3, false, H2Conn.request("POST", "/count"));
            c.data(3, false, new byte[10]);
            c.headers(3, true, small.toByteArray());
            assertThat(c.await(on(HEADERS, 3)).status()).as("small trailers").isEqualTo(200);

            c.headers(5, false, H2Conn.request("POST", "/streamed"));
            c.data(5, false, new byte[10]);
            c.headers(5, true, trailers.toByteArray());
            assertThat(c.await(on(HEADERS, 5)).status()).as("a streamed body's reader fails with it").isEqualTo(431);
            c.get(7, "/hello");
            assertThat(c.await(on(HEADERS, 7)).status()).isEqualTo(200);
        }
        assertThat(handled).as("only the request with small trailers was handled").hasValue(1);
    }

    /**
     * Trailers ending a stream already refused (its answer still waiting for window): no handler runs, and
     * a stream refused before it had an exchange (431 here) does not take the connection down.
     */
    @Test
    void trailersOnARefusedStreamReachNoHandler() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        start(cfg -> {
            cfg.options().maxHeaders(8);
            cfg.post("/count", ctx -> ctx.text("handled " + handled.incrementAndGet())).maxBodySize(1000);
        });
        try (H2Conn c = new H2Conn(app.port())) {
            c.settings(4, 0); // SETTINGS_INITIAL_WINDOW_SIZE 0: a refusal's body cannot leave, its stream stays open
            c.headers(1, false, H2Conn.request("POST", "/count"));
            c.data(1, false, new byte[2000]); // past the route's limit: 413
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(413);
            c.headers(1, true, new byte[0]); // trailers: the request's end
            String[] many = new String[20];
            for (int i = 0; i < many.length; i += 2) {
                many[i] = "x-field-" + i;
                many[i + 1] = "v";
            }
            c.headers(3, false, H2Conn.request("POST", "/count", many)); // more fields than max-headers: 431
            assertThat(c.await(on(HEADERS, 3)).status()).isEqualTo(431);
            c.headers(3, true, new byte[0]);
            c.get(5, "/hello");
            assertThat(c.await(on(HEADERS, 5)).status()).as("the connection still serves").isEqualTo(200);
        }
        assertThat(handled).as("a refused request reached its handler").hasValue(0);
    }

    /**
     * {@code max-header-size} bounds HTTP/2's regular fields as it bounds HTTP/1.1's header lines (each
     * counted as {@code name: value} and CRLF), so the same request gets the same 431 on both protocols,
     * however large {@code h2-max-header-list-size} is; one just within it is served on both.
     */
    @Test
    void maxHeaderSizeRefusesTheSameRequestOnBothProtocols() throws Exception {
        start(cfg -> cfg.options().maxHeaderSize(1024));
        String over = "a".repeat(1100);
        String within = "a".repeat(800);
        try (H2Conn c = new H2Conn(app.port())) {
            c.headers(1, true, H2Conn.request("GET", "/hello", "x-big", over));
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(431);
            H2Conn.Frame body = c.await(on(DATA, 1));
            assertThat(new String(body.payload(), StandardCharsets.UTF_8))
                    .contains("Request header block is larger than 1024 bytes");
            c.headers(3, true, H2Conn.request("GET", "/hello", "x-big", within));
            assertThat(c.await(on(HEADERS, 3)).status()).isEqualTo(200);
        }
        try (RawConnection c = RawConnection.open("127.0.0.1", app.port())) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\nx-big: " + within + "\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\nx-big: " + over + "\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(431);
            assertThat(r.body()).contains("Request header block is larger than 1024 bytes");
        }
    }

    /**
     * A stream refused while its body was still coming, whose answer then waits for a window the client keeps
     * shut, is answered once and reset by the stall rule: not refused again at every scan.
     */
    @Test
    void aRefusedStreamWaitingForWindowIsAnsweredOnceThenReset() throws Exception {
        start(cfg -> cfg.options().minBodyRate(8 * 1024).rateGrace(Duration.ofMillis(500))
                .rateWindow(Duration.ofMillis(500)).writeTimeout(Duration.ofSeconds(2)));
        try (H2Conn c = new H2Conn(app.port())) {
            c.settings(4, 0);
            c.headers(1, false, H2Conn.request("POST", "/echo", "content-length", "1000000000000"));
            int heads = 0;
            H2Conn.Frame f;
            long end = System.nanoTime() + 6_000_000_000L;
            do {
                f = c.await(Duration.ofSeconds(6), fr -> fr.stream() == 1);
                if (f.type() == HEADERS) {
                    heads++;
                }
            } while (f.type() != RST_STREAM && System.nanoTime() - end < 0);
            assertThat(f.type()).as("reset in the end").isEqualTo(RST_STREAM);
            assertThat(heads).as("answers on the refused stream").isEqualTo(1);
        }
    }

    /**
     * DATA frames of padding alone take a streamed body's window without a byte its handler could read, so
     * no read would give it back: the padding's window comes back at once, and the body goes on.
     */
    @Test
    void paddingAloneDoesNotShutAStreamedBodysWindow() throws Exception {
        java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(1);
        start(cfg -> {
            cfg.options().h2InitialWindowSize(65_535);
            cfg.post("/count-streamed", ctx -> {
                java.io.InputStream in = ctx.bodyAsStream();
                reading.countDown();
                ctx.text(String.valueOf(in.transferTo(java.io.OutputStream.nullOutputStream())));
            }).streamBody();
        });
        try (H2Conn c = new H2Conn(app.port())) {
            c.headers(1, false, H2Conn.request("POST", "/count-streamed"));
            if (engine == Engine.NIO || engine == Engine.URING) {
                // the handler reads first, waiting for bytes with the whole window open: no read of its asks again
                // (a blocking engine's handler starts with the first DATA)
                assertThat(reading.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            }
            byte[] padded = new byte[256];
            padded[0] = (byte) 255; // pad length: the frame is all padding
            for (int sent = 0; sent + padded.length <= 65_535; sent += padded.length) {
                c.frame(H2Conn.DATA, 0x8, 1, padded); // PADDED
            }
            H2Conn.Frame update = c.await(Duration.ofSeconds(3), fr -> fr.type() == H2Conn.WINDOW_UPDATE && fr.stream() == 1);
            assertThat(update).as("the stream's window given back").isNotNull();
            c.data(1, true, "hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
            assertThat(new String(c.await(on(H2Conn.DATA, 1)).payload(), java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("5");
        }
    }

    /**
     * {@code min-response-rate} on a stream: a client that opens its window a byte at a time makes progress
     * (so the stall rule never fires) but takes the answer far below the rate; its stream is reset.
     */
    @Test
    void aWindowOpenedAByteAtATimeIsCutByTheMinimumResponseRate() throws Exception {
        start(cfg -> cfg.options().minResponseRate(8 * 1024).rateGrace(Duration.ofMillis(500))
                .rateWindow(Duration.ofMillis(500)).writeTimeout(Duration.ofSeconds(30)));
        try (H2Conn c = new H2Conn(app.port())) {
            c.settings(4, 0); // every stream's window shut
            c.get(1, "/big");
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
            long t0 = System.nanoTime();
            c.timeout(200);
            H2Conn.Frame reset = null;
            for (int i = 0; i < 40 && reset == null; i++) { // a byte of window every 200 ms, 8 s at most
                c.windowUpdate(1, 1);
                try {
                    for (H2Conn.Frame f = c.read(); f != null; f = c.read()) {
                        if (f.type() == RST_STREAM && f.stream() == 1) {
                            reset = f;
                            break;
                        }
                    }
                } catch (java.net.SocketTimeoutException quiet) {
                    // nothing more for now: the next byte of window
                }
            }
            assertThat(reset).as("the stream reset").isNotNull();
            assertThat(reset.errorCode()).isEqualTo(H2Conn.CANCEL);
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
        }
        assertThat(app.metrics().slowResponses()).isEqualTo(1);
    }

    @Test
    void aBodyThatStopsComingIs408() throws Exception {
        start(cfg -> cfg.options().bodyReadTimeout(QUICK));
        try (H2Conn c = new H2Conn(app.port())) {
            c.headers(1, false, H2Conn.request("POST", "/echo"));
            c.data(1, false, new byte[10]);
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(408);
            assertThat(c.await(on(RST_STREAM, 1)).errorCode()).isEqualTo(H2Conn.NO_ERROR);
        }
    }

    @Test
    void maxRequestsPerConnectionEndsTheConnectionAfterItsLastStream() throws Exception {
        start(cfg -> cfg.options().maxRequestsPerConnection(2));
        try (H2Conn c = new H2Conn(app.port())) {
            c.get(1, "/hello");
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
            c.get(3, "/hello");
            H2Conn.Frame g = c.await(type(GOAWAY));
            assertThat(g.lastStream()).isEqualTo(3);
            assertThat(g.errorCode()).isEqualTo(H2Conn.NO_ERROR);
            assertThat(c.await(on(HEADERS, 3)).status()).as("the last stream is answered").isEqualTo(200);
            assertThat(c.closedWithin(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void anIdleConnectionIsClosedWithGoAway() throws Exception {
        start(cfg -> cfg.options().idleTimeout(QUICK));
        try (H2Conn c = new H2Conn(app.port())) {
            c.get(1, "/hello");
            assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
            H2Conn.Frame g = c.await(Duration.ofSeconds(5), type(GOAWAY));
            assertThat(g.errorCode()).isEqualTo(H2Conn.NO_ERROR);
            assertThat(g.lastStream()).isEqualTo(1);
            assertThat(c.closedWithin(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void aClientThatStopsReadingIsClosedAfterTheWriteTimeout() throws Exception {
        start(cfg -> cfg.options().writeTimeout(QUICK).h2InitialWindowSize(1 << 20));
        try (H2Conn c = new H2Conn(app.port())) {
            c.settings(4, 1 << 30);
            c.windowUpdate(0, (1 << 30) - 65_535);
            long t0 = System.nanoTime();
            for (int i = 0; i < 40; i++) {
                c.get(1 + 2 * i, "/big"); // 12 MB asked for, none read
            }
            long deadline = t0 + Duration.ofSeconds(10).toNanos();
            while (app.metrics().connectionsTimedOut() == 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(20);
            }
            assertThat(app.metrics().connectionsTimedOut()).as("closed for not reading").isEqualTo(1);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(QUICK);
            // counted as it is cut; gone from the count once the loop has closed it, a moment later
            assertThat(dev.brisk.testing.Within.within(3_000, () -> app.connectionCount() == 0)).isTrue();
        }
        stillServes();
    }
}
