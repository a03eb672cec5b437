package dev.brisk.sse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.SseEvent;
import dev.brisk.SseSink;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * {@code ctx.sse}: events as they are sent (the JDK client reads each before the next exists), the
 * event format, heartbeats, {@code Last-Event-ID}, the disconnect callback and flag, backpressure and a
 * client that stops reading, an app that closes the stream; on every engine.
 */
class SseTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;

        /** Lines of an event-stream body as the JDK client delivers them, one at a time. */
        private static final class Lines {
            final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
            /** When each line arrived at the client (System.nanoTime), in order. */
            final LinkedBlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();
            long lastArrival;

            Lines(BriskTestServer t, String path, String... headers) {
                HttpRequest.Builder b = t.request(path);
                for (int i = 0; i < headers.length; i += 2) {
                    b.header(headers[i], headers[i + 1]);
                }
                CompletableFuture<HttpResponse<Stream<String>>> f = t.client().sendAsync(b.build(),
                        HttpResponse.BodyHandlers.ofLines());
                Thread.ofVirtual().start(() -> {
                    try {
                        HttpResponse<Stream<String>> r = f.get(10, TimeUnit.SECONDS);
                        lines.add("status " + r.statusCode() + " " + r.headers().firstValue("Content-Type").orElse(""));
                        Iterator<String> it = r.body().iterator();
                        while (it.hasNext()) {
                            String line = it.next();
                            arrivals.add(System.nanoTime());
                            lines.add(line);
                        }
                        lines.add("<end>");
                    } catch (Exception e) {
                        lines.add("<error " + e + ">");
                    }
                });
            }

            String next() throws InterruptedException {
                String l = lines.poll(10, TimeUnit.SECONDS);
                assertThat(l).as("a line within 10 s").isNotNull();
                Long at = arrivals.poll();
                if (at != null) {
                    lastArrival = at;
                }
                return l;
            }
        }

        @Test
        void eventsArriveAsTheyAreSentWithEveryField() throws Exception {
            CountDownLatch firstSeen = new CountDownLatch(1);
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.get("/events", ctx -> ctx.sse(sink -> {
                sink.data("one");
                try {
                    // the second event exists only once the client has read the first: streaming, not buffering
                    if (!firstSeen.await(10, TimeUnit.SECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    return;
                }
                sink.send(SseEvent.of("line 1\nline 2\r\nline 3\rline 4").withEvent("multi").withId("7")
                        .withRetry(Duration.ofMillis(1500)));
                sink.event("tick", "");
                sink.comment("a comment");
                sink.close();
            })))) {
                Lines l = new Lines(t, "/events");
                assertThat(l.next()).isEqualTo("status 200 text/event-stream; charset=utf-8");
                assertThat(l.next()).isEqualTo("data: one");
                assertThat(l.next()).isEmpty();
                firstSeen.countDown();
                assertThat(l.next()).isEqualTo("event: multi");
                assertThat(l.next()).isEqualTo("id: 7");
                assertThat(l.next()).isEqualTo("retry: 1500");
                assertThat(l.next()).isEqualTo("data: line 1");
                assertThat(l.next()).isEqualTo("data: line 2");
                assertThat(l.next()).isEqualTo("data: line 3");
                assertThat(l.next()).isEqualTo("data: line 4");
                assertThat(l.next()).isEmpty();
                assertThat(l.next()).isEqualTo("event: tick");
                assertThat(l.next()).isEqualTo("data: ");
                assertThat(l.next()).isEmpty();
                assertThat(l.next()).isEqualTo(": a comment");
                assertThat(l.next()).as("the app closed the stream: the response ends").isEqualTo("<end>");
            }
        }

        @Test
        void heartbeatsFlowWhileNothingIsSentAndLastEventIdIsKnown() throws Exception {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.get("/hb", ctx -> ctx.sse(sink -> {
                sink.heartbeat(Duration.ofMillis(100));
                sink.data("resumed after " + sink.lastEventId());
            })))) {
                Lines l = new Lines(t, "/hb", "Last-Event-ID", "41");
                l.next();
                assertThat(l.next()).isEqualTo("data: resumed after 41");
                assertThat(l.next()).isEmpty();
                long start = l.lastArrival;
                for (int i = 0; i < 3; i++) {
                    assertThat(l.next()).isEqualTo(":");
                    assertThat(l.next()).isEmpty();
                }
                // as the client saw them arrive: three beats 100 ms apart take 300 ms after the event (less
                // what a loaded machine may have delayed the event itself by), and not seconds
                assertThat(Duration.ofNanos(l.lastArrival - start)).as("three heartbeats of 100 ms")
                        .isBetween(Duration.ofMillis(100), Duration.ofSeconds(5));
            }
        }

        @Test
        void aClientThatLeavesIsNoticedAndSendsFail() throws Exception {
            CountDownLatch closed = new CountDownLatch(1);
            AtomicReference<SseSink> held = new AtomicReference<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.get("/leave", ctx -> ctx.sse(sink -> {
                sink.heartbeat(Duration.ofMillis(200)).onClose(closed::countDown);
                held.set(sink);
                sink.data("hello");
            })))) {
                try (Socket s = new Socket("127.0.0.1", t.port())) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write("GET /leave HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    String got = readUntil(s.getInputStream(), "data: hello\n\n");
                    assertThat(got).contains("Transfer-Encoding: chunked").contains("Cache-Control: no-cache");
                }
                assertThat(closed.await(10, TimeUnit.SECONDS)).as("onClose within 10 s of the client leaving").isTrue();
                assertThat(held.get().isClosed()).isTrue();
                assertThat(held.get().data("too late")).isFalse();
            }
        }

        @Test
        void sendsWaitForASlowReaderWhichTheWriteTimeoutCloses() throws Exception {
            AtomicLong accepted = new AtomicLong();
            CountDownLatch refused = new CountDownLatch(1);
            CountDownLatch closed = new CountDownLatch(1);
            String payload = "x".repeat(64 * 1024);
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().writeTimeout(Duration.ofSeconds(1));
                cfg.get("/flood", ctx -> ctx.sse(sink -> {
                    sink.onClose(closed::countDown);
                    for (int i = 0; i < 10_000; i++) {
                        if (!sink.data(payload)) {
                            refused.countDown();
                            return;
                        }
                        accepted.incrementAndGet();
                    }
                }));
            })) {
                try (Socket s = new Socket("127.0.0.1", t.port())) {
                    s.setReceiveBufferSize(16 * 1024);
                    s.getOutputStream().write("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    // the client reads nothing: sends stop once the socket buffers are full, and the write
                    // timeout then closes the stream
                    assertThat(closed.await(15, TimeUnit.SECONDS)).as("closed by the write timeout").isTrue();
                }
                // onClose runs as the stream ends; the send blocked in it returns false just after
                assertThat(refused.await(10, TimeUnit.SECONDS)).as("a send after the close returns false").isTrue();
                long bytes = accepted.get() * payload.length();
                assertThat(bytes).as("bytes taken while the client read nothing: socket buffers, not the whole flood")
                        .isLessThan(64L << 20);
            }
        }

        @Test
        void anAppThatClosesEndsTheResponseAndTheConnectionGoesOn() throws Exception {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.get("/short", ctx -> ctx.sse(sink -> {
                    sink.data("only");
                    sink.close();
                }));
                cfg.get("/after", ctx -> ctx.text("after"));
            })) {
                try (Socket s = new Socket("127.0.0.1", t.port())) {
                    s.setSoTimeout(10_000);
                    OutputStream out = s.getOutputStream();
                    out.write("GET /short HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    String got = readUntil(s.getInputStream(), "0\r\n\r\n");
                    assertThat(got).contains("data: only\n\n");
                    out.write("GET /after HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    assertThat(readUntil(s.getInputStream(), "after")).startsWith("HTTP/1.1 200");
                }
            }
        }

        @Test
        void aShutdownEndsOpenStreamsInsteadOfWaitingForThem() throws Exception {
            CountDownLatch closed = new CountDownLatch(1);
            BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().shutdownTimeout(Duration.ofSeconds(20));
                cfg.get("/forever", ctx -> ctx.sse(sink -> {
                    sink.onClose(closed::countDown);
                    sink.data("open");
                }));
            });
            Lines l = new Lines(t, "/forever");
            l.next();
            assertThat(l.next()).isEqualTo("data: open");
            assertThat(l.next()).isEmpty();
            long start = System.nanoTime();
            t.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the shutdown did not wait for the stream")
                    .isLessThan(Duration.ofSeconds(10));
            assertThat(l.next()).as("the stream ended cleanly").isEqualTo("<end>");
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        }

        /**
         * As above, for a stream opened by a handler that read a stored multipart part first: the event
         * stream must stay the engine's own (a wrapper that holds the parts until the answer is sent would
         * hide it, and the drain would wait the whole shutdown timeout).
         */
        @Test
        void aShutdownEndsAStreamOpenedAfterReadingAStoredPart() throws Exception {
            CountDownLatch opened = new CountDownLatch(1);
            BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().shutdownTimeout(Duration.ofSeconds(20));
                cfg.post("/forever", ctx -> {
                    byte[] job;
                    try (java.io.InputStream in = ctx.part("job").content()) {
                        job = in.readAllBytes();
                    }
                    ctx.sse(sink -> {
                        sink.data(new String(job, StandardCharsets.UTF_8));
                        opened.countDown();
                    });
                });
            });
            String body = "--b\r\nContent-Disposition: form-data; name=\"job\"\r\n\r\nnightly\r\n--b--\r\n";
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(("POST /forever HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                        + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
                assertThat(opened.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(readUntil(s.getInputStream(), "data: nightly")).startsWith("HTTP/1.1 200");
                long start = System.nanoTime();
                t.close();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the shutdown did not wait for the stream")
                        .isLessThan(Duration.ofSeconds(10));
            } finally {
                t.close();
            }
        }

        /**
         * As above, with {@code Compression} on: the event stream is gzip-encoded (its type is text), and the
         * encoder around it did not pass the shutdown on, so the drain waited the whole shutdown timeout.
         */
        @Test
        void aShutdownEndsACompressedStreamToo() throws Exception {
            CountDownLatch opened = new CountDownLatch(1);
            CountDownLatch closed = new CountDownLatch(1);
            BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().shutdownTimeout(Duration.ofSeconds(20));
                cfg.use(dev.brisk.Compression.defaults());
                cfg.get("/forever", ctx -> ctx.sse(sink -> {
                    sink.onClose(closed::countDown);
                    sink.data("open");
                    opened.countDown();
                }));
            });
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write("GET /forever HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(opened.await(10, TimeUnit.SECONDS)).isTrue();
                String head = readUntil(s.getInputStream(), "\r\n\r\n");
                long start = System.nanoTime();
                t.close();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the shutdown did not wait for the stream")
                        .isLessThan(Duration.ofSeconds(10));
                String all = head + new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(all).startsWith("HTTP/1.1 200").containsIgnoringCase("content-encoding: gzip")
                        .as("the chunked body ended cleanly").endsWith("0\r\n\r\n");
                assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
            } finally {
                t.close();
            }
        }

        /**
         * A send waits until the client took the event, and a loop does that writing: from a loop's own thread
         * (an event-loop route's handler) it could stop the loop, every connection on it, for good, so it is
         * refused ({@code IllegalStateException}: a 500 here) and the stream goes on. On the blocking engine
         * such a handler runs on its connection's own thread, which may wait: the event goes out.
         */
        @Test
        void aSendFromAnIoLoopsThreadIsRefusedInsteadOfStoppingTheLoop() throws Exception {
            AtomicReference<SseSink> stored = new AtomicReference<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.get("/events", ctx -> ctx.sse(sink -> {
                    stored.set(sink);
                    sink.data("open");
                }));
                cfg.get("/poke", ctx -> ctx.text("sent " + stored.get().data("poked"))).dispatch(dev.brisk.Dispatch.EVENT_LOOP);
            })) {
                Lines l = new Lines(t, "/events");
                l.next();
                assertThat(l.next()).isEqualTo("data: open");
                assertThat(l.next()).isEmpty();
                java.net.http.HttpResponse<String> poke = t.get("/poke");
                if (engine == Engine.BLOCKING_VIRTUAL || engine == Engine.BLOCKING_PLATFORM) {
                    assertThat(poke.body()).isEqualTo("sent true");
                    assertThat(l.next()).isEqualTo("data: poked");
                } else {
                    assertThat(poke.statusCode()).as("refused on the loop's thread").isEqualTo(500);
                    assertThat(stored.get().data("later")).as("the stream goes on").isTrue();
                    assertThat(l.next()).isEqualTo("data: later");
                }
                assertThat(l.next()).isEmpty();
            }
        }

        /**
         * A sender interrupted while its event, already handed over, waits for a client that reads slowly:
         * the event still goes out, so the send says true (and the interrupt is kept). It said false, as if
         * the client had gone, and a {@code while (sink.send(...))} loop stopped for a client still there.
         */
        @Test
        void aSenderInterruptedWhileItsEventIsOnItsWayIsToldItWasSent() throws Exception {
            AtomicReference<Thread> sender = new AtomicReference<>();
            LinkedBlockingQueue<String> result = new LinkedBlockingQueue<>();
            String big = "a".repeat(16 << 20); // more than the socket buffers hold while the client does not read
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.get("/big", ctx -> ctx.sse(sink -> {
                sender.set(Thread.currentThread());
                boolean sent = sink.data(big);
                result.add(sent + " " + Thread.currentThread().isInterrupted());
            })));
                 Socket s = new Socket("127.0.0.1", t.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while ((sender.get() == null || sender.get().getState() != Thread.State.WAITING) && System.nanoTime() < deadline) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // polls the condition: the sender waits
                }
                assertThat(sender.get().getState()).isEqualTo(Thread.State.WAITING);
                sender.get().interrupt();
                InputStream in = s.getInputStream();
                byte[] buf = new byte[64 * 1024];
                long read = 0;
                while (read < big.length()) {
                    int n = in.read(buf);
                    assertThat(n).as("the event keeps coming").isPositive();
                    read += n;
                }
                assertThat(result.poll(10, TimeUnit.SECONDS)).isEqualTo("true true");
            }
        }

        /** Reads until {@code end} has arrived (bounded by the socket timeout), returning everything read. */
        static String readUntil(InputStream in, String end) throws Exception {
            StringBuilder b = new StringBuilder();
            byte[] buf = new byte[4096];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (b.indexOf(end) < 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("did not see " + end.replace("\r", "\\r").replace("\n", "\\n") + " in: " + b);
                }
                int n = in.read(buf);
                if (n < 0) {
                    throw new AssertionError("stream ended before " + end + ": " + b);
                }
                b.append(new String(buf, 0, n, StandardCharsets.UTF_8));
            }
            return b.toString();
        }
    }
}
