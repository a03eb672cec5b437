package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Brisk;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import dev.brisk.testing.Within;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown as a load balancer sees it: readiness turns 503 {@code shutting_down} first; during
 * {@code shutdown-delay} everything else is still accepted and served; then the drain refuses new
 * connections. Real sockets; {@code close()} runs on a thread of its own.
 */
class ShutdownReadinessTest {
    static final String SHUTTING_DOWN = "{\"status\":\"DOWN\",\"reason\":\"shutting_down\"}";

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void duringTheShutdownDelayReadinessIsDownWhileNewConnectionsAreStillServed() throws Exception {
        BriskTestServer server = BriskTestServer.start(cfg -> {
            cfg.options().shutdownDelay(Duration.ofSeconds(1));
            cfg.health(h -> { });
            cfg.get("/hello", ctx -> ctx.text("hello"));
        });
        Brisk app = server.app();
        int port = server.port();
        Thread closer = Thread.ofPlatform().name("test-closer").unstarted(app::close);
        try (RawConnection kept = server.raw()) {
            kept.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(kept.read().body()).isEqualTo("hello");
            assertThat(HealthTest.get(server, "/ready").status()).isEqualTo(200);

            long t0 = System.nanoTime();
            closer.start();
            for (int i = 0; i < 200 && app.isReady(); i++) {
                Thread.sleep(5);
            }
            assertThat(app.isReady()).isFalse();

            RawConnection.Response ready = HealthTest.get(server, "/ready");
            assertThat(ready.status()).isEqualTo(503);
            assertThat(ready.body()).isEqualTo(SHUTTING_DOWN);
            assertThat(ready.header("Cache-Control")).isEqualTo("no-store");
            assertThat(ready.header("Connection")).as("not draining yet").isNull();
            RawConnection.Response hello = HealthTest.get(server, "/hello");
            assertThat(hello.status()).as("a new connection is still served").isEqualTo(200);
            assertThat(hello.body()).isEqualTo("hello");
            assertThat(hello.header("Connection")).isNull();
            assertThat(HealthTest.get(server, "/health").status()).as("still alive").isEqualTo(200);
            kept.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response again = kept.read();
            assertThat(again.body()).as("an open keep-alive connection too").isEqualTo("hello");
            assertThat(again.header("Connection")).isNull();
            assertThat(app.ready(true).isReady()).as("the app cannot undo the shutdown").isFalse();
            assertThat(closer.isAlive()).as("all of the above happened inside the delay").isTrue();

            closer.join(5_000);
            assertThat(closer.isAlive()).isFalse();
            assertThat(millisSince(t0)).as("close() waited the delay (ms)").isGreaterThanOrEqualTo(950L);
            assertThat(kept.closedWithin(1_000)).as("idle at the drain: closed").isTrue();
            assertThat(Within.refused(port)).as("new connections refused after close").isTrue();
            assertThatThrownBy(server::raw).isInstanceOf(UncheckedIOException.class);
        } finally {
            closer.join(5_000);
            server.close();
        }
    }

    /**
     * Without a delay, readiness is down before the drain begins: a probe whose head was half sent when
     * close() began, and so is still answered during the drain, sees 503 {@code shutting_down}.
     */
    @Test
    void withoutADelayAProbeAnsweredDuringTheDrainSeesShuttingDown() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BriskTestServer server = BriskTestServer.start(cfg -> {
            cfg.health(h -> { });
            cfg.get("/slow", ctx -> {
                entered.countDown();
                release.await(10, TimeUnit.SECONDS);
                ctx.text("done");
            });
        });
        int port = server.port();
        assertThat(server.app().options().shutdownDelay()).isEqualTo(Duration.ZERO);
        Thread closer = Thread.ofPlatform().name("test-closer").unstarted(server.app()::close);
        try (RawConnection busy = server.raw(); RawConnection probe = server.raw()) {
            String probeHead = "GET /ready HTTP/1.1\r\nHo";
            String slow = "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n";
            long readBefore = server.app().metrics().bytesIn();
            probe.send(probeHead);
            busy.send(slow); // keeps the drain going
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            // the probe's first bytes must have been read, or it is an idle connection the drain closes
            long sent = readBefore + probeHead.length() + slow.length();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (server.app().metrics().bytesIn() < sent && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(server.app().metrics().bytesIn()).as("request bytes read by the server").isGreaterThanOrEqualTo(sent);

            closer.start();
            for (int i = 0; i < 400 && !Within.refused(port); i++) {
                Thread.sleep(5);
            }
            assertThat(Within.refused(port)).as("draining: no new connections").isTrue();

            RawConnection.Response r = probe.send("st: x\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.body()).isEqualTo(SHUTTING_DOWN);
            assertThat(r.header("Connection")).isEqualToIgnoringCase("close");

            release.countDown();
            RawConnection.Response done = busy.read();
            assertThat(done.body()).isEqualTo("done");
            closer.join(5_000);
            assertThat(closer.isAlive()).isFalse();
        } finally {
            release.countDown();
            closer.join(5_000);
            server.close();
        }
    }

    @Test
    void shutdownDelayComesFromSystemProperties() {
        String key = "brisk.shutdown-delay";
        String before = System.getProperty(key);
        System.setProperty(key, "1500ms");
        try {
            Brisk app = Brisk.create(cfg -> cfg.health(h -> { }));
            assertThat(app.options().shutdownDelay()).isEqualTo(Duration.ofMillis(1500));
            app.close(); // never started: returns at once, no delay
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }
}
