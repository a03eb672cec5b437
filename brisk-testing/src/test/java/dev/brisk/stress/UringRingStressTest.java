package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 20, the io_uring rings under load: the submission and completion rings wrap dozens of times
 * (4,096 entries, several per request) while handlers on virtual threads post their answers from other
 * threads (every answer an eventfd wake-up), receives land in the provided buffer ring in pieces that
 * straddle its 8 KiB buffers, and short connections come and go beside them. Every answer must be
 * the one its own request asked for, whole and in order: a head or tail published too early or read
 * too late shows up as a lost, repeated or corrupted answer. Run on every dispatch, on the io_uring
 * engine (skipped with the reason where io_uring is unavailable).
 */
class UringRingStressTest {
    private static final int CONNECTIONS = 64;
    private static final int ROUNDS = 40;
    private static final int DEPTH = 8;

    @ParameterizedTest
    @EnumSource(value = Dispatch.class)
    void everyAnswerIsItsOwnRequestsWhileTheRingsWrap(Dispatch dispatch) {
        AtomicLong checked = new AtomicLong();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (BriskTestServer t = BriskTestServer.start(Engine.URING, cfg -> {
                cfg.dispatch(dispatch);
                cfg.options().ioThreads(2);
                cfg.post("/echo/{id}", ctx -> ctx.text(ctx.pathParam("id") + ":" + ctx.bodyAsString()));
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id") + ":" + ctx.queryParam("n")));
            })) {
                Stress.runClients(CONNECTIONS + 8, Duration.ofSeconds(50), c -> {
                    Random random = new Random(c);
                    if (c >= CONNECTIONS) {
                        // churn beside the keep-alive load: a new connection per request
                        for (int i = 0; i < 100; i++) {
                            try (HttpConn conn = HttpConn.open(t.port())) {
                                conn.send("GET /users/churn" + c + "?n=" + i + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                                HttpConn.Resp r = conn.read();
                                assertThat(r.body()).isEqualTo("churn" + c + ":" + i);
                                checked.incrementAndGet();
                            }
                        }
                        return;
                    }
                    try (HttpConn conn = HttpConn.open(t.port())) {
                        for (int round = 0; round < ROUNDS; round++) {
                            StringBuilder batch = new StringBuilder();
                            String[] expected = new String[DEPTH];
                            for (int k = 0; k < DEPTH; k++) {
                                String id = "c" + c + "r" + round + "k" + k;
                                if (k % 2 == 1) {
                                    // 1 byte to 20 KB: pieces across the ring's 8 KiB buffers
                                    int size = 1 + random.nextInt(20_000);
                                    StringBuilder body = new StringBuilder(size);
                                    for (int i = 0; i < size; i++) {
                                        body.append((char) ('a' + random.nextInt(26)));
                                    }
                                    batch.append("POST /echo/").append(id).append(" HTTP/1.1\r\nHost: x\r\n")
                                            .append("Content-Type: text/plain\r\nContent-Length: ")
                                            .append(size).append("\r\n\r\n").append(body);
                                    expected[k] = id + ":" + body;
                                } else {
                                    batch.append(HttpConn.get("/users/" + id + "?n=" + k));
                                    expected[k] = id + ":" + k;
                                }
                            }
                            conn.send(batch.toString());
                            for (int k = 0; k < DEPTH; k++) {
                                HttpConn.Resp r = conn.read();
                                assertThat(r.status()).as("response %d of round %d", k, round).isEqualTo(200);
                                assertThat(r.body()).as("response %d of round %d", k, round).isEqualTo(expected[k]);
                                checked.incrementAndGet();
                            }
                        }
                        assertThat(conn.silentFor(50)).as("nothing more than asked for").isTrue();
                    }
                });
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
            }
        });
        assertThat(checked.get()).isEqualTo((long) CONNECTIONS * ROUNDS * DEPTH + 8 * 100);
    }
}
