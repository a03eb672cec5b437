package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Clients that vanish with a TCP reset (SO_LINGER 0) at every stage of an exchange. Afterwards the
 * server must be healthy: new requests served, no connection left counted, every handler and every
 * response stream finished, and close() prompt.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class ResetTest {
    @Parameter
    Engine engine;

    static final int PER_KIND = 20;
    static final byte[] BIG = new byte[8 * 1024 * 1024];

    static {
        Arrays.fill(BIG, (byte) 'b');
    }

    enum Kind {
        HALF_HEAD, HALF_BODY, HALF_CHUNKED_BODY, SLOW_HANDLER, AFTER_100_CONTINUE, MID_RESPONSE, MID_STREAM
    }

    /** An endless-looking response body that counts how often it was closed. */
    static final class CountingStream extends InputStream {
        static final AtomicInteger closed = new AtomicInteger();
        private long left = 64L * 1024 * 1024;

        @Override
        public int read() {
            return left-- > 0 ? 's' : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            Arrays.fill(b, off, off + n, (byte) 's');
            left -= n;
            return n;
        }

        @Override
        public void close() {
            closed.incrementAndGet();
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void resetsAtEveryStageLeaveTheServerHealthy(Dispatch dispatch) {
        AtomicInteger slowStarted = new AtomicInteger();
        AtomicInteger slowFinished = new AtomicInteger();
        AtomicInteger bodyFailures = new AtomicInteger();
        Set<String> slowIds = ConcurrentHashMap.newKeySet();
        AtomicLong closeMillis = new AtomicLong();
        CountingStream.closed.set(0);
        assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
            Set<Thread> threadsBefore = Stress.briskThreads();
            BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.dispatch(dispatch);
                cfg.options().ioThreads(2).shutdownTimeout(Duration.ofSeconds(5));
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
                cfg.post("/echo", ctx -> {
                    String body;
                    try {
                        body = ctx.bodyAsString();
                    } catch (RuntimeException e) {
                        bodyFailures.incrementAndGet(); // the client went away while we waited for the body
                        ctx.status(400).text("gone");
                        return;
                    }
                    ctx.text(body);
                });
                cfg.get("/slow", ctx -> {
                    slowStarted.incrementAndGet();
                    String id = ctx.queryParam("id");
                    if (id != null) {
                        slowIds.add(id);
                    }
                    try {
                        Thread.sleep(200);
                        ctx.text("slow");
                    } finally {
                        slowFinished.incrementAndGet();
                    }
                }).dispatch(dispatch == Dispatch.EVENT_LOOP ? Dispatch.VIRTUAL_THREADS : dispatch);
                cfg.get("/big", ctx -> ctx.bytes(BIG));
                cfg.get("/stream", ctx -> ctx.stream(new CountingStream()));
            });
            try {
                Kind[] kinds = Kind.values();
                Stress.runClients(kinds.length * PER_KIND, Duration.ofSeconds(25), i -> {
                    Kind kind = kinds[i % kinds.length];
                    HttpConn c = HttpConn.open(t.port(), 5_000);
                    try {
                        switch (kind) {
                            case HALF_HEAD -> c.send("GET /users/" + i + " HTTP/1.1\r\nHost: x\r\nAcc");
                            case HALF_BODY -> c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"
                                    + "h".repeat(500));
                            case HALF_CHUNKED_BODY -> c.send("POST /echo HTTP/1.1\r\nHost: x\r\n"
                                    + "Transfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n20\r\nabc");
                            case SLOW_HANDLER -> {
                                c.send(HttpConn.get("/slow?id=" + i));
                                // reset only once the handler is running (and sleeping)
                                assertThat(Stress.await(Duration.ofSeconds(5), () -> slowIds.contains("" + i)))
                                        .as("slow handler started").isTrue();
                            }
                            case AFTER_100_CONTINUE -> {
                                c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                                        + "Expect: 100-continue\r\n\r\n");
                                assertThat(c.read().status()).isEqualTo(100);
                                c.send("x".repeat(10));
                            }
                            case MID_RESPONSE -> {
                                c.send(HttpConn.get("/big"));
                                c.socket().getInputStream().readNBytes(64 * 1024);
                            }
                            case MID_STREAM -> {
                                c.send(HttpConn.get("/stream"));
                                c.socket().getInputStream().readNBytes(64 * 1024);
                            }
                        }
                        Thread.sleep(5);
                    } finally {
                        c.reset();
                    }
                });

                int streams = PER_KIND;
                assertThat(Stress.await(Duration.ofSeconds(5), () -> CountingStream.closed.get() == streams))
                        .as("every response stream closed: %d of %d", CountingStream.closed.get(), streams).isTrue();
                assertThat(Stress.await(Duration.ofSeconds(5), () -> slowFinished.get() == PER_KIND))
                        .as("every slow handler finished: %d of %d (started %d)", slowFinished.get(), PER_KIND,
                                slowStarted.get()).isTrue();
                assertThat(slowStarted.get()).isEqualTo(PER_KIND);
                assertThat(Stress.await(Duration.ofSeconds(5), () -> bodyFailures.get() == PER_KIND))
                        .as("every 100-continue handler saw its body fail: %d", bodyFailures.get()).isTrue();
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));

                // healthy: every route answers, on fresh and on kept-alive connections
                Stress.runClients(20, Duration.ofSeconds(10), i -> {
                    try (HttpConn c = HttpConn.open(t.port(), 5_000)) {
                        assertThat(c.get1("/users/" + i).body()).isEqualTo(String.valueOf(i));
                        assertThat(c.get1("/slow").body()).isEqualTo("slow");
                        c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
                        assertThat(c.read().body()).isEqualTo("hello");
                        if (i < 2) {
                            assertThat(c.get1("/big").body()).hasSize(BIG.length);
                        }
                        assertThat(c.get1("/users/again" + i).body()).isEqualTo("again" + i);
                    }
                });
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
            } finally {
                long t0 = System.nanoTime();
                t.close();
                closeMillis.set(Stress.millisSince(t0));
            }
            // prompt: nothing left for the graceful shutdown to wait for
            assertThat(closeMillis.get()).as("close() took (ms)").isLessThan(1_500);
            Stress.awaitNoNewBriskThreads(threadsBefore, Duration.ofSeconds(3));
        });
    }
}
