package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Many requests in one write are answered one by one, in order, whatever runs the handlers. */
@ParameterizedClass
@EnumSource(Engine.class)
class PipeliningTest {
    @Parameter
    Engine engine;


    private BriskTestServer start(Dispatch dispatch) {
        return Wire.start(engine, cfg -> {
            cfg.dispatch(dispatch);
            Wire.routes().accept(cfg);
        });
    }

    private static String userRequests(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("GET /users/").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        return b.toString();
    }

    private static void assertUsersInOrder(List<RawConnection.Response> rs) {
        for (int i = 0; i < rs.size(); i++) {
            RawConnection.Response r = rs.get(i);
            assertThat(r.status()).as("response %d", i).isEqualTo(200);
            assertThat(r.body()).as("response %d", i).isEqualTo("user=" + i);
            assertThat(r.header("Connection")).as("response %d", i).isNull();
        }
    }

    @ParameterizedTest(name = "{0} requests")
    @ValueSource(ints = {16, 32})
    void manyRequestsInOneWriteAreAnsweredInOrder(int n) {
        try (BriskTestServer t = Wire.start(engine, Wire.routes()); RawConnection c = t.raw()) {
            c.send(userRequests(n));
            assertUsersInOrder(c.read(n));
            assertThat(c.silentFor(150)).as("no extra response, connection open").isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void sixteenRequestsInOneWriteOnEachDispatch(Dispatch dispatch) {
        try (BriskTestServer t = start(dispatch); RawConnection c = t.raw()) {
            c.send(userRequests(16));
            assertUsersInOrder(c.read(16));
            assertThat(c.silentFor(150)).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void moreRequestsThanTheInputBufferHoldsOnEachDispatch(Dispatch dispatch) {
        // ~300 x 40 bytes = 12 KB of requests, more than one 8 KiB input buffer
        try (BriskTestServer t = start(dispatch); RawConnection c = t.raw()) {
            c.send(userRequests(300));
            assertUsersInOrder(c.read(300));
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void requestsSplitAtEveryFewBytesAreAnsweredInOrder(Dispatch dispatch) {
        try (BriskTestServer t = start(dispatch); RawConnection c = t.raw()) {
            c.sendInPieces(userRequests(8), 7, 1);
            assertUsersInOrder(c.read(8));
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void mixedFastNormalHeadAndPostRequestsInOneWrite(Dispatch dispatch) {
        try (BriskTestServer t = start(dispatch); RawConnection c = t.raw()) {
            c.send("GET /static HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/1?x=a HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nfirst"
                    + "GET /static HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nsec\r\n3\r\nond\r\n0\r\n\r\n"
                    + "HEAD /static HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                    + "DELETE /echo HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nthird"
                    + "GET /users/2 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r;

            r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("static");

            r = c.read();
            assertThat(r.body()).isEqualTo("user=1;x=a");

            r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("first");

            r = c.read();
            assertThat(r.body()).isEqualTo("static");

            r = c.read();
            assertThat(r.body()).isEqualTo("second");

            r = c.read(true);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Length")).isEqualTo("6");

            r = c.read(true);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Length")).isEqualTo("5");

            r = c.read();
            assertThat(r.status()).isEqualTo(404);

            r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyBytes()).isEmpty();
            assertThat(r.header("Content-Length")).isEqualTo("0");

            r = c.read();
            assertThat(r.status()).isEqualTo(405);
            assertThat(r.header("Allow")).isEqualTo("POST, OPTIONS");

            r = c.read();
            assertThat(r.body()).isEqualTo("third");

            r = c.read();
            assertThat(r.body()).isEqualTo("user=2");
            assertThat(r.header("Connection")).isNull();

            assertThat(c.silentFor(150)).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void streamedResponsesInThePipelineKeepTheirPlace(Dispatch dispatch) {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.dispatch(dispatch);
            Wire.routes().accept(cfg);
            cfg.get("/stream/{n}", ctx -> ctx.stream(new java.io.ByteArrayInputStream(
                    ("streamed " + ctx.pathParam("n")).repeat(2000).getBytes(java.nio.charset.StandardCharsets.US_ASCII))));
        }); RawConnection c = t.raw()) {
            c.send("GET /stream/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/2 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /stream/3 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /static HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r1 = c.read();
            assertThat(r1.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(r1.body()).isEqualTo("streamed 1".repeat(2000));
            assertThat(c.read().body()).isEqualTo("user=2");
            assertThat(c.read().body()).isEqualTo("streamed 3".repeat(2000));
            assertThat(c.read().body()).isEqualTo("static");
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void largeHeadPipelinedBehindASmallRequest(Dispatch dispatch) {
        // the second head (~12 KB) is larger than the 8 KiB input buffer and starts inside it
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.dispatch(dispatch);
            Wire.routes().accept(cfg);
            cfg.get("/big", ctx -> ctx.text("big=" + ctx.header("X-Big").length()));
        }); RawConnection c = t.raw()) {
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /big HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(12_000) + "\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nend");
            assertThat(c.read().body()).isEqualTo("hello");
            RawConnection.Response big = c.read();
            assertThat(big.status()).isEqualTo(200);
            assertThat(big.body()).isEqualTo("big=12000");
            assertThat(c.read().body()).isEqualTo("end");
        }
    }

    @ParameterizedTest
    @EnumSource(Dispatch.class)
    void slowHandlersDoNotReorderResponses(Dispatch dispatch) {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.dispatch(dispatch);
            // the earlier the request, the slower its handler
            cfg.get("/slow/{n}", ctx -> {
                int n = Integer.parseInt(ctx.pathParam("n"));
                try {
                    Thread.sleep(5L * (4 - n));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ctx.text("slow " + n);
            });
        }); RawConnection c = t.raw()) {
            c.send("GET /slow/0 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /slow/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /slow/2 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /slow/3 HTTP/1.1\r\nHost: x\r\n\r\n");
            List<RawConnection.Response> rs = c.read(4);
            for (int i = 0; i < 4; i++) {
                assertThat(rs.get(i).body()).isEqualTo("slow " + i);
            }
        }
    }

    @Test
    void pipelinedRequestsFollowedByHalfCloseOnTheEventLoopAreAllAnswered() {
        try (BriskTestServer t = start(Dispatch.EVENT_LOOP); RawConnection c = t.raw()) {
            c.send("GET /users/0 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/2 HTTP/1.1\r\nHost: x\r\n\r\n").shutdownOutput();
            List<RawConnection.Response> rs = c.read(3);
            for (int i = 0; i < 3; i++) {
                assertThat(rs.get(i).body()).isEqualTo("user=" + i);
            }
            Wire.assertNothingMoreAndClosed(c);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Dispatch.class, names = {"VIRTUAL_THREADS", "WORKER_POOL"})
    void pipelinedRequestsFollowedByHalfCloseAreAllAnswered(Dispatch dispatch) {
        try (BriskTestServer t = start(dispatch); RawConnection c = t.raw()) {
            c.send("GET /users/0 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /users/2 HTTP/1.1\r\nHost: x\r\n\r\n").shutdownOutput();
            List<RawConnection.Response> rs = c.read(3);
            for (int i = 0; i < 3; i++) {
                assertThat(rs.get(i).body()).isEqualTo("user=" + i);
            }
            Wire.assertNothingMoreAndClosed(c);
        }
    }
}
