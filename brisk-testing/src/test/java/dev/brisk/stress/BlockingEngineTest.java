package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import dev.brisk.tls.TestKeys;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What only the blocking engine does: a thread per connection, its cap on platform threads, no pinning. */
class BlockingEngineTest {

    @Test
    void handlersRunOnTheirConnectionsOwnVirtualThread() {
        List<Thread> seen = new CopyOnWriteArrayList<>();
        try (BriskTestServer t = BriskTestServer.start(Engine.BLOCKING_VIRTUAL,
                cfg -> cfg.get("/who", ctx -> {
                    seen.add(Thread.currentThread());
                    ctx.text("ok");
                }));
             RawConnection a = t.raw(); RawConnection b = t.raw()) {
            for (RawConnection c : List.of(a, a, b)) {
                assertThat(c.send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n").read().status()).isEqualTo(200);
            }
            assertThat(seen).hasSize(3).allMatch(Thread::isVirtual);
            assertThat(seen.get(1)).as("same connection, same thread").isSameAs(seen.get(0));
            assertThat(seen.get(2)).as("another connection, another thread").isNotSameAs(seen.get(0));
        }
    }

    @Test
    void platformThreadsAreCappedAndAConnectionWithoutOneGets503() throws InterruptedException {
        List<Thread> seen = new CopyOnWriteArrayList<>();
        try (BriskTestServer t = BriskTestServer.start(Engine.BLOCKING_PLATFORM, cfg -> {
            cfg.options().platformThreads(2).connectionWaitTimeout(Duration.ofMillis(300));
            cfg.get("/who", ctx -> {
                seen.add(Thread.currentThread());
                ctx.text("ok");
            });
        })) {
            RawConnection a = t.raw();
            try (RawConnection b = t.raw()) {
                assertThat(a.send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n").read().status()).isEqualTo(200);
                assertThat(b.send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n").read().status()).isEqualTo(200);
                assertThat(seen).noneMatch(Thread::isVirtual).allMatch(th -> th.getName().startsWith("brisk-conn-"));

                // both threads now hold an idle keep-alive connection: a third connection waits, then is refused
                try (RawConnection c = t.raw()) {
                    long start = System.nanoTime();
                    RawConnection.Response r = c.timeout(3_000).send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n").read();
                    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertThat(r.status()).isEqualTo(503);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                    assertThat(r.header("Connection")).isEqualTo("close");
                    assertThat(waited).isBetween(250L, 2_500L);
                    assertThat(c.closedWithin(1_000)).isTrue();
                }
                // the pool is saturated now: the next connection is refused without a second wait
                try (RawConnection c2 = t.raw()) {
                    long start = System.nanoTime();
                    RawConnection.Response r = c2.timeout(3_000).send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n").read();
                    assertThat(r.status()).isEqualTo(503);
                    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(250L);
                }
                assertThat(t.app().metrics().shed()).containsEntry("thread-limit", 2L);
                assertThat(seen).hasSize(2);

                // a thread comes free when a connection ends (once the server has seen it end: until then
                // the pool is still saturated), and the next connection is served
                a.close();
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (t.app().connectionCount() > 1 && System.nanoTime() - until < 0) {
                    Thread.sleep(5);
                }
                assertThat(t.app().connectionCount()).isEqualTo(1);
                try (RawConnection d = t.raw()) {
                    assertThat(d.timeout(3_000).send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n").read().status())
                            .isEqualTo(200);
                }
            }
        }
    }

    /**
     * With every platform thread busy, a connection that waited for one in vain is still served what costs
     * nothing or must never be shed: the liveness probe (fast-static), the readiness route and a route
     * marked {@code neverShed}, on a short-lived virtual thread, one request and then closed. Any other
     * request gets 503 ({@code thread-limit}), its body unread. Over TLS too, where the answer used to be
     * plaintext on a TLS connection; the client then speaks HTTP/1.1.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void healthProbesAreAnsweredWhileEveryPlatformThreadIsBusy(boolean tls) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TestKeys.Shared keys = TestKeys.shared();
        try (BriskTestServer t = BriskTestServer.start(Engine.BLOCKING_PLATFORM, cfg -> {
            cfg.options().platformThreads(1).connectionWaitTimeout(Duration.ofMillis(200));
            if (tls) {
                cfg.options().tlsPem(keys.server().certPem(), keys.server().keyPem());
            }
            cfg.health(h -> { });
            cfg.get("/block", ctx -> {
                entered.countDown();
                release.await(10, TimeUnit.SECONDS);
                ctx.text("unblocked");
            });
            cfg.get("/critical", ctx -> ctx.text(Thread.currentThread().isVirtual() ? "virtual" : "platform")).neverShed();
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.post("/echo", ctx -> ctx.text(ctx.bodyAsString()));
        })) {
            // the probes' client would take HTTP/2 where offered; the holder's connection must be HTTP/1.1's
            HttpClient client = HttpClient.newBuilder().sslContext(keys.server().trustingContext())
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HttpClient holderClient = HttpClient.newBuilder().sslContext(keys.server().trustingContext())
                    .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
            String base = (tls ? "https://localhost:" : "http://127.0.0.1:") + t.port();
            var holder = holderClient.sendAsync(HttpRequest.newBuilder(URI.create(base + "/block")).build(),
                    HttpResponse.BodyHandlers.ofString());
            try {
                assertThat(entered.await(10, TimeUnit.SECONDS)).as("the only platform thread is busy").isTrue();
                String[][] cases = {
                    {"GET", "/health", "200", null},
                    {"GET", "/ready", "200", null},
                    {"GET", "/critical", "200", "virtual"},
                    {"GET", "/hello", "503", "Service Unavailable: no connection thread free, retry shortly\n"},
                    {"POST", "/echo", "503", "Service Unavailable: no connection thread free, retry shortly\n"},
                };
                for (String[] c : cases) {
                    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + c[1])).timeout(Duration.ofSeconds(5));
                    HttpRequest req = c[0].equals("POST")
                            ? b.POST(HttpRequest.BodyPublishers.ofString("hello")).build() : b.GET().build();
                    HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(c[1]).isEqualTo(Integer.parseInt(c[2]));
                    assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
                    if (c[3] != null) {
                        assertThat(r.body()).as(c[1]).isEqualTo(c[3]);
                    }
                    if (r.statusCode() == 503) {
                        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
                    }
                }
                assertThat(t.app().metrics().shed()).containsEntry("thread-limit", 2L);
                if (!tls) {
                    // an HTTP/2 client with prior knowledge is told in HTTP/2: SETTINGS, then GOAWAY (last stream
                    // 0, NO_ERROR), not an HTTP/1.1 505
                    try (java.net.Socket h2 = new java.net.Socket("127.0.0.1", t.port())) {
                        h2.setSoTimeout(5_000);
                        h2.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\4\0\0\0\0\0"
                                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                        byte[] got = h2.getInputStream().readAllBytes();
                        assertThat(java.util.Arrays.copyOf(got, 9)).containsExactly(0, 0, 0, 4, 0, 0, 0, 0, 0);
                        assertThat(got[12]).as("GOAWAY").isEqualTo((byte) 7);
                        assertThat(java.util.Arrays.copyOfRange(got, 18, 26)).as("last stream 0, NO_ERROR")
                                .containsExactly(0, 0, 0, 0, 0, 0, 0, 0);
                        assertThat(new String(got, 26, got.length - 26, java.nio.charset.StandardCharsets.US_ASCII))
                                .isEqualTo("no connection thread free");
                    }
                    // one that sends nothing holds its place a second, not the header-read timeout (10 s)
                    try (RawConnection quiet = t.raw()) {
                        assertThat(quiet.closedWithin(4_000)).isTrue();
                    }
                    // both were turned away for want of a thread: counted as such, like a refused request
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while (t.app().metrics().shed().getOrDefault("thread-limit", 0L) < 4 && System.nanoTime() - until < 0) {
                        Thread.sleep(10);
                    }
                    assertThat(t.app().metrics().shed()).containsEntry("thread-limit", 4L);
                }
            } finally {
                release.countDown();
            }
            assertThat(holder.get(10, TimeUnit.SECONDS).body()).isEqualTo("unblocked");
        }
    }

    /**
     * The engine's own code never pins a virtual thread to its carrier (blocks while it cannot unmount):
     * JFR's {@code jdk.VirtualThreadPinned} sees no event with an engine frame, over plain requests,
     * bodies, {@code 100-continue}, a streamed body and admission queueing. The traffic runs once before
     * the recording, so that first-use class loading and initialization (the JVM's own one-time waits, not
     * the engine's) are over. On JDK 24+ {@code synchronized} no longer pins at all; the engine avoids it
     * on waits anyway, for JDK 21.
     */
    @Test
    void theEngineNeverPinsAVirtualThread() throws Exception {
        Path dump = Files.createTempFile("brisk-pinning", ".jfr");
        try (BriskTestServer t = BriskTestServer.start(Engine.BLOCKING_VIRTUAL, cfg -> {
            cfg.options().maxConcurrentRequests(2).requestQueueSize(64).requestQueueTimeout(Duration.ofSeconds(5));
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.get("/sleep", ctx -> {
                Thread.sleep(20);
                ctx.text("slept");
            });
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()));
            cfg.get("/stream", ctx -> ctx.stream(new ByteArrayInputStream(new byte[100_000])));
        })) {
            traffic(t);
            try (Recording rec = new Recording()) {
                rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                rec.start();
                traffic(t);
                rec.stop();
                rec.dump(dump);
            }
        }
        try {
            List<String> pinned = new ArrayList<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(dump)) {
                boolean engine = e.getStackTrace() != null && e.getStackTrace().getFrames().stream()
                        .anyMatch(f -> f.getMethod().getType().getName().startsWith("dev.brisk.internal"));
                if (engine) {
                    pinned.add(e.toString());
                }
            }
            assertThat(pinned).as("pinned virtual threads with an engine frame").isEmpty();
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    /** 8 clients × 10 rounds of sleep, hello, stream and echo, queued at 2 in flight; then 100-continue. */
    private static void traffic(BriskTestServer t) throws Exception {
        List<Future<?>> clients = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                clients.add(pool.submit(() -> {
                    for (int k = 0; k < 10; k++) {
                        assertThat(t.get("/sleep").statusCode()).isEqualTo(200);
                        assertThat(t.get("/hello").body()).isEqualTo("hello");
                        assertThat(t.get("/stream").body()).hasSize(100_000);
                        assertThat(t.post("/echo", "text/plain", "body-" + k).body()).isEqualTo("body-" + k);
                    }
                    return null;
                }));
            }
            for (Future<?> c : clients) {
                c.get(30, TimeUnit.SECONDS); // rethrows a client's failed assertion
            }
        }
        try (RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(100);
            assertThat(c.send("hello").read().body()).isEqualTo("hello");
        }
        HttpResponse<String> last = t.send(t.request("/hello").GET().build());
        assertThat(last.statusCode()).isEqualTo(200);
    }
}
