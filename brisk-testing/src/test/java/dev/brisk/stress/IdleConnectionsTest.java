package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Thousands of idle keep-alive connections cost the server nothing but memory. */
// not on a bounded pool of platform threads: a thread per connection caps the idle ones by design
// (BlockingEngineTest covers what happens at that cap)
@ParameterizedClass
@EnumSource(value = Engine.class, names = {"NIO", "BLOCKING_VIRTUAL"})
class IdleConnectionsTest {
    @Parameter
    Engine engine;

    static final int IDLE = 2_000;

    @Test
    void twoThousandIdleKeepAliveConnections() {
        long limit = Stress.maxFileDescriptors();
        // each connection is two descriptors in this JVM (client and server side)
        Assumptions.assumeTrue(limit < 0 || limit >= 5_000,
                "open-file limit " + limit + " is too low for " + IDLE + " idle connections (needs >= 5000)");
        assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().ioThreads(2);
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id") + ":" + ctx.queryParam("n")));
            })) {
                HttpConn[] idle = new HttpConn[IDLE];
                try {
                    // connect, and one request each, 50 clients opening 40 connections each
                    Stress.runClients(50, Duration.ofSeconds(25), c -> {
                        for (int i = c; i < IDLE; i += 50) {
                            idle[i] = HttpConn.open(t.port(), 5_000);
                            HttpConn.Resp r = idle[i].get1("/users/" + i + "?n=1");
                            assertThat(r.status()).isEqualTo(200);
                            assertThat(r.body()).isEqualTo(i + ":1");
                        }
                    });
                    assertThat(Stress.await(Duration.ofSeconds(5),
                            () -> t.app().connectionCount() == IDLE))
                            .as("all %d held, count %d", IDLE, t.app().connectionCount()).isTrue();

                    // a newcomer is served promptly, and so is an old one
                    for (int round = 0; round < 5; round++) {
                        long t0 = System.nanoTime();
                        try (HttpConn fresh = HttpConn.open(t.port(), 2_000)) {
                            HttpConn.Resp r = fresh.get1("/users/new" + round + "?n=" + round);
                            assertThat(r.status()).isEqualTo(200);
                            assertThat(r.body()).isEqualTo("new" + round + ":" + round);
                        }
                        assertThat(Stress.millisSince(t0)).as("newcomer latency (ms)").isLessThan(500);
                        int old = round * 397 % IDLE;
                        t0 = System.nanoTime();
                        assertThat(idle[old].get1("/users/" + old + "?n=2").body()).isEqualTo(old + ":2");
                        assertThat(Stress.millisSince(t0)).as("old connection latency (ms)").isLessThan(500);
                    }
                } finally {
                    for (HttpConn c : idle) {
                        if (c != null) {
                            c.close();
                        }
                    }
                }
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
            }
        });
    }

    /** Graceful close() with a thousand idle keep-alive connections closes them all at once. */
    @Test
    void closeWithAThousandIdleConnections() {
        int n = 1_000;
        long limit = Stress.maxFileDescriptors();
        Assumptions.assumeTrue(limit < 0 || limit >= 3_000,
                "open-file limit " + limit + " is too low for " + n + " idle connections (needs >= 3000)");
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().ioThreads(2).shutdownTimeout(Duration.ofSeconds(5));
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
            });
            HttpConn[] idle = new HttpConn[n];
            try {
                Stress.runClients(50, Duration.ofSeconds(20), c -> {
                    for (int i = c; i < n; i += 50) {
                        idle[i] = HttpConn.open(t.port(), 5_000);
                        if (i % 2 == 0) { // half have served a request, half never sent one
                            assertThat(idle[i].get1("/users/" + i).body()).isEqualTo(String.valueOf(i));
                        }
                    }
                });
                assertThat(Stress.await(Duration.ofSeconds(5),
                        () -> t.app().connectionCount() == n)).isTrue();
                long t0 = System.nanoTime();
                t.close();
                assertThat(Stress.millisSince(t0)).as("close() took (ms)").isLessThan(1_500);
                assertThat(t.app().connectionCount()).isZero();
                Stress.runClients(50, Duration.ofSeconds(10), c -> {
                    for (int i = c; i < n; i += 50) {
                        assertThat(idle[i].closedWithin(2_000)).as("connection %d closed", i).isTrue();
                    }
                });
            } finally {
                t.close();
                for (HttpConn c : idle) {
                    if (c != null) {
                        c.close();
                    }
                }
            }
        });
    }
}
