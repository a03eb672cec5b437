package dev.brisk.ws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.HttpException;
import dev.brisk.WebSocketSession;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import dev.brisk.testing.Within;
import java.net.URI;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * The WebSocket API as an app uses it, on every engine: handshakes refused and accepted (origins,
 * subprotocols, middleware), the session's view of its request, the handlers' order and close codes,
 * sends from other threads and sessions, a receiver too slow for its outbound limit, idle pings and the
 * idle timeout, and a shutdown's 1001.
 */
class WebSocketApiTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;

        private static URI ws(BriskTestServer t, String path) {
            return URI.create("ws://127.0.0.1:" + t.port() + path);
        }

        @Test
        void handshakesThatAreNotAcceptedGetAClearAnswer() throws Exception {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.ws("/ws", w -> w.onText((s, x) -> s.sendText(x)).origins("https://good.example", "https://*.apps.example"));
                cfg.ws("/proto", w -> w.onText((s, x) -> s.sendText(s.subprotocol())).subprotocols("v2.chat", "v1.chat"));
            })) {
                var plain = t.get("/ws");
                assertThat(plain.statusCode()).isEqualTo(426);
                assertThat(plain.headers().firstValue("Upgrade")).hasValue("websocket");
                assertThat(plain.body()).contains("WebSocket endpoint");

                try (RawWs c = RawWs.open(t.port(), "/ws", "Origin: https://evil.example\r\n")) {
                    assertThat(c.status()).isEqualTo(403);
                }
                try (RawWs c = RawWs.open(t.port(), "/ws", "Origin: https://good.example\r\n")) {
                    assertThat(c.status()).isEqualTo(101);
                    assertThat(c.header("Sec-WebSocket-Accept")).isEqualTo("BACScCJPNqyz+UBoqMH89VmURoA=");
                }
                try (RawWs c = RawWs.open(t.port(), "/ws", "Origin: https://a.apps.example\r\n")) {
                    assertThat(c.status()).isEqualTo(101);
                }
                try (RawWs c = RawWs.open(t.port(), "/ws", "Origin: https://good.example\r\nOrigin: https://evil.example\r\n")) {
                    assertThat(c.status()).as("two Origin fields: which one the browser sent cannot be told").isEqualTo(403);
                }
                try (RawWs c = RawWs.open(t.port(), "/proto", "Sec-WebSocket-Protocol: v3.chat, v1.chat\r\n")) {
                    assertThat(c.status()).isEqualTo(101);
                    assertThat(c.header("Sec-WebSocket-Protocol")).isEqualTo("v1.chat");
                    c.text("which?");
                    assertThat(c.readData().text()).isEqualTo("v1.chat");
                }
                try (RawWs c = RawWs.open(t.port(), "/proto", "Sec-WebSocket-Protocol: v9.chat\r\n")) {
                    assertThat(c.status()).isEqualTo(400);
                }
                try (JdkWsClient c = JdkWsClient.connect(ws(t, "/proto"), List.of("v2.chat"), null)) {
                    assertThat(c.socket.getSubprotocol()).isEqualTo("v2.chat");
                }
                // raw requests for the other refusals
                try (var r = t.raw()) {
                    r.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n");
                    var resp = r.read();
                    assertThat(resp.status()).isEqualTo(426);
                    assertThat(resp.statusLine()).isEqualTo("HTTP/1.1 426 Upgrade Required");
                    assertThat(resp.header("Sec-WebSocket-Version")).isEqualTo("13");
                    r.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                            + "Sec-WebSocket-Version: 13\r\n\r\n");
                    var twice = r.read();
                    assertThat(twice.status()).as("the key sent twice (RFC 6455 11.3.1)").isEqualTo(400);
                    assertThat(twice.body()).contains("Sec-WebSocket-Key must be sent once");
                    r.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                            + "Sec-WebSocket-Version: 8\r\n\r\n");
                    var versions = r.read();
                    assertThat(versions.status()).as("the version sent twice (RFC 6455 11.3.5)").isEqualTo(400);
                    assertThat(versions.body()).contains("Sec-WebSocket-Version must be sent once");
                    r.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n\r\n");
                    assertThat(r.read().status()).isEqualTo(400);
                    r.send("GET /ws HTTP/1.0\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
                    var old = r.read();
                    assertThat(old.status()).isEqualTo(400);
                    assertThat(old.body()).contains("HTTP/1.1");
                }
            }
        }

        @Test
        void middlewareGuardsTheHandshakeAndTheSessionSeesTheRequest() throws Exception {
            LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.use(next -> ctx -> {
                    String token = ctx.queryParam("token");
                    if (!"secret".equals(token)) {
                        throw new HttpException.Unauthorized("token required");
                    }
                    ctx.attribute("user", "alice");
                    next.handle(ctx);
                });
                cfg.ws("/rooms/{room}", w -> w
                        .onOpen(s -> seen.add(s.attribute("user") + " in " + s.pathParam("room") + " via " + s.path()
                                + " with " + s.header("X-Client") + " " + s.queryParam("token")))
                        .onText((s, x) -> s.sendText(s.attribute("user") + ": " + x)));
            })) {
                try (RawWs c = RawWs.open(t.port(), "/rooms/lobby")) {
                    assertThat(c.status()).isEqualTo(401);
                }
                try (RawWs c = RawWs.open(t.port(), "/rooms/lobby?token=secret", "X-Client: raw\r\n")) {
                    assertThat(c.status()).isEqualTo(101);
                    assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("alice in lobby via /rooms/lobby with raw secret");
                    c.text("hi");
                    assertThat(c.readData().text()).isEqualTo("alice: hi");
                }
            }
        }

        /** After {@code close()} returns, the session is closed for sending, whichever thread the loop is on. */
        @Test
        void aSendAfterCloseFailsEveryTime() throws Exception {
            LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.ws("/closing", w -> w
                    .onText((s, x) -> {
                        s.sendText("before");
                        s.close(4000, "bye");
                        seen.add("open=" + s.isOpen() + " sent=" + !s.sendText("after").isCompletedExceptionally());
                    })).dispatch(Dispatch.VIRTUAL_THREADS))) {
                for (int i = 0; i < 10; i++) {
                    try (JdkWsClient c = JdkWsClient.connect(ws(t, "/closing"))) {
                        c.socket.sendText("go", true);
                        assertThat(c.nextText()).isEqualTo("before");
                        assertThat(c.next(10).closeCode()).as("the close right after, nothing between").isEqualTo(4000);
                    }
                    assertThat(seen.poll(10, TimeUnit.SECONDS)).as("attempt " + i).isEqualTo("open=false sent=false");
                }
            }
        }

        @Test
        void handlersRunInOrderAndCloseCodesReachBothSides() throws Exception {
            LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.ws("/life", w -> w
                    .onOpen(s -> events.add("open"))
                    .onText((s, x) -> {
                        events.add("text " + x);
                        switch (x) {
                            case "fail" -> throw new IllegalStateException("boom");
                            case "bye" -> s.close(4002, "done");
                            default -> s.sendText("ok " + x);
                        }
                    })
                    .onError((s, e) -> events.add("error " + e.getMessage()))
                    .onClose((s, code, reason) -> events.add("close " + code + " " + reason + " open=" + s.isOpen())))
                    .dispatch(Dispatch.VIRTUAL_THREADS))) {
                try (JdkWsClient c = JdkWsClient.connect(ws(t, "/life"))) {
                    c.socket.sendText("a", true);
                    assertThat(c.nextText()).isEqualTo("ok a");
                    c.socket.sendClose(4001, "client leaves").get(5, TimeUnit.SECONDS);
                    assertThat(c.next(10).closeCode()).isEqualTo(4001);
                }
                assertThat(take(events, 4)).containsExactly("open", "text a", "close 4001 client leaves open=false",
                        "<none>");
                try (JdkWsClient c = JdkWsClient.connect(ws(t, "/life"))) {
                    c.socket.sendText("bye", true);
                    JdkWsClient.Event e = c.next(10);
                    assertThat(e.closeCode()).isEqualTo(4002);
                    assertThat(e.closeReason()).isEqualTo("done");
                }
                assertThat(take(events, 3)).containsExactly("open", "text bye", "close 4002 done open=false");
                try (JdkWsClient c = JdkWsClient.connect(ws(t, "/life"))) {
                    c.socket.sendText("fail", true);
                    assertThat(c.next(10).closeCode()).as("a handler that throws: 1011").isEqualTo(1011);
                }
                assertThat(take(events, 4)).containsExactly("open", "text fail", "error boom",
                        "close 1011 internal error open=false");
            }
        }

        private static List<String> take(LinkedBlockingQueue<String> q, int n) throws InterruptedException {
            List<String> out = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                String s = q.poll(i == n - 1 && n == 4 && out.size() == 3 && out.get(2).startsWith("close") ? 300 : 10_000,
                        TimeUnit.MILLISECONDS);
                out.add(s == null ? "<none>" : s);
            }
            return out;
        }

        @Test
        void sessionsSendToEachOtherAndFromAnyThread() throws Exception {
            Set<WebSocketSession> room = ConcurrentHashMap.newKeySet();
            CountDownLatch two = new CountDownLatch(2);
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.ws("/room", w -> w
                    .onOpen(s -> {
                        room.add(s);
                        two.countDown();
                    })
                    .onText((s, x) -> room.forEach(o -> o.sendText(x)))
                    .onClose((s, c, r) -> room.remove(s))))) {
                try (JdkWsClient a = JdkWsClient.connect(ws(t, "/room")); JdkWsClient b = JdkWsClient.connect(ws(t, "/room"))) {
                    assertThat(two.await(10, TimeUnit.SECONDS)).isTrue();
                    a.socket.sendText("from a", true);
                    assertThat(b.nextText()).as("a's message relayed to b, whose thread may be waiting in a read")
                            .isEqualTo("from a");
                    assertThat(a.nextText()).isEqualTo("from a");
                    // a thread of the app's own, outside any handler
                    Thread pusher = Thread.ofPlatform().start(() -> room.forEach(s -> s.sendText("pushed").join()));
                    pusher.join(10_000);
                    assertThat(a.nextText()).isEqualTo("pushed");
                    assertThat(b.nextText()).isEqualTo("pushed");
                    CompletableFuture<Void> sent = room.iterator().next().sendBinary(new byte[] {1, 2, 3});
                    sent.get(10, TimeUnit.SECONDS); // completes once the socket took it
                }
            }
        }

        @Test
        void aReceiverTooSlowForItsOutboundLimitIsClosedWith1008AndCounted() throws Exception {
            AtomicReference<String> closedWith = new AtomicReference<>();
            CountDownLatch closed = new CountDownLatch(1);
            CountDownLatch refused = new CountDownLatch(1);
            byte[] chunk = new byte[16 * 1024];
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                // a blocking engine's write to a full socket holds the connection until the write timeout
                cfg.options().wsOutboundLimit(128 * 1024).wsCloseTimeout(Duration.ofMillis(500)).writeTimeout(Duration.ofSeconds(1));
                cfg.ws("/flood", w -> w
                        .onOpen(s -> Thread.ofVirtual().start(() -> {
                            for (int i = 0; i < 10_000; i++) {
                                CompletableFuture<Void> f = s.sendBinary(chunk);
                                if (f.isCompletedExceptionally()) {
                                    refused.countDown();
                                    return;
                                }
                            }
                        }))
                        .onClose((s, code, reason) -> {
                            closedWith.set(code + " " + reason);
                            closed.countDown();
                        }));
            })) {
                try (RawWs c = RawWs.open(t.port(), "/flood")) {
                    c.socket.setReceiveBufferSize(8 * 1024);
                    assertThat(refused.await(10, TimeUnit.SECONDS)).as("a send refused past the limit").isTrue();
                    assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(closedWith.get()).startsWith("1008 outbound limit exceeded");
                    assertThat(t.app().metrics().webSocketSlowReceiversClosed()).isEqualTo(1);
                }
                // the queued frames it was refused for are dropped, their bytes given back to ws-memory
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (t.app().metrics().webSocketBufferedBytes() != 0 && System.nanoTime() < deadline) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
                assertThat(t.app().metrics().webSocketBufferedBytes()).isZero();
            }
        }

        /**
         * The peer's close crossing the server's: a handler run by the peer's last message sends, then closes,
         * while the peer's close is already in the same read. What the handler sent and the server's close
         * still go out before the connection ends.
         */
        @Test
        void closesThatCrossLoseNothingTheServerSent() throws Exception {
            java.util.concurrent.BlockingQueue<String> closes = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.ws("/quit", w -> w
                    .onText((s, text) -> {
                        s.sendText("bye");
                        s.close(1000, "done");
                    })
                    .onClose((s, code, reason) -> closes.add(code + " " + reason))).dispatch(Dispatch.EVENT_LOOP));
                 RawWs c = RawWs.open(t.port(), "/quit")) {
                assertThat(c.status()).isEqualTo(101);
                byte[] text = c.frame(true, 0, 1, "quit".getBytes(StandardCharsets.UTF_8), true);
                byte[] close = c.frame(true, 0, 8, new byte[] {0x03, (byte) 0xe8}, true); // 1000
                byte[] both = java.util.Arrays.copyOf(text, text.length + close.length);
                System.arraycopy(close, 0, both, text.length, close.length);
                c.raw(both); // one write: the server reads both at once
                assertThat(c.readData().text()).isEqualTo("bye");
                assertThat(c.readClose().closeCode()).isEqualTo(1000);
                c.socket.shutdownOutput(); // the peer's end: the lingering server closes
                assertThat(closes.poll(10, TimeUnit.SECONDS)).isEqualTo("1000 done");
            }
        }

        /**
         * A close the server begins that the peer never answers ends, at {@code ws-close-timeout}, without a
         * closing handshake: {@code onClose} says 1006, not the server's own code. One the peer answers ends
         * with the server's code.
         */
        @Test
        void aServerCloseThePeerNeverAnswersEndsWith1006() throws Exception {
            java.util.concurrent.BlockingQueue<String> closes = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().wsCloseTimeout(Duration.ofMillis(500));
                cfg.ws("/bye", w -> w
                        .onOpen(s -> s.close(1000, "bye"))
                        .onClose((s, code, reason) -> closes.add(code + " " + reason)));
            })) {
                try (RawWs silent = RawWs.open(t.port(), "/bye")) {
                    assertThat(silent.status()).isEqualTo(101);
                    assertThat(silent.readClose().closeCode()).isEqualTo(1000); // and never answered
                    String closedWith = closes.poll(10, TimeUnit.SECONDS);
                    assertThat(closedWith).as("onClose").startsWith("1006 ");
                }
                try (RawWs polite = RawWs.open(t.port(), "/bye")) {
                    RawWs.Frame close = polite.readClose();
                    assertThat(close.closeCode()).isEqualTo(1000);
                    polite.send(true, 0, 8, close.payload()); // echoes the close: the handshake is done
                    assertThat(closes.poll(10, TimeUnit.SECONDS)).isEqualTo("1000 bye");
                }
            }
        }

        /**
         * A peer that sends and never reads, to an echo: on the blocking engine the echo's write blocks in
         * the handler and the minimum response rate ends it before the outbound limit can; that too is a
         * receiver too slow — 1008 and counted — not a peer that left (1006, uncounted, as it was).
         */
        @Test
        void aPeerThatNeverReadsItsEchoesIsASlowReceiverOnEveryEngine() throws Exception {
            String closedWith = echoToAPeerThatDoesNotRead(o -> o.minResponseRate(8 * 1024), (t, code) -> { });
            assertThat(closedWith).startsWith("1008 outbound limit exceeded");
        }

        /**
         * A peer that reads its echoes below {@code min-response-rate}, well within the outbound limit: on
         * every engine a receiver too slow (1008, counted), also where a selector loop's scan finds it (it
         * closed the connection there with 1006, uncounted as a WebSocket receiver).
         */
        @Test
        void aPeerBelowTheMinimumResponseRateIsASlowReceiverOnEveryEngine() throws Exception {
            String closedWith = echoToAPeerThatDoesNotRead(o -> o.minResponseRate(64 * 1024).wsOutboundLimit(64L << 20),
                    (t, code) -> assertThat(t.app().metrics().slowResponses()).isEqualTo(1));
            assertThat(closedWith).startsWith("1008");
        }

        /**
         * Sends 12 × 900 KB to an echo on a socket with an 8 KiB receive buffer, reading nothing back, until
         * the server closes; asserts one slow receiver counted, runs {@code more}; returns the session's
         * close code and reason as its {@code onClose} saw them.
         */
        private String echoToAPeerThatDoesNotRead(java.util.function.Consumer<dev.brisk.ServerOptions.Builder> options,
                java.util.function.BiConsumer<BriskTestServer, String> more) throws Exception {
            AtomicReference<String> closedWith = new AtomicReference<>();
            CountDownLatch closed = new CountDownLatch(1);
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().rateGrace(Duration.ofSeconds(1)).rateWindow(Duration.ofSeconds(1))
                        .writeTimeout(Duration.ofSeconds(30)).wsCloseTimeout(Duration.ofMillis(500));
                options.accept(cfg.options());
                cfg.ws("/echo", w -> w
                        .onBinary((s, data) -> s.sendBinary(data))
                        .onClose((s, code, reason) -> {
                            closedWith.set(code + " " + reason);
                            closed.countDown();
                        }));
            }); RawWs c = RawWs.open(t.port(), "/echo")) {
                c.socket.setReceiveBufferSize(8 * 1024);
                byte[] big = new byte[900_000];
                Thread sender = Thread.ofVirtual().start(() -> {
                    try {
                        for (int i = 0; i < 12 && closed.getCount() > 0; i++) {
                            c.send(true, 0, 2, big); // reads nothing back
                        }
                    } catch (java.io.IOException ended) {
                        // the server closed: what this test waits for
                    }
                });
                assertThat(closed.await(20, TimeUnit.SECONDS)).as("closed").isTrue();
                assertThat(t.app().metrics().webSocketSlowReceiversClosed()).isEqualTo(1);
                more.accept(t, closedWith.get());
                sender.join(Duration.ofSeconds(10));
                return closedWith.get();
            }
        }

        /**
         * A peer that reads nothing at all, sent 16 MiB (well within the outbound limit): the write makes no
         * progress for {@code write-timeout}, and on every engine the session ends as a receiver too slow —
         * 1008, counted — as the blocking engine's timed-out write always said; the selector loops said 1006.
         */
        @Test
        void aWriteThatTimesOutEndsTheSessionAsASlowReceiverOnEveryEngine() throws Exception {
            java.util.concurrent.BlockingQueue<String> closes = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().wsOutboundLimit(64L << 20).minResponseRate(0).writeTimeout(Duration.ofSeconds(1));
                cfg.ws("/stuck", w -> w
                        .onOpen(s -> s.sendBinary(new byte[16 << 20]))
                        .onClose((s, code, reason) -> closes.add(code + " " + reason)));
            }); RawWs c = RawWs.open(t.port(), "/stuck")) {
                c.socket.setReceiveBufferSize(8 * 1024);
                assertThat(c.status()).isEqualTo(101);
                assertThat(closes.poll(20, TimeUnit.SECONDS)).as("onClose").startsWith("1008 outbound limit exceeded");
                assertThat(t.app().metrics().webSocketSlowReceiversClosed()).isEqualTo(1);
            }
        }

        /**
         * The peer resets the connection while {@code onOpen} writes to it: on the blocking engine (and
         * wherever the write fails inside the handler) the session ends within {@code onOpen}, and its
         * {@code onClose} ran nested in it, before {@code onOpen} returned. Handlers never overlap: it runs after.
         */
        @Test
        void onCloseRunsAfterTheHandlerWhoseSendEndedTheSessionNotInsideIt() throws Exception {
            java.util.concurrent.BlockingQueue<String> events = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().minResponseRate(0).writeTimeout(Duration.ofSeconds(30)).wsOutboundLimit(64L << 20);
                cfg.ws("/reset", w -> w
                        .onOpen(s -> {
                            events.add("open");
                            try {
                                s.sendBinary(new byte[16 << 20]).join();
                            } catch (RuntimeException e) {
                                // the reset (blocking engine), or a loop's refusal to wait on its own thread
                            }
                            events.add("open returns");
                        })
                        .onClose((s, code, reason) -> events.add("close " + code))).dispatch(Dispatch.EVENT_LOOP);
            }); RawWs c = RawWs.open(t.port(), "/reset")) {
                assertThat(c.status()).isEqualTo(101);
                assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("open");
                c.socket.setSoLinger(true, 0); // a reset, not a FIN
                c.close();
                List<String> seen = new java.util.ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    String e = events.poll(10, TimeUnit.SECONDS);
                    assertThat(e).as("event " + i + " after " + seen).isNotNull();
                    seen.add(e);
                }
                assertThat(seen).containsExactly("open returns", "close 1006");
            }
        }

        /**
         * The peer sends every 100 ms but reads nothing for longer than the idle timeout, so the server's
         * answer (16 MiB) waits in its write all that time; on the blocking engine that write is the
         * connection's thread, which reads nothing meanwhile. Once the peer reads, the session goes on: the
         * time the server could not listen is not the peer's silence.
         */
        @Test
        void aPeerThatSendsWhileALongWriteBlocksIsNotIdle() throws Exception {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().wsIdleTimeout(Duration.ofMillis(600)).wsPingInterval(Duration.ZERO)
                        .wsOutboundLimit(64L << 20).minResponseRate(0).writeTimeout(Duration.ofSeconds(30));
                cfg.ws("/big", w -> w.onText((s, x) -> {
                    if (x.equals("go")) {
                        s.sendBinary(new byte[16 << 20]);
                    } else if (!x.equals("tick")) {
                        s.sendText(x);
                    }
                }));
            }); RawWs c = RawWs.open(t.port(), "/big")) {
                c.text("go"); // 16 MiB: more than the socket buffers hold (4 MiB each at most here) while not read
                long readFrom = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
                while (System.nanoTime() - readFrom < 0) {
                    c.text("tick"); // active, but not reading
                    Thread.sleep(100); // the peer's pace, not a wait for a condition
                }
                RawWs.Frame big = c.readData();
                assertThat(big.opcode()).isEqualTo(2);
                assertThat(big.payload()).hasSize(16 << 20);
                c.text("still here");
                RawWs.Frame answer = c.read();
                assertThat(answer.opcode()).as("an answer, not a close for idleness").isEqualTo(1);
                assertThat(answer.text()).isEqualTo("still here");
                assertThat(t.app().metrics().webSocketIdleClosed()).isZero();
            }
        }

        /**
         * A handler on the thread that writes its session (every handler on the blocking engine; an
         * event-loop route on the loops) waits for its own sends. Small ones return (on io_uring, whose send
         * in flight takes nothing more, a wait on the loop rarely can: not asserted there). A 16 MiB
         * one the peer does not read yet returns once it reads, on the blocking engine; on a loop the wait
         * cannot let the loop write, so it fails the handler (its {@code onError}, then {@code 1011}) instead
         * of stopping the loop, and the message still goes out whole before the close.
         */
        @Test
        void aHandlerOnTheThreadThatWritesItsSessionMayWaitForItsSends() throws Exception {
            java.util.concurrent.BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().wsOutboundLimit(64L << 20).minResponseRate(0).writeTimeout(Duration.ofSeconds(30));
                cfg.ws("/wait", w -> w
                        .onText((s, x) -> {
                            if (x.equals("small")) {
                                s.sendText("one").join();
                                s.sendText("two").join();
                                // a send made by a completion during the wait is written by the wait too
                                s.sendText("three").thenCompose(v -> s.sendText("four")).join();
                            } else {
                                s.sendBinary(new byte[16 << 20]).join();
                            }
                            s.sendText("after " + x);
                        })
                        .onError((s, e) -> errors.add(e))).dispatch(Dispatch.EVENT_LOOP);
            }); RawWs c = RawWs.open(t.port(), "/wait")) {
                if (engine != Engine.URING) {
                    // io_uring takes nothing more while a send is in flight: a wait on its loop fails even for these
                    c.text("small");
                    assertThat(c.readData().text()).isEqualTo("one");
                    assertThat(c.readData().text()).isEqualTo("two");
                    assertThat(c.readData().text()).isEqualTo("three");
                    assertThat(c.readData().text()).isEqualTo("four");
                    assertThat(c.readData().text()).isEqualTo("after small");
                }
                c.text("big"); // more than the socket buffers hold (4 MiB each at most here) while not read
                boolean blocking = engine == Engine.BLOCKING_VIRTUAL || engine == Engine.BLOCKING_PLATFORM;
                if (!blocking) {
                    assertThat(errors.poll(10, TimeUnit.SECONDS)).as("the wait on the loop fails")
                            .isInstanceOf(IllegalStateException.class).hasMessageContaining("would stop the loop");
                }
                assertThat(c.readData().payload()).hasSize(16 << 20);
                if (blocking) {
                    assertThat(c.readData().text()).isEqualTo("after big");
                    assertThat(errors).isEmpty();
                } else {
                    assertThat(c.readClose().closeCode()).isEqualTo(1011);
                }
            }
        }

        /**
         * Each message sent when the one before is written ({@code thenRun}), 20,000 times: each future
         * completes inside the write of the one before, and the next send wrote at once, nested — 20,000
         * writes deep on one stack (a StackOverflowError on the loop). Writes nest a few deep at most now.
         */
        @Test
        void sendsChainedOnEachOthersFuturesDoNotNestWithoutBound() throws Exception {
            int n = 20_000;
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.ws("/chain", w -> w
                    .onOpen(s -> chain(s, 0, n))).dispatch(Dispatch.EVENT_LOOP));
                 RawWs c = RawWs.open(t.port(), "/chain")) {
                for (int i = 0; i < n; i++) {
                    String got;
                    try {
                        got = c.readData().text();
                    } catch (java.io.IOException e) {
                        throw new AssertionError("message " + i + " of " + n + " did not come", e);
                    }
                    assertThat(got).isEqualTo(Integer.toString(i));
                }
            }
        }

        private static void chain(WebSocketSession s, int i, int n) {
            if (i < n) {
                s.sendText(Integer.toString(i)).thenRun(() -> chain(s, i + 1, n));
            }
        }

        /**
         * An inline handler (blocking engine, event-loop route) sends two 600 KiB messages to a peer that
         * reads them: together more than the 1 MiB {@code ws-outbound-limit}, each less. Held until the
         * handler returns, the second was refused and the session closed with 1008 though nothing was slow;
         * from 64 KiB a held send is written at once. (On a loop the socket takes only what it can while
         * a handler sends, so there the limit applies, as to a sender on any thread that does not wait.)
         */
        @Test
        void largeSendsFromAnInlineHandlerAreNotHeldAgainstTheOutboundLimit() throws Exception {
            org.junit.jupiter.api.Assumptions.assumeTrue(engine == Engine.BLOCKING_VIRTUAL || engine == Engine.BLOCKING_PLATFORM,
                    "on a loop a handler that sends faster than the socket takes meets the outbound limit, as it should");
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.ws("/two", w -> w
                    .onText((s, x) -> {
                        s.sendBinary(new byte[600 * 1024]);
                        s.sendBinary(new byte[600 * 1024]);
                        s.sendText("done");
                    })));
                 RawWs c = RawWs.open(t.port(), "/two")) {
                c.text("go");
                assertThat(c.readData().payload()).hasSize(600 * 1024);
                assertThat(c.readData().payload()).hasSize(600 * 1024);
                assertThat(c.readData().text()).isEqualTo("done");
                assertThat(t.app().metrics().webSocketSlowReceiversClosed()).isZero();
            }
        }

        @Test
        void aSilentPeerIsPingedAndThenClosedWhileOneThatAnswersStays() throws Exception {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().wsPingInterval(Duration.ofMillis(200)).wsIdleTimeout(Duration.ofMillis(1500))
                        .wsCloseTimeout(Duration.ofMillis(500));
                cfg.ws("/idle", w -> w.onText((s, x) -> s.sendText(x)));
            })) {
                try (RawWs silent = RawWs.open(t.port(), "/idle"); RawWs alive = RawWs.open(t.port(), "/idle")) {
                    long start = System.nanoTime();
                    RawWs.Frame ping = silent.read();
                    assertThat(ping.opcode()).as("a ping after the ping interval").isEqualTo(9);
                    // the live one answers its pings for a while
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2500);
                    int pongs = 0;
                    while (System.nanoTime() < until) {
                        RawWs.Frame f = alive.read();
                        assertThat(f.opcode()).as("only pings come to a peer that answers").isEqualTo(9);
                        alive.send(true, 0, 10, f.payload());
                        pongs++;
                    }
                    assertThat(pongs).isGreaterThanOrEqualTo(3);
                    RawWs.Frame close = silent.readClose();
                    assertThat(close.closeCode()).isEqualTo(1001);
                    assertThat(close.closeReason()).isEqualTo("idle timeout");
                    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
                    alive.text("still here");
                    assertThat(alive.readData().text()).isEqualTo("still here");
                    assertThat(t.app().metrics().webSocketIdleClosed()).isEqualTo(1);
                }
            }
        }

        @Test
        void aShutdownClosesSessionsWith1001() throws Exception {
            List<Integer> codes = new CopyOnWriteArrayList<>();
            BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().shutdownTimeout(Duration.ofSeconds(20));
                cfg.ws("/s", w -> w.onText((s, x) -> s.sendText(x)).onClose((s, c, r) -> codes.add(c)));
            });
            JdkWsClient c = JdkWsClient.connect(ws(t, "/s"));
            c.socket.sendText("x", true);
            assertThat(c.nextText()).isEqualTo("x");
            long start = System.nanoTime();
            Thread closer = Thread.ofPlatform().start(t::close);
            JdkWsClient.Event e = c.next(10);
            assertThat(e.closeCode()).isEqualTo(1001);
            c.socket.sendClose(1001, ""); // the client answers, and the server is done with it
            closer.join(20_000);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("no wait for the shutdown timeout")
                    .isLessThan(Duration.ofSeconds(10));
            // the close handler runs on a handler thread of its own, which close() does not wait for
            assertThat(Within.within(5_000, () -> !codes.isEmpty())).as("onClose ran").isTrue();
            assertThat(codes).containsExactly(1001);
        }

        @Test
        void aSessionCutAtTheShutdownTimeoutStillHearsItsClose() throws Exception {
            List<Integer> codes = new CopyOnWriteArrayList<>();
            BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().shutdownTimeout(Duration.ofMillis(300));
                cfg.ws("/s", w -> w.onText((s, x) -> s.sendText(x)).onClose((s, c, r) -> codes.add(c)));
            });
            try (RawWs c = RawWs.open(t.port(), "/s")) {
                c.text("x");
                assertThat(c.readData().text()).isEqualTo("x");
                // the client never answers the server's 1001: the shutdown timeout ends the connection, at
                // the loops' end, and the session's close handler must still run
                t.close();
                assertThat(Within.within(5_000, () -> !codes.isEmpty())).as("onClose ran").isTrue();
                assertThat(codes).hasSize(1);
            }
        }

        @Test
        void withContextTakeoverTheServerKeepsItsWindowAcrossMessages() throws Exception {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().wsCompressionContextTakeover(true);
                cfg.ws("/z", w -> w.onText((s, x) -> s.sendText(x)));
            })) {
                try (RawWs c = RawWs.open(t.port(), "/z", "Sec-WebSocket-Extensions: permessage-deflate\r\n")) {
                    assertThat(c.header("Sec-WebSocket-Extensions")).isEqualTo("permessage-deflate");
                    String text = "the same sentence, again and again; ".repeat(8);
                    for (int i = 0; i < 3; i++) {
                        c.text(text);
                        RawWs.Frame f = c.readData(); // inflated with one window kept across messages, as the server's
                        assertThat(f.text()).isEqualTo(text);
                        assertThat(f.rsv1()).isTrue();
                    }
                    // the window is kept: a repeat of the last message is a back-reference of a few bytes
                    c.text(text);
                    RawWs.Frame raw = c.read();
                    assertThat(raw.rsv1()).isTrue();
                    assertThat(raw.payload().length).as("a repeated message refers back to the last one").isBetween(1, 19);
                }
            }
        }

        @Test
        void sendsOnAClosedSessionFailAndTheFutureSaysSo() throws Exception {
            AtomicReference<WebSocketSession> held = new AtomicReference<>();
            CountDownLatch closed = new CountDownLatch(1);
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.ws("/c", w -> w
                    .onOpen(held::set)
                    .onClose((s, c, r) -> closed.countDown())))) {
                try (JdkWsClient c = JdkWsClient.connect(ws(t, "/c"))) {
                    c.socket.sendText("no text handler: 1003", true);
                    assertThat(c.next(10).closeCode()).isEqualTo(1003);
                }
                assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(held.get().isOpen()).isFalse();
                CompletableFuture<Void> f = held.get().sendText("late");
                assertThat(f).isCompletedExceptionally();
                try {
                    f.get();
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).hasMessageContaining("closed");
                }
            }
        }
    }
}
