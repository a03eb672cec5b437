package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import dev.brisk.HttpException;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cfg.health(...)} over real sockets: liveness, readiness with and without checks, the app's
 * own readiness flag, and probes that still answer when the in-flight limit is full. Every probe
 * opens a new connection, as a load balancer's usually does.
 */
class HealthTest {
    static final String UP = "{\"status\":\"UP\"}";

    static RawConnection.Response get(BriskTestServer server, String path) {
        try (RawConnection c = server.raw()) {
            c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
            return c.read();
        }
    }

    static RawConnection.Response head(BriskTestServer server, String path) {
        try (RawConnection c = server.raw()) {
            c.send("HEAD " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
            return c.read(true);
        }
    }

    @Test
    void livenessAndReadinessAnswerUpOnTheirDefaultPaths() {
        try (BriskTestServer server = BriskTestServer.start(cfg -> cfg.health(h -> { }))) {
            for (String path : new String[] {"/health", "/ready"}) {
                RawConnection.Response r = get(server, path);
                assertThat(r.status()).as(path).isEqualTo(200);
                assertThat(r.body()).isEqualTo(UP);
                assertThat(r.header("Content-Type")).isEqualTo("application/json");
                assertThat(r.header("Cache-Control")).isEqualTo("no-store");

                RawConnection.Response h = head(server, path);
                assertThat(h.status()).as("HEAD " + path).isEqualTo(200);
                assertThat(h.header("Content-Length")).isEqualTo(String.valueOf(UP.length()));
                assertThat(h.bodyBytes()).isEmpty();
            }
            assertThat(server.app().isReady()).isTrue();
            assertThat(server.post("/ready", "text/plain", "x").statusCode()).isEqualTo(405);
        }
    }

    @Test
    void pathsCanBeMoved() {
        try (BriskTestServer server = BriskTestServer.start(cfg -> cfg.health(h -> h.liveness("/livez").readiness("/readyz")))) {
            assertThat(get(server, "/livez").body()).isEqualTo(UP);
            assertThat(get(server, "/readyz").body()).isEqualTo(UP);
            assertThat(get(server, "/health").status()).isEqualTo(404);
            assertThat(get(server, "/ready").status()).isEqualTo(404);
        }
    }

    @Test
    void aFailingCheckMakesReadiness503NamingIt() {
        AtomicBoolean database = new AtomicBoolean(false);
        try (BriskTestServer server = BriskTestServer.start(cfg -> cfg.health(h -> h
                .check("database", database::get)
                .check("disk", () -> true)))) {
            RawConnection.Response r = get(server, "/ready");
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"checks_failed\",\"failed\":{\"database\":\"down\"}}");
            assertThat(r.header("Content-Type")).isEqualTo("application/json");
            assertThat(r.header("Cache-Control")).isEqualTo("no-store");
            assertThat(head(server, "/ready").status()).isEqualTo(503);
            assertThat(get(server, "/health").status()).as("liveness runs no checks").isEqualTo(200);
            assertThat(server.app().isReady()).as("the app's flag, not the checks").isTrue();

            database.set(true);
            assertThat(get(server, "/ready").body()).isEqualTo(UP);
        }
    }

