package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.ServerMetrics;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many large bodies at once against a small request-body memory budget: the ones that fit are served
 * whole, the rest are refused at once with 503, memory stays within the budget, other requests are
 * still answered quickly, and the budget comes back to zero.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class HostileBodiesTest {
    private static final int MIB = 1 << 20;
    private static final int BODY = 10 * MIB;
    private static final long BUDGET = 32L * MIB;

    @Parameter
    Engine engine;

    @Test
    void sixtyTenMebibyteBodiesAtOnceAreServedOrRefusedWithinTheBudget() throws Exception {
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.options().bodyMemoryBudget(BUDGET).bodySpoolDisk(0).shutdownTimeout(Duration.ofSeconds(1))
                    .ioThreads(2);
            cfg.post("/upload", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(BODY);
            cfg.get("/hello", ctx -> ctx.text("hello"));
        })) {
            ServerMetrics metrics = t.app().metrics();
            try (RawConnection warm = t.raw()) { // a cold JIT would be measured, not the load
                for (int i = 0; i < 500; i++) {
                    assertThat(warm.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").read().status()).isEqualTo(200);
                    warm.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc").read();
                }
            }
            byte[] body = new byte[BODY];
            java.util.Arrays.fill(body, (byte) 'b');
            Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
            AtomicLong maxReserved = new AtomicLong();
            AtomicLong helloMaxNanos = new AtomicLong();
            AtomicLong hellos = new AtomicLong();
            AtomicBoolean loading = new AtomicBoolean(true);
            // a platform thread: the clients' virtual threads must not delay the probe itself
            Thread prober = Thread.ofPlatform().daemon(true).start(() -> {
                try (RawConnection hello = t.raw()) {
                    while (loading.get()) {
                        maxReserved.accumulateAndGet(metrics.bodyMemoryReserved(), Math::max);
                        long start = System.nanoTime();
                        RawConnection.Response r = hello.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").read();
                        helloMaxNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                        if (r.status() == 200) {
                            hellos.incrementAndGet();
                        }
                        Thread.sleep(5);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                Stress.runClients(60, Duration.ofSeconds(60), i -> {
                    try (RawConnection c = t.raw()) {
                        c.timeout(30_000);
                        c.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + BODY + "\r\n\r\n");
                        Thread writer = Thread.ofVirtual().start(() -> {
                            try {
                                c.send(body);
                            } catch (UncheckedIOException refused) {
                                // a refused upload is cut off by the server: expected
                            }
                        });
                        RawConnection.Response r = c.read();
                        statuses.merge(r.status(), 1, Integer::sum);
                        if (r.status() == 200) {
                            assertThat(r.body()).isEqualTo("n=" + BODY);
                        } else {
                            assertThat(r.header("Retry-After")).isEqualTo("1");
                        }
                        c.close(); // ends a refused upload's writer
                        writer.join();
                    }
                });
            } finally {
                loading.set(false);
                prober.join();
            }
            System.out.printf("%s: 60 x 10 MiB, budget 32 MiB: statuses %s, /hello max %d ms over %d probes,"
                    + " max reserved %d MiB%n", engine, statuses, TimeUnit.NANOSECONDS.toMillis(helloMaxNanos.get()),
                    hellos.get(), maxReserved.get() / MIB);
            assertThat(statuses.keySet()).as("served or refused, nothing else").isSubsetOf(200, 503);
            assertThat(statuses.getOrDefault(200, 0)).as("bodies served").isPositive();
            assertThat(statuses.getOrDefault(503, 0)).as("bodies refused").isPositive();
            assertThat(maxReserved.get()).isLessThanOrEqualTo(BUDGET);
            assertThat(hellos.get()).as("/hello answered during the load").isPositive();
            // generous: this machine's cores are shared with the clients (and CI); bench/hostile-bodies.sh measures it alone
            assertThat(helloMaxNanos.get()).as("slowest /hello during the load").isLessThan(TimeUnit.SECONDS.toNanos(3));
            assertThat(metrics.shed()).containsEntry("body-memory", (long) statuses.get(503));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (metrics.bodyMemoryReserved() != 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            assertThat(metrics.bodyMemoryReserved()).as("the budget, back to zero").isZero();
        }
    }
}
