package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import dev.brisk.testing.Engine;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Start, stop, restart, and graceful shutdown with requests in flight. */
@ParameterizedClass
@EnumSource(Engine.class)
class LifecycleTest {
    @Parameter
    Engine engine;


    Brisk create(int port, Consumer<BriskConfig> more) {
        return Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.configSource(ConfigSource.empty());
            cfg.host("127.0.0.1").port(port);
            cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
            more.accept(cfg);
        });
    }

    @Test
    void startAndStopTwentyTimes() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            Set<Thread> before = Stress.briskThreads();
            long fdsBefore = Stress.openFileDescriptors();
            Consumer<BriskConfig> cfg = c -> c.options().ioThreads(2).dispatch(Dispatch.WORKER_POOL);
            for (int i = 0; i < 20; i++) {
                Brisk app = create(0, cfg).start();
                try (HttpConn c = HttpConn.open(app.port(), 5_000)) {
                    HttpConn.Resp r = c.get1("/users/" + i);
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.body()).isEqualTo(String.valueOf(i));
                } catch (Throwable e) {
                    app.close();
                    throw e;
                }
                long t0 = System.nanoTime();
                app.close();
                assertThat(Stress.millisSince(t0)).as("close() took (ms)").isLessThan(1_500);
                assertThat(app.connectionCount()).isZero();
            }
            // no engine thread and no selector or socket left behind
            Stress.awaitNoNewBriskThreads(before, Duration.ofSeconds(3));
            if (fdsBefore >= 0) {
                assertThat(Stress.await(Duration.ofSeconds(3), () -> Stress.openFileDescriptors() <= fdsBefore + 10))
                        .as("open files: %d before, %d after", fdsBefore, Stress.openFileDescriptors()).isTrue();
            }
        });
    }

    /** Restart on the same fixed port right after close, with the server having closed connections itself. */
    @Test
    void restartOnTheSameFixedPort() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            // the first bind may lose a race for the free port with another process: then try another
            int port = 0;
            Brisk app = null;
            for (int attempt = 0; app == null; attempt++) {
                port = Stress.freePort();
                try {
                    app = create(port, c -> { }).start();
                } catch (UncheckedIOException e) {
                    if (attempt == 2) {
                        throw e;
                    }
                }
            }
            for (int i = 0; i < 5; i++) {
                if (i > 0) {
                    app = create(port, c -> { }).start(); // must bind: the port was just released
                }
                try (HttpConn held = HttpConn.open(port, 5_000)) { // kept alive: the server closes it at close()
                    assertThat(app.port()).isEqualTo(port);
                    assertThat(held.get1("/users/" + i).body()).isEqualTo(String.valueOf(i));
                    try (HttpConn c = HttpConn.open(port, 5_000)) {
                        assertThat(c.get1("/users/x" + i).body()).isEqualTo("x" + i);
                    }
                    app.close();
                    assertThat(held.closedWithin(1_000)).isTrue();
                } finally {
                    app.close();
                }
            }
        });
    }

    @Test
    void aSecondAppCannotTakeABoundPort() {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try (Brisk first = create(0, c -> { }).start()) {
                Brisk second = create(first.port(), c -> { });
                assertThatThrownBy(second::start).isInstanceOf(UncheckedIOException.class);
                second.close(); // harmless
                try (HttpConn c = HttpConn.open(first.port(), 5_000)) {
                    assertThat(c.get1("/users/1").body()).isEqualTo("1");
                }
            }
        });
    }

    @Test
    void closeIsIdempotentAndFinal() {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            create(0, c -> { }).close(); // never started: nothing to do
            Brisk app = create(0, c -> { }).start();
            int port = app.port();
            try (HttpConn c = HttpConn.open(port, 5_000)) {
                assertThat(c.get1("/users/1").body()).isEqualTo("1");
            }
            app.close();
            long t0 = System.nanoTime();
            app.close();
            assertThat(Stress.millisSince(t0)).isLessThan(100);
            app.awaitClose(); // returns at once
            assertThatThrownBy(() -> HttpConn.open(port, 1_000)).hasCauseInstanceOf(ConnectException.class);
            assertThatThrownBy(app::start).isInstanceOf(IllegalStateException.class);
        });
    }

    /**
     * close() while a request is in flight: idle keep-alive connections (and connections that never
     * sent anything) close at once, new connections are refused, the in-flight request still gets its
     * 200 with Connection: close, and so does a request whose head was half sent when close() began;
     * then close() returns.
     */
    @ParameterizedTest
    @EnumSource(names = {"VIRTUAL_THREADS", "WORKER_POOL"})
    void gracefulShutdownFinishesInFlightRequests(Dispatch dispatch) {
        assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
            CountDownLatch entered = new CountDownLatch(1);
            Brisk app = create(0, c -> {
                c.dispatch(dispatch);
                c.options().drainGrace(Duration.ZERO); // closed at once (the grace has tests of its own)
                c.get("/sleep", ctx -> {
                    entered.countDown();
                    Thread.sleep(500);
                    ctx.text("slept");
                });
            }).start();
            int port = app.port();
            try (HttpConn busy = HttpConn.open(port, 5_000); HttpConn idle = HttpConn.open(port, 5_000);
                 HttpConn unused = HttpConn.open(port, 5_000); HttpConn partial = HttpConn.open(port, 5_000)) {
                assertThat(idle.get1("/users/1").body()).isEqualTo("1");
                assertThat(partial.get1("/users/2").body()).isEqualTo("2");
                partial.send("GET /users/3 HTTP/1.1\r\nHo");
                busy.send(HttpConn.get("/sleep"));
                assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
                assertThat(Stress.await(Duration.ofSeconds(2),
                        () -> app.connectionCount() == 4)).isTrue();

                long t0 = System.nanoTime();
                CompletableFuture<Long> closing = CompletableFuture.supplyAsync(() -> {
                    app.close();
                    return Stress.millisSince(t0);
                }, r -> Thread.ofPlatform().start(r));

                assertThat(idle.closedWithin(300)).as("idle keep-alive connection closed at once").isTrue();
                assertThat(unused.closedWithin(300)).as("unused connection closed at once").isTrue();
                assertThat(Stress.millisSince(t0)).isLessThan(400);
                assertThatThrownBy(() -> HttpConn.open(port, 1_000)).as("new connection refused")
                        .hasCauseInstanceOf(ConnectException.class);
                assertThat(closing).as("close() waits for the in-flight request").isNotDone();
                HttpConn.Resp p = partial.send("st: x\r\n\r\n").read();
                assertThat(p.body()).isEqualTo("3");
                assertThat(p.connectionClose()).isTrue();
                assertThat(partial.closedWithin(1_000)).isTrue();

                HttpConn.Resp r = busy.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("slept");
                assertThat(r.connectionClose()).isTrue();
                assertThat(busy.closedWithin(1_000)).isTrue();

                long took = closing.get(3, TimeUnit.SECONDS);
                assertThat(took).as("close() took (ms)").isBetween(300L, 1_500L);
                assertThat(app.connectionCount()).isZero();
            } finally {
                app.close();
            }
        });
    }

    /**
     * close() in the middle of steady traffic from 50 keep-alive clients: it finishes well before the
     * shutdown timeout (nothing gets stuck), and every client sees, for every request, either the full
     * correct response or the connection ending before a response starts; a response with
     * Connection: close is followed by the end of the connection; then connects are refused.
     */
    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void closeUnderLoad(Dispatch dispatch) {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            Set<Thread> threadsBefore = Stress.briskThreads();
            Brisk app = create(0, c -> {
                c.dispatch(dispatch);
                c.options().ioThreads(2).shutdownTimeout(Duration.ofSeconds(5));
            }).start();
            int port = app.port();
            AtomicInteger served = new AtomicInteger();
            AtomicLong closedAt = new AtomicLong();
            Thread closer = Thread.ofPlatform().start(() -> {
                Stress.await(Duration.ofSeconds(5), () -> served.get() >= 2_000);
                long t0 = System.nanoTime();
                app.close();
                closedAt.set(Stress.millisSince(t0));
            });
            try {
                Stress.runClients(50, Duration.ofSeconds(15), c -> {
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    for (int round = 0; System.nanoTime() - until < 0; round++) {
                        HttpConn conn;
                        try {
                            conn = HttpConn.open(port, 3_000);
                        } catch (UncheckedIOException e) {
                            // refused, or reset mid-handshake when the listener closed with this
                            // connection still in its backlog: either way the server is gone
                            assertThat(e.getCause()).isInstanceOf(SocketException.class);
                            return;
                        }
                        try (conn) {
                            for (int k = 0; k < 1_000; k++) {
                                String id = c + "-" + round + "-" + k;
                                try {
                                    conn.send(HttpConn.get("/users/" + id));
                                } catch (UncheckedIOException e) {
                                    break; // closed under us before the request went out
                                }
                                HttpConn.Resp r;
                                try {
                                    r = conn.read();
                                } catch (HttpConn.NoResponseException e) {
                                    break;
                                }
                                assertThat(r.status()).isEqualTo(200);
                                assertThat(r.body()).isEqualTo(id);
                                served.incrementAndGet();
                                if (r.connectionClose()) {
                                    assertThat(conn.closedWithin(1_000)).as("closed after Connection: close").isTrue();
                                    break;
                                }
                            }
                        }
                    }
                    throw new AssertionError("still connecting after 10 s");
                });
                closer.join(10_000);
                assertThat(closedAt.get()).as("close() took (ms)").isBetween(1L, 2_000L);
                assertThat(app.connectionCount()).isZero();
                assertThat(served.get()).isGreaterThanOrEqualTo(2_000);
                Stress.awaitNoNewBriskThreads(threadsBefore, Duration.ofSeconds(3));
            } finally {
                app.close();
            }
        });
    }

    /** A handler that outlives the shutdown timeout is cut off: close() returns soon after the timeout. */
    @ParameterizedTest
    @EnumSource(names = {"VIRTUAL_THREADS", "WORKER_POOL"})
    void shutdownTimeoutBoundsClose(Dispatch dispatch) {
        assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
            CountDownLatch entered = new CountDownLatch(1);
            AtomicInteger interrupted = new AtomicInteger();
            Brisk app = create(0, c -> {
                c.dispatch(dispatch);
                c.options().shutdownTimeout(Duration.ofMillis(300));
                c.get("/sleep", ctx -> {
                    entered.countDown();
                    try {
                        Thread.sleep(5_000);
                        ctx.text("slept");
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                        ctx.status(503).text("interrupted");
                    }
                });
            }).start();
            try (HttpConn busy = HttpConn.open(app.port(), 5_000)) {
                busy.send(HttpConn.get("/sleep"));
                assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
                long t0 = System.nanoTime();
                app.close();
                long took = Stress.millisSince(t0);
                assertThat(took).as("close() took (ms)").isBetween(250L, 1_500L);
                assertThat(app.connectionCount()).isZero();
                assertThat(busy.closedWithin(1_000)).as("the cut-off connection is closed").isTrue();
                // the handler was interrupted rather than left sleeping
                assertThat(Stress.await(Duration.ofSeconds(2), () -> interrupted.get() == 1)).isTrue();
            } finally {
                app.close();
            }
        });
    }

    /**
     * close() is documented as "idempotent; blocks until done", and awaitClose() as "blocks until close
     * has completed": a second close() racing with a graceful shutdown in progress, and awaitClose(),
     * return only once the in-flight request has finished (the shutdown cannot end before that).
     */
    @Test
    void concurrentCloseWaitsForTheShutdownInProgress() {
        assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
            CountDownLatch entered = new CountDownLatch(1);
            AtomicLong handlerDone = new AtomicLong();
            Brisk app = create(0, c -> c.get("/sleep", ctx -> {
                entered.countDown();
                Thread.sleep(800);
                handlerDone.set(System.nanoTime());
                ctx.text("slept");
            })).start();
            try (HttpConn busy = HttpConn.open(app.port(), 5_000)) {
                busy.send(HttpConn.get("/sleep"));
                assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
                AtomicLong firstDone = new AtomicLong();
                Thread first = Thread.ofPlatform().start(() -> {
                    app.close();
                    firstDone.set(System.nanoTime());
                });
                AtomicLong awaited = new AtomicLong();
                Thread waiter = Thread.ofPlatform().start(() -> {
                    try {
                        app.awaitClose();
                        awaited.set(System.nanoTime());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                // the first close() is under way once new connections are refused
                assertThat(Stress.await(Duration.ofSeconds(2), () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", app.port()), 200);
                        return false;
                    } catch (Exception e) {
                        return true;
                    }
                })).isTrue();
                app.close(); // second, concurrent call
                long secondDone = System.nanoTime();
                first.join(5_000);
                waiter.join(5_000);
                assertThat(firstDone.get()).isNotZero();
                assertThat(handlerDone.get()).isNotZero();
                assertThat(secondDone).as("second close() returned before the shutdown finished")
                        .isGreaterThan(handlerDone.get());
                assertThat(awaited.get()).as("awaitClose() returned before the shutdown finished")
                        .isGreaterThan(handlerDone.get());
                assertThat(busy.read().status()).isEqualTo(200);
            } finally {
                app.close();
            }
        });
    }
}
