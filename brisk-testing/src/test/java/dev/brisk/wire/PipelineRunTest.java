package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pipelined requests handed to the connection's virtual thread together (a pipeline run, on the loop
 * engines; the blocking engines run every request on the connection's thread anyway): answered in order,
 * each from its own request, a handler that blocks holding back no answer before it, and the run ending
 * at a request a handler may not run ahead for.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class PipelineRunTest {
    @Parameter
    Engine engine;

    private static String gets(String path, int from, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + n; i++) {
            b.append("GET ").append(path).append("?i=").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        return b.toString();
    }

    @Test
    void fortyPipelinedRequestsAreAnsweredInOrderOnTheConnectionsThread() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/n", ctx -> {
            threads.add(String.valueOf(Thread.currentThread().threadId()));
            ctx.text("n=" + ctx.queryParam("i") + " " + ctx.method());
        })); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 40) + "HEAD /n?i=40 HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 41, 3));
            List<RawConnection.Response> rs = c.read(40);
            for (int i = 0; i < 40; i++) {
                assertThat(rs.get(i).body()).as("answer %d", i).isEqualTo("n=" + i + " GET");
                assertThat(rs.get(i).header("Connection")).isNull();
            }
            RawConnection.Response head = c.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo(String.valueOf("n=40 HEAD".length()));
            assertThat(c.read(3)).extracting(RawConnection.Response::body).containsExactly("n=41 GET", "n=42 GET", "n=43 GET");
            assertThat(c.silentFor(150)).isTrue();
            assertThat(t.app().metrics().requestsByRoute().get("GET /n")).isNotNull();
        }
        assertThat(threads).hasSize(1); // one kept thread ran them all
    }

    /** The answers before a blocked handler go out while it blocks: a run does not hold them back. */
    @Test
    void aBlockedHandlerHoldsBackNoAnswerBeforeIt() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/n", ctx -> ctx.text("n=" + ctx.queryParam("i")));
            cfg.get("/block", ctx -> {
                entered.countDown();
                release.await(10, TimeUnit.SECONDS);
                ctx.text("unblocked");
            });
        }); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 3) + "GET /block HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 3, 2));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            // the handler still blocks: the three before it are answered all the same
            assertThat(c.timeout(3_000).read(3)).extracting(RawConnection.Response::body)
                    .containsExactly("n=0", "n=1", "n=2");
            assertThat(c.silentFor(200)).as("nothing after the blocked one yet").isTrue();
            release.countDown();
            assertThat(c.read(3)).extracting(RawConnection.Response::body).containsExactly("unblocked", "n=3", "n=4");
        } finally {
            release.countDown();
        }
    }

    /**
     * A request that closes the connection ends the run before it: no handler runs for what was sent
     * after it (it is never answered), and a request with a body is parsed in its turn.
     */
    @Test
    void noHandlerRunsAheadPastARequestThatEndsTheConnectionOrHasABody() {
        AtomicInteger ran = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/n", ctx -> {
                ran.incrementAndGet();
                ctx.text("n=" + ctx.queryParam("i"));
            });
            cfg.post("/echo", ctx -> ctx.text("echo " + ctx.bodyAsString()));
        }); RawConnection c = t.raw()) {
            String body = "GET /n?i=99 HTTP/1.1\r\nHost: x\r\n\r\n"; // a body that looks like a request
            c.send(gets("/n", 0, 2)
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n" + body
                    + gets("/n", 2, 2)
                    + "GET /n?i=4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    + gets("/n", 5, 3));
            List<RawConnection.Response> rs = c.read(6);
            assertThat(rs).extracting(RawConnection.Response::body)
                    .containsExactly("n=0", "n=1", "echo " + body, "n=2", "n=3", "n=4");
            assertThat(rs.get(5).header("Connection")).isEqualTo("close");
            assertThat(c.closedWithin(3_000)).isTrue();
        }
        assertThat(ran.get()).as("handlers run: none for the body, none after the close").isEqualTo(5);
    }

    /** {@code max-requests-per-connection}: the last allowed request says close and none after it runs. */
    @Test
    void theRequestLimitPerConnectionEndsARun() {
        AtomicInteger ran = new AtomicInteger();
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxRequestsPerConnection(5);
            cfg.get("/n", ctx -> {
                ran.incrementAndGet();
                ctx.text("n=" + ctx.queryParam("i"));
            });
        }); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 9));
            List<RawConnection.Response> rs = c.read(5);
            assertThat(rs).extracting(RawConnection.Response::body).containsExactly("n=0", "n=1", "n=2", "n=3", "n=4");
            assertThat(rs.get(4).header("Connection")).isEqualTo("close");
            assertThat(rs.get(3).header("Connection")).isNull();
            assertThat(c.closedWithin(3_000)).isTrue();
        }
        assertThat(ran.get()).isEqualTo(5);
    }

    /** A handler that fails spoils none of the requests after it. */
    @Test
    void aFailingHandlerInARunIsAnsweredInItsPlace() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/n", ctx -> ctx.text("n=" + ctx.queryParam("i")));
            cfg.get("/fail", ctx -> {
                throw new IllegalStateException("boom");
            });
        }); RawConnection c = t.raw()) {
            c.send(gets("/n", 0, 1) + "GET /fail HTTP/1.1\r\nHost: x\r\n\r\n" + gets("/n", 1, 2));
            List<RawConnection.Response> rs = c.read(4);
            assertThat(rs).extracting(RawConnection.Response::status).containsExactly(200, 500, 200, 200);
            assertThat(rs.get(2).body()).isEqualTo("n=1");
            assertThat(rs.get(3).body()).isEqualTo("n=2");
        }
    }
}
