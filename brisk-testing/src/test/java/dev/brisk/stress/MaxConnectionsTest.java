package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connection limit. Behaviour (see Acceptor and Server.awaitConnectionSlot): at
 * {@code maxConnections} open connections the acceptor simply stops calling {@code accept()}. A further
 * client's TCP handshake is still completed by the kernel (it sits in the listen backlog), so its
 * connect succeeds and it may send its request, but nothing reads it: no response, no close, no
 * reset, until a slot frees up. When one of the open connections closes (client or server side), the
 * acceptor is woken, accepts the waiting connection, and its already-sent request is answered. Only
 * when the backlog itself is full does the kernel stop completing handshakes. On io_uring, a burst past a
 * limit with room to spare at first may be taken by the multishot accept beyond the limit: those
 * connections wait accepted but unserved, as they would in the backlog, until slots free.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class MaxConnectionsTest {
    @Parameter
    Engine engine;

    static final int MAX = 5;
    /** A limit with room to spare at first: io_uring accepts with one multishot accept until it nears it. */
    static final int LARGE = 100;

    @Test
    void aConnectionOverTheLimitWaitsUntilOneCloses() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().maxConnections(MAX);
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
            })) {
                List<HttpConn> held = new ArrayList<>();
                try {
                    for (int i = 0; i < MAX; i++) {
                        HttpConn c = HttpConn.open(t.port(), 5_000);
                        held.add(c);
                        assertThat(c.get1("/users/" + i).body()).isEqualTo(String.valueOf(i));
                    }
                    // at the limit the count is exact (no slot reserved by the acceptor)
                    assertThat(t.app().connectionCount()).isEqualTo(MAX);

                    try (HttpConn sixth = HttpConn.open(t.port(), 5_000)) { // connect succeeds: kernel backlog
                        sixth.send(HttpConn.get("/users/sixth"));
                        assertThat(sixth.silentFor(500)).as("no answer while %d are open", MAX).isTrue();
                        // the held ones are still served
                        assertThat(held.get(1).get1("/users/again").body()).isEqualTo("again");
                        assertThat(sixth.silentFor(100)).isTrue();

                        long t0 = System.nanoTime();
                        held.remove(0).close();
                        sixth.timeout(2_000);
                        HttpConn.Resp r = sixth.read();
                        assertThat(r.status()).isEqualTo(200);
                        assertThat(r.body()).isEqualTo("sixth");
                        assertThat(Stress.millisSince(t0)).as("served after a slot freed (ms)").isLessThan(1_000);

                        // full again: a seventh waits, until the server itself closes one (Connection: close)
                        try (HttpConn seventh = HttpConn.open(t.port(), 5_000)) {
                            seventh.send(HttpConn.get("/users/seventh"));
                            assertThat(seventh.silentFor(300)).isTrue();
                            HttpConn last = held.remove(0);
                            last.send("GET /users/bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                            assertThat(last.read().body()).isEqualTo("bye");
                            assertThat(last.closedWithin(1_000)).isTrue();
                            last.close();
                            seventh.timeout(2_000);
                            assertThat(seventh.read().body()).isEqualTo("seventh");
                        }
                    }
                } finally {
                    held.forEach(HttpConn::close);
                }
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
                // and the full limit is usable again
                List<HttpConn> again = new ArrayList<>();
                try {
                    for (int i = 0; i < MAX; i++) {
                        HttpConn c = HttpConn.open(t.port(), 2_000);
                        again.add(c);
                        assertThat(c.get1("/users/r" + i).body()).isEqualTo("r" + i);
                    }
                } finally {
                    again.forEach(HttpConn::close);
                }
            }
        });
    }

    @Test
    void aBurstPastALargeLimitIsServedUpToItAndTheRestWhenSlotsFree() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.options().maxConnections(LARGE);
                if (engine == Engine.BLOCKING_PLATFORM) {
                    cfg.options().platformThreads(LARGE); // else its own bound (64 threads) answers 503 first
                }
                cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
            })) {
                int over = 30;
                List<HttpConn> all = new ArrayList<>();
                try {
                    for (int i = 0; i < LARGE + over; i++) { // connected and sent at once, as a burst
                        HttpConn c = HttpConn.open(t.port(), 5_000);
                        all.add(c);
                        c.send(HttpConn.get("/users/" + i));
                    }
                    List<HttpConn> served = new ArrayList<>();
                    List<HttpConn> waiting = new ArrayList<>();
                    for (int i = 0; i < all.size(); i++) {
                        HttpConn c = all.get(i);
                        // connections are accepted in the order they connected: until the limit is reached
                        // each is answered (waited for up to 2 s on a slow machine), and after it none is
                        if (served.size() < LARGE && c.answersWithin(2_000)) {
                            assertThat(c.read().body()).isEqualTo(String.valueOf(i));
                            served.add(c);
                        } else {
                            waiting.add(c);
                        }
                        assertThat(t.app().connectionCount()).as("open connections").isLessThanOrEqualTo(LARGE);
                    }
                    for (HttpConn w : waiting) {
                        assertThat(w.silentFor(50)).as("a connection past the limit is not served").isTrue();
                    }
                    assertThat(served).as("answered while %d were held", LARGE).hasSize(LARGE);
                    assertThat(t.app().connectionCount()).isEqualTo(LARGE);
                    for (int i = 0; i < over; i++) {
                        served.remove(0).close();
                    }
                    for (HttpConn w : waiting) {
                        w.timeout(3_000);
                        assertThat(w.read().status()).as("served once slots freed").isEqualTo(200);
                    }
                    assertThat(t.app().connectionCount()).isLessThanOrEqualTo(LARGE);
                } finally {
                    all.forEach(HttpConn::close);
                }
                Stress.awaitNoConnections(t.app(), Duration.ofSeconds(5));
            }
        });
    }
}
