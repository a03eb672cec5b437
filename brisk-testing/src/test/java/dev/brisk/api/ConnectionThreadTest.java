package dev.brisk.api;

import static dev.brisk.testing.Within.within;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * With virtual-thread dispatch on the loop engines, a connection's handlers run on one virtual thread,
 * kept from one request to the next while the connection is busy (no thread started per request): the
 * thread carries nothing from one request to the next that the contract forbids (an interrupt), survives
 * a handler's failure, is never shared by two connections, and ends when its connection goes idle,
 * closes, or the server stops, so no parked thread outlives what it served.
 */
class ConnectionThreadTest {
    private static final String WHO = "GET /who HTTP/1.1\r\nHost: x\r\n\r\n";

    /** Threads by id, as the handlers saw them. */
    private final Map<String, Thread> threads = new ConcurrentHashMap<>();

    private BriskTestServer start(Engine engine) {
        return BriskTestServer.start(engine, cfg -> {
            cfg.dispatch(Dispatch.VIRTUAL_THREADS);
            cfg.get("/who", ctx -> {
                Thread me = Thread.currentThread();
                threads.put(String.valueOf(me.threadId()), me);
                ctx.text(me.threadId() + " " + me.isVirtual() + " " + me.isInterrupted());
            });
            cfg.get("/interrupt", ctx -> {
                Thread.currentThread().interrupt(); // left behind on purpose
                ctx.text("interrupted");
            });
            cfg.get("/fail", ctx -> {
                throw new IllegalStateException("the handler failed");
            });
        });
    }

