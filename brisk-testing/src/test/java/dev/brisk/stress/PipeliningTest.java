package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.BriskConfig;
import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Pipelined requests (all written at once) on many connections at the same time, answered in order. */
class PipeliningTest {

    static void app(BriskConfig cfg, Dispatch dispatch) {
        cfg.dispatch(dispatch);
        cfg.options().ioThreads(2);
        cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id") + ":" + ctx.queryParam("n")));
        cfg.post("/echo/{id}", ctx -> ctx.text(ctx.pathParam("id") + ":" + ctx.bodyAsString()));
    }

    /** 50 connections × 2 rounds of 16 GETs, each round in one write. */
    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void fiftyConnectionsSixteenDeep(Dispatch dispatch) {
        pipeline(dispatch, 50, 16, 2, false);
    }

    /**
     * 10 connections × 3 rounds of 300 requests, every third a POST with a body: ≈ 21 KiB a write,
     * deeper than the server's 8 KiB read buffer, which it must compact and refill, still in order.
     */
    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void deeperThanTheReadBufferWithBodies(Dispatch dispatch) {
        pipeline(dispatch, 10, 300, 3, true);
    }

    /**
     * A client that writes its pipelined requests and then half-closes (shutdownOutput, like
     * {@code printf ... | nc}) has asked for all of them: each complete request must be answered
     * before the server closes. The first request's handler is slow and never on the event loop, so the
     * end of input arrives while it runs. Regression: the server used to close after answering it,
     * dropping the three requests still buffered.
     */
    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void halfCloseAfterPipelinedRequestsAnswersThemAll(Dispatch dispatch) {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (BriskTestServer t = BriskTestServer.start(cfg -> {
                app(cfg, dispatch);
                cfg.get("/slow/{id}", ctx -> {
                    Thread.sleep(50);
                    ctx.text(ctx.pathParam("id"));
                }).dispatch(dispatch == Dispatch.EVENT_LOOP ? Dispatch.VIRTUAL_THREADS : dispatch);
            })) {
                Stress.runClients(10, Duration.ofSeconds(15), c -> {
                    try (HttpConn conn = HttpConn.open(t.port(), 5_000)) {
                        StringBuilder batch = new StringBuilder();
                        for (int k = 0; k < 4; k++) {
                            batch.append(HttpConn.get((k == 0 ? "/slow/" : "/users/") + c + "?n=" + k));
                        }
                        conn.send(batch.toString());
                        conn.socket().shutdownOutput();
                        for (int k = 0; k < 4; k++) {
                            HttpConn.Resp r;
                            try {
                                r = conn.read();
                            } catch (RuntimeException e) {
                                throw new AssertionError("got " + k + " of 4 responses, then: " + e.getMessage(), e);
                            }
                            assertThat(r.status()).as("response %d", k).isEqualTo(200);
                            assertThat(r.body()).isEqualTo(k == 0 ? String.valueOf(c) : c + ":" + k);
                        }
                        assertThat(conn.closedWithin(2_000)).isTrue();
                    }
                });
            }
        });
    }

    private static void pipeline(Dispatch dispatch, int connections, int depth, int rounds, boolean bodies) {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (BriskTestServer t = BriskTestServer.start(cfg -> app(cfg, dispatch))) {
                Stress.runClients(connections, Duration.ofSeconds(25), c -> {
                    try (HttpConn conn = HttpConn.open(t.port())) {
                        for (int round = 0; round < rounds; round++) {
                            StringBuilder batch = new StringBuilder();
                            String[] expected = new String[depth];
                            for (int k = 0; k < depth; k++) {
                                String id = "c" + c + "r" + round;
                                if (bodies && k % 3 == 1) {
                                    String body = "body-" + k + "-" + "x".repeat(k % 50);
                                    batch.append("POST /echo/").append(id).append(" HTTP/1.1\r\nHost: x\r\n")
                                            .append("Content-Type: text/plain\r\nContent-Length: ")
                                            .append(body.length()).append("\r\n\r\n").append(body);
                                    expected[k] = id + ":" + body;
                                } else {
                                    batch.append(HttpConn.get("/users/" + id + "?n=" + k));
                                    expected[k] = id + ":" + k;
                                }
                            }
                            conn.send(batch.toString());
                            for (int k = 0; k < depth; k++) {
                                HttpConn.Resp r = conn.read();
                                assertThat(r.status()).as("response %d of round %d", k, round).isEqualTo(200);
                                assertThat(r.body()).as("response %d of round %d", k, round).isEqualTo(expected[k]);
                            }
                        }
                        // nothing more than asked for
                        assertThat(conn.silentFor(50)).isTrue();
                    }
                });
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
            }
        });
    }
}
