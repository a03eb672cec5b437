package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14, a lossless drain: SIGTERM to a server process under 50 keep-alive clients sending requests
 * back to back, plus 10 requests in handlers that take a second. Every request a client had fully sent
 * before the listener closed is answered ({@code 200}, or {@code 503} with {@code Connection: close});
 * the test counts them per request. A client sends its next request only after an answer that kept
 * the connection alive, as real clients do; the drain's grace covers the request that crosses the
 * drain's start on the wire.
 */
class SigtermDrainTest {
    private static final int CLIENTS = 50;
    private static final int SLOW = 10;

    /** One request that went out whole and got no answer. */
    private record Lost(int client, int n, long sentAt) {
    }

    @ParameterizedTest(name = "io={0}")
    @ValueSource(strings = {"nio", "blocking", "uring-only"})
    void everyRequestSentBeforeTheListenerClosedIsAnswered(String io) throws Exception {
        if (io.equals("uring-only")) {
            dev.brisk.IoMode.uringUnavailable().ifPresent(why -> Assumptions.abort("io_uring is unavailable here: " + why));
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                DrainTarget.class.getName());
        pb.environment().put("BRISK_IO", io);
        pb.environment().put("BRISK_SHUTDOWN_TIMEOUT", "5s");
        pb.redirectErrorStream(true);
        Process server = pb.start();
        try {
            int port = readPort(server);
            AtomicInteger sent = new AtomicInteger();
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger shed = new AtomicInteger();
            ConcurrentLinkedQueue<Lost> lost = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            AtomicInteger slowOk = new AtomicInteger();
            AtomicLong listenerClosedAt = new AtomicLong(Long.MAX_VALUE);
            long stopBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);

            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                threads.add(Thread.ofPlatform().name("fast-" + c).start(() -> {
                    try (HttpConn conn = HttpConn.open(port, 5_000)) {
                        for (int n = 0; System.nanoTime() - stopBy < 0; n++) {
                            try {
                                conn.send(HttpConn.get("/hello?n=" + n));
                            } catch (UncheckedIOException e) {
                                return; // the connection ended before the request went out whole
                            }
                            long sentAt = System.nanoTime();
                            sent.incrementAndGet();
                            HttpConn.Resp r;
                            try {
                                r = conn.read();
                            } catch (HttpConn.NoResponseException e) {
                                lost.add(new Lost(client, n, sentAt));
                                return;
                            }
                            if (r.status() == 200 && r.body().equals("hello " + n)) {
                                ok.incrementAndGet();
                            } else if (r.status() == 503 && r.connectionClose()) {
                                shed.incrementAndGet();
                            } else {
                                wrong.add(r.status() + " " + r.body());
                            }
                            if (r.connectionClose()) {
                                if (!conn.closedWithin(2_000)) {
                                    wrong.add("not closed after Connection: close");
                                }
                                return;
                            }
                            // a real client's think time: its connection sits idle for a moment, and the
                            // drain may begin just before its next request arrives
                            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(3_000_000));
                        }
                    }
                }));
            }
            for (int s = 0; s < SLOW; s++) {
                int n = s;
                threads.add(Thread.ofPlatform().name("slow-" + s).start(() -> {
                    try (HttpConn conn = HttpConn.open(port, 10_000)) {
                        HttpConn.Resp r = conn.get1("/slow?n=" + n);
                        if (r.status() == 200 && r.body().equals("slow " + n) && r.connectionClose()) {
                            slowOk.incrementAndGet();
                        } else {
                            wrong.add("slow: " + r.status() + " " + r.body() + " close=" + r.connectionClose());
                        }
                    } catch (RuntimeException e) {
                        wrong.add("slow " + n + ": " + e);
                    }
                }));
            }
            try (HttpConn probe = HttpConn.open(port, 5_000)) {
                assertThat(Stress.await(Duration.ofSeconds(10), () -> sent.get() >= 2_000
                        && probe.get1("/inflight").body().equals(Integer.toString(SLOW))))
                        .as("50 clients under way and 10 slow handlers running").isTrue();
            }
            long sigterm = System.nanoTime();
            server.destroy(); // SIGTERM: the shutdown hook closes the app
            // when the listener is closed, a connect is refused
            while (System.nanoTime() - stopBy < 0) {
                try (HttpConn c = HttpConn.open(port, 1_000)) {
                    Thread.onSpinWait();
                } catch (UncheckedIOException refused) {
                    listenerClosedAt.set(System.nanoTime());
                    break;
                }
            }
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(stopBy - System.nanoTime())));
            }
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("server process ended").isTrue();

            long closed = listenerClosedAt.get();
            List<Lost> beforeClose = lost.stream().filter(l -> l.sentAt() - closed < 0).toList();
            System.out.printf("io=%s: %d requests sent, %d answered 200, %d answered 503, %d unanswered"
                    + " (%d sent before the listener closed); %d of %d slow answered; listener closed %d ms"
                    + " after SIGTERM%n", io, sent.get(), ok.get(), shed.get(), lost.size(), beforeClose.size(),
                    slowOk.get(), SLOW, TimeUnit.NANOSECONDS.toMillis(closed - sigterm));
            assertThat(threads).noneMatch(Thread::isAlive);
            assertThat(closed).as("the listener closed").isNotEqualTo(Long.MAX_VALUE);
            assertThat(wrong).isEmpty();
            assertThat(beforeClose).as("requests sent before the listener closed, unanswered").isEmpty();
            assertThat(slowOk.get()).isEqualTo(SLOW);
            assertThat(ok.get() + shed.get() + lost.size()).isEqualTo(sent.get());
        } finally {
            if (server.isAlive()) {
                server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static int readPort(Process server) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                for (String l; (l = out.readLine()) != null; ) {
                    if (l.startsWith("port ")) {
                        return l;
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        }).get(30, TimeUnit.SECONDS);
        assertThat(line).as("the server printed its port").isNotNull();
        Thread.ofVirtual().start(() -> { // keep reading its output so it never blocks on a full pipe
            try {
                while (out.readLine() != null) {
                    // discard
                }
            } catch (IOException ignored) {
                // it ended
            }
        });
        return Integer.parseInt(line.substring(5).trim());
    }
}
