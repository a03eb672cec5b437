package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Clients that drip a request head one byte at a time must be cut off at the header read timeout
 * (answered 408, then the server ends its side), while normal clients are served promptly meanwhile.
 */
class SlowlorisTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;

        static final long HEADER_TIMEOUT_MS = 2_000;
        static final int SLOW_CLIENTS = 20;
        static final int SILENT_CLIENTS = 5;

        /** What a dripping client saw. */
        record Outcome(long endedAfterMs, String received) {
        }

        @Test
        void drippingClientsAreCutOffWhileOthersAreServed() {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                    cfg.options().headerReadTimeout(Duration.ofMillis(HEADER_TIMEOUT_MS)).ioThreads(2);
                    cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
                })) {
                    ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
                    ConcurrentLinkedQueue<Outcome> silentOutcomes = new ConcurrentLinkedQueue<>();
                    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                    List<Thread> slow = new ArrayList<>();
                    for (int i = 0; i < SLOW_CLIENTS; i++) {
                        slow.add(Thread.ofVirtual().start(() -> {
                            try {
                                outcomes.add(drip(t.port(), "GET /users/slow HTTP/1.1\r\nHost: x\r\nX-Pad: "
                                        + "a".repeat(200) + "\r\n\r\n"));
                            } catch (Throwable e) {
                                failures.add(e);
                            }
                        }));
                    }
                    for (int i = 0; i < SILENT_CLIENTS; i++) { // connect and never send a byte
                        slow.add(Thread.ofVirtual().start(() -> {
                            try {
                                silentOutcomes.add(drip(t.port(), ""));
                            } catch (Throwable e) {
                                failures.add(e);
                            }
                        }));
                    }
                    // meanwhile a normal client: fresh connections and a keep-alive one, every ~50 ms
                    long until = System.nanoTime() + (HEADER_TIMEOUT_MS + 500) * 1_000_000L;
                    long worst = 0;
                    int served = 0;
                    try (HttpConn keepAlive = HttpConn.open(t.port(), 2_000)) {
                        while (System.nanoTime() - until < 0) {
                            long t0 = System.nanoTime();
                            HttpConn.Resp r = keepAlive.get1("/users/k" + served);
                            assertThat(r.status()).isEqualTo(200);
                            assertThat(r.body()).isEqualTo("k" + served);
                            try (HttpConn fresh = HttpConn.open(t.port(), 2_000)) {
                                HttpConn.Resp f = fresh.get1("/users/f" + served);
                                assertThat(f.status()).isEqualTo(200);
                                assertThat(f.body()).isEqualTo("f" + served);
                            }
                            worst = Math.max(worst, Stress.millisSince(t0));
                            served++;
                            Thread.sleep(50);
                        }
                    }
                    for (Thread th : slow) { // dripping and silent clients
                        assertThat(th.join(Duration.ofSeconds(8))).as("dripping client finished").isTrue();
                    }
                    assertThat(failures).isEmpty();
                    assertThat(served).isGreaterThan(10);
                    assertThat(worst).as("worst latency of the normal client (ms)").isLessThan(500);
                    assertThat(outcomes).hasSize(SLOW_CLIENTS);
                    // each was answered 408 and then the server ended the connection (FIN; the server then
                    // lingers up to 2 s reading what the client still sends before it fully closes)
                    for (Outcome o : outcomes) {
                        assertThat(o.received()).startsWith("HTTP/1.1 408 ");
                        assertThat(o.endedAfterMs()).as("ended after (ms)")
                                .isBetween(HEADER_TIMEOUT_MS - 100, HEADER_TIMEOUT_MS + 1_000);
                    }
                    assertThat(silentOutcomes).hasSize(SILENT_CLIENTS);
                    for (Outcome o : silentOutcomes) {
                        assertThat(o.received()).as("a silent connection is closed without an answer").isEmpty();
                        assertThat(o.endedAfterMs()).as("ended after (ms)")
                                .isBetween(HEADER_TIMEOUT_MS - 100, HEADER_TIMEOUT_MS + 1_000);
                    }
                    Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
                }
            });
        }

        /** The head timer starts again with the first byte of the next request on a kept-alive connection. */
        @Test
        void drippingTheSecondRequestOfAKeptAliveConnection() {
            assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
                try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                    cfg.options().headerReadTimeout(Duration.ofMillis(HEADER_TIMEOUT_MS));
                    cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
                })) {
                    try (HttpConn c = HttpConn.open(t.port(), 5_000)) {
                        assertThat(c.get1("/users/1").body()).isEqualTo("1");
                        Thread.sleep(HEADER_TIMEOUT_MS / 2); // idle time must not count against the head timer
                        long t0 = System.nanoTime();
                        byte[] head = "GET /users/2 HTTP/1.1\r\nHost: x\r\nX-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII);
                        OutputStream out = c.socket().getOutputStream();
                        c.socket().setSoTimeout(1);
                        String got = null;
                        for (int i = 0; i < head.length - 1 && got == null; i++) {
                            out.write(head[i]);
                            out.flush();
                            Thread.sleep(250);
                            try {
                                got = "" + (char) c.socket().getInputStream().read();
                            } catch (SocketTimeoutException e) {
                                // nothing yet
                            }
                        }
                        long after = Stress.millisSince(t0);
                        c.timeout(2_000);
                        assertThat(got).as("the server answered within the drip").isEqualTo("H");
                        assertThat(after).isBetween(HEADER_TIMEOUT_MS - 100, HEADER_TIMEOUT_MS + 1_000);
                    }
                }
            });
        }

        /**
         * Writes {@code head} one byte every 200-500 ms (never the last byte) until the server answers or
         * ends the connection; returns when the server ended it, measured from connect, and what it sent.
         */
        static Outcome drip(int port, String head) throws Exception {
            byte[] bytes = head.getBytes(StandardCharsets.US_ASCII);
            try (Socket s = new Socket()) {
                long t0 = System.nanoTime();
                s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                AtomicBoolean stop = new AtomicBoolean();
                Thread writer = Thread.ofVirtual().start(() -> {
                    try {
                        OutputStream out = s.getOutputStream();
                        for (int i = 0; i < bytes.length - 1 && !stop.get(); i++) {
                            out.write(bytes[i]);
                            out.flush();
                            Thread.sleep(ThreadLocalRandom.current().nextLong(200, 501));
                        }
                    } catch (IOException | InterruptedException e) {
                        // the server is gone, or we are done
                    }
                });
                try {
                    s.setSoTimeout((int) (HEADER_TIMEOUT_MS + 4_000));
                    InputStream in = s.getInputStream();
                    byte[] all = in.readAllBytes(); // until the server ends its side (or the timeout throws)
                    return new Outcome(Stress.millisSince(t0), new String(all, StandardCharsets.ISO_8859_1));
                } finally {
                    stop.set(true);
                    writer.interrupt();
                    writer.join(2_000);
                }
            }
        }
    }
}