    private static String id(RawConnection.Response r) {
        return r.body().split(" ")[0];
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void pipelinedRequestsRunOnTheConnectionsOneThread(Engine engine) {
        try (BriskTestServer t = start(engine); RawConnection c = t.raw()) {
            c.send(WHO + WHO + WHO + WHO);
            List<RawConnection.Response> rs = c.read(4);
            assertThat(rs).allSatisfy(r -> assertThat(r.body()).endsWith(" true false"));
            assertThat(rs.stream().map(ConnectionThreadTest::id).distinct()).hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void anInterruptLeftByAHandlerIsNotTheNextRequests(Engine engine) {
        try (BriskTestServer t = start(engine); RawConnection c = t.raw()) {
            c.send("GET /interrupt HTTP/1.1\r\nHost: x\r\n\r\n" + WHO + WHO);
            List<RawConnection.Response> rs = c.read(3);
            assertThat(rs.get(0).body()).isEqualTo("interrupted");
            assertThat(rs.get(1).body()).endsWith(" true false");
            assertThat(rs.get(2).body()).endsWith(" true false");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void aFailedHandlerLeavesTheConnectionServed(Engine engine) {
        try (BriskTestServer t = start(engine); RawConnection c = t.raw()) {
            c.send("GET /fail HTTP/1.1\r\nHost: x\r\n\r\n" + WHO + "GET /fail HTTP/1.1\r\nHost: x\r\n\r\n" + WHO);
            List<RawConnection.Response> rs = c.read(4);
            assertThat(rs).extracting(RawConnection.Response::status).containsExactly(500, 200, 500, 200);
            assertThat(id(rs.get(1))).isEqualTo(id(rs.get(3)));
        }
    }

    /** Two connections' handlers run at once, each on its own thread: one waits for the other's. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void twoConnectionsNeverShareAThread(Engine engine) throws Exception {
        CountDownLatch secondRan = new CountDownLatch(1);
        AtomicReference<Thread> waiter = new AtomicReference<>();
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.dispatch(Dispatch.VIRTUAL_THREADS);
            cfg.get("/wait", ctx -> {
                waiter.set(Thread.currentThread());
                ctx.text(String.valueOf(secondRan.await(5, TimeUnit.SECONDS)));
            });
            cfg.get("/go", ctx -> {
                secondRan.countDown();
                ctx.text(String.valueOf(Thread.currentThread() == waiter.get()));
            });
        }); RawConnection a = t.raw(); RawConnection b = t.raw()) {
            a.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(within(3_000, () -> waiter.get() != null)).isTrue();
            b.send("GET /go HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(b.read().body()).isEqualTo("false");
            assertThat(a.read().body()).isEqualTo("true");
        }
    }

    /**
     * A connection that sends a request every 20 ms is found waiting for its next one at nearly every
     * 100 ms scan (another connection's requests keep the loop turning meanwhile, so a scan may come at
     * any moment), yet it is busy: it keeps its thread across the scans (a scan lets the thread go only
     * when no request came since the scan before).
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void aConnectionBusyBetweenScansKeepsItsThread(Engine engine) throws Exception {
        try (BriskTestServer t = start(engine); RawConnection c = t.raw()) {
            long end = System.nanoTime() + 600_000_000L; // six scans
            List<Thread> load = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) { // three, so that one at least shares c's loop whatever the loops' count
                RawConnection other = t.raw();
                load.add(Thread.ofPlatform().start(() -> {
                    try (other) {
                        while (System.nanoTime() < end) {
                            other.send(WHO);
                            other.read();
                        }
                    }
                }));
            }
            List<String> ids = new java.util.ArrayList<>();
            while (System.nanoTime() < end) {
                c.send(WHO);
                ids.add(id(c.read()));
                Thread.sleep(20); // the pace under test: waiting between requests, never idle for a scan period
            }
            for (Thread l : load) {
                l.join(5_000);
            }
            assertThat(ids.size()).isGreaterThan(10);
            // one thread for the busy connection (a second only if this thread stalled for a whole scan
            // period; the rule it checks replaced the thread every scan: 5-7 here)
            assertThat(ids.stream().distinct().count()).as("threads for the busy connection").isLessThanOrEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void theThreadEndsWhenItsConnectionIsIdleOrCloses(Engine engine) throws Exception {
        try (BriskTestServer t = start(engine)) {
            Thread idle;
            try (RawConnection c = t.raw()) {
                c.send(WHO);
                idle = threads.get(id(c.read()));
                // two of the loops' 100 ms scans find the connection waiting, with no request between: it lets go
                assertThat(within(3_000, () -> !idle.isAlive())).as("an idle connection's thread ends").isTrue();
                c.send(WHO);
                Thread next = threads.get(id(c.read()));
                assertThat(next).isNotSameAs(idle);
                c.send(WHO);
                // busy again: kept (unless a scan came in between, then it is another new one)
                assertThat(c.read().status()).isEqualTo(200);
                c.close();
                assertThat(within(3_000, () -> !next.isAlive())).as("a closed connection's thread ends").isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void aStoppingServerEndsTheThreadsItKept(Engine engine) throws Exception {
        BriskTestServer t = start(engine);
        RawConnection c = t.raw();
        try {
            c.send(WHO + WHO);
            List<RawConnection.Response> rs = c.read(2);
            Thread kept = threads.get(id(rs.get(1)));
            long began = System.nanoTime();
            t.close();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began))
                    .as("the stop does not wait for a parked thread").isLessThan(5_000);
            assertThat(within(3_000, () -> !kept.isAlive())).isTrue();
        } finally {
            c.close();
        }
    }

    /** A request after which the connection closes: its thread ends with it, parking for nobody. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void aConnectionsLastRequestLeavesNoThreadBehind(Engine engine) throws Exception {
        try (BriskTestServer t = start(engine); RawConnection c = t.raw()) {
            c.send(WHO + "GET /who HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            List<RawConnection.Response> rs = c.read(2);
            Thread last = threads.get(id(rs.get(1)));
            assertThat(id(rs.get(0))).as("the connection's one thread").isEqualTo(id(rs.get(1)));
            assertThat(within(3_000, () -> !last.isAlive())).isTrue();
        }
    }
}