    @Test
    void aThrowingCheckIsDownAndItsMessageIsNotSent() {
        try (BriskTestServer server = BriskTestServer.start(cfg -> cfg.health(h -> h
                .check("cache", () -> {
                    throw new IllegalStateException("password=hunter2");
                })))) {
            RawConnection.Response r = get(server, "/ready");
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"checks_failed\",\"failed\":{\"cache\":\"error\"}}");
        }
    }

    /**
     * A check that hangs: the probe answers 503 "timeout" after the check timeout, the event loop keeps
     * serving meanwhile, and later probes share the hung run instead of starting one each.
     */
    @Test
    void aHungCheckTimesOutWithoutBlockingTheEventLoopOrPilingUpRuns() throws Exception {
        CountDownLatch hang = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        try (BriskTestServer server = BriskTestServer.start(cfg -> {
            cfg.options().ioThreads(1).dispatch(Dispatch.EVENT_LOOP);
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.health(h -> h.checkTimeout(Duration.ofMillis(800)).check("search", () -> {
                runs.incrementAndGet();
                return hang.await(20, TimeUnit.SECONDS);
            }));
        })) {
            long t0 = System.nanoTime();
            CompletableFuture<RawConnection.Response> probe = CompletableFuture.supplyAsync(() -> get(server, "/ready"));
            for (int i = 0; i < 100 && runs.get() == 0; i++) {
                Thread.sleep(10);
            }
            assertThat(runs.get()).as("the check is running").isEqualTo(1);
            assertThat(get(server, "/hello").body()).isEqualTo("hello");
            assertThat(probe).as("the probe still waits for its check").isNotDone();

            RawConnection.Response r = probe.get(5, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"checks_failed\",\"failed\":{\"search\":\"timeout\"}}");
            assertThat(ms).isBetween(700L, 4_000L);

            assertThat(get(server, "/ready").body()).contains("\"search\":\"timeout\"");
            assertThat(runs.get()).as("later probes share the run still in progress").isEqualTo(1);

            hang.countDown();
            for (int i = 0; i < 100 && get(server, "/ready").status() != 200; i++) {
                Thread.sleep(10);
            }
            assertThat(get(server, "/ready").body()).isEqualTo(UP);
            assertThat(runs.get()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void anAppThatStartsNotReadyIsReadyWhenItSaysSo() {
        AtomicInteger checked = new AtomicInteger();
        try (BriskTestServer server = BriskTestServer.start(cfg -> cfg.health(h -> h.startNotReady().check("db", () -> {
            checked.incrementAndGet();
            return true;
        })))) {
            Brisk app = server.app();
            assertThat(app.isReady()).isFalse();
            RawConnection.Response r = get(server, "/ready");
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"not_ready\"}");
            assertThat(checked.get()).as("checks do not run while the app is not ready").isZero();
            assertThat(get(server, "/health").status()).as("alive all the same").isEqualTo(200);

            assertThat(app.ready(true)).isSameAs(app);
            assertThat(app.isReady()).isTrue();
            assertThat(get(server, "/ready").body()).isEqualTo(UP);
            assertThat(checked.get()).isEqualTo(1);

            app.ready(false);
            assertThat(app.isReady()).isFalse();
            assertThat(get(server, "/ready").status()).isEqualTo(503);
        }
    }

    /** Saturated: one slot, no queue, a slow handler holding the slot; the probes are not shed. */
    @ParameterizedTest(name = "readiness with a check: {0}")
    @ValueSource(booleans = {false, true})
    void probesAnswerWhileTheConcurrencyLimitIsFull(boolean withCheck) throws Exception {
        LoadSheddingTest.Gate gate = new LoadSheddingTest.Gate();
        try (BriskTestServer server = BriskTestServer.start(cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(0);
            cfg.health(h -> {
                if (withCheck) {
                    h.check("db", () -> true);
                }
            });
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
        })) {
            CompletableFuture<RawConnection.Response> slow = CompletableFuture.supplyAsync(() -> get(server, "/slow"));
            for (int i = 0; i < 200 && gate.entered.get() < 1; i++) {
                Thread.sleep(10);
            }
            assertThat(gate.entered.get()).isEqualTo(1);
            assertThat(get(server, "/slow").status()).as("the limit is full").isEqualTo(503);
            assertThat(get(server, "/health").status()).isEqualTo(200);
            RawConnection.Response ready = get(server, "/ready");
            assertThat(ready.status()).isEqualTo(200);
            assertThat(ready.body()).isEqualTo(UP);
            assertThat(server.app().metrics().shed()).containsEntry("concurrency-limit", 1L);
            gate.release.countDown();
            assertThat(slow.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
    }

    @Test
    void appMiddlewareAndBeforeFiltersDoNotGuardTheProbes() {
        try (BriskTestServer server = BriskTestServer.start(cfg -> {
            cfg.before(ctx -> {
                throw new HttpException(401, "who are you");
            });
            cfg.use(next -> ctx -> {
                ctx.header("X-Wrapped", "yes");
                next.handle(ctx);
            });
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.health(h -> h.check("db", () -> true));
        })) {
            assertThat(get(server, "/hello").status()).isEqualTo(401);
            RawConnection.Response ready = get(server, "/ready");
            assertThat(ready.status()).isEqualTo(200);
            assertThat(ready.header("X-Wrapped")).isNull();
            assertThat(get(server, "/health").status()).isEqualTo(200);
        }
    }

    @Test
    void mistakesAreReportedWhereTheyAreMade() {
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.health(h -> { }).health(h -> { })))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already declared");
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.health(h -> h.check("the db", () -> true))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the db");
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.health(h -> h.check("db", () -> true).check("db", () -> true))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate check");
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.health(h -> h.readiness("/health"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different paths");
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.health(h -> h.liveness("/health/{x}"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exact path");
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.health(h -> h.checkTimeout(Duration.ZERO))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.fastGet("/health", dev.brisk.StaticResponse.text("OK"));
            cfg.health(h -> { });
        })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/health");
    }
}
