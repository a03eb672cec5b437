package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code Context.bytes(ByteBuffer)}: one shared buffer (direct or heap, read-only or not) answers many
 * requests, concurrently too, without being consumed; only the bytes between position and limit go out.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class BufferBodyTest {
    private static final int LARGE = 300 * 1024 + 7; // far beyond one output buffer: written from the view

    @Parameter
    Engine engine;

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + (i * 31 + i / 251) % 26);
        }
        return b;
    }

    private static ByteBuffer direct(byte[] content) {
        ByteBuffer d = ByteBuffer.allocateDirect(content.length);
        d.put(content).flip();
        return d.asReadOnlyBuffer();
    }

    @Test
    void aLargeDirectBufferServesManyConcurrentRequestsWhole() throws Exception {
        byte[] content = pattern(LARGE);
        ByteBuffer shared = direct(content);
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.get("/big", ctx -> ctx.contentType("application/json").bytes(shared)).dispatch(Dispatch.EVENT_LOOP);
            cfg.get("/big-vt", ctx -> ctx.bytes(shared));
        }); ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String path = i % 2 == 0 ? "/big" : "/big-vt";
                answers.add(pool.submit(() -> t.client().send(t.request(path).GET().build(),
                        HttpResponse.BodyHandlers.ofByteArray())));
            }
            for (Future<HttpResponse<byte[]>> f : answers) {
                HttpResponse<byte[]> r = f.get();
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(content);
                assertThat(r.headers().firstValue("Content-Length")).hasValue(String.valueOf(LARGE));
            }
            HttpResponse<byte[]> vt = t.client().send(t.request("/big-vt").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(vt.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
            assertThat(t.client().send(t.request("/big").GET().build(), HttpResponse.BodyHandlers.ofByteArray())
                    .headers().firstValue("Content-Type")).hasValue("application/json");
        }
        assertThat(shared.position()).as("the shared buffer is never consumed").isZero();
        assertThat(shared.limit()).isEqualTo(LARGE);
    }

    @Test
    void onlyTheBytesBetweenPositionAndLimitAreSentKeepAliveAndPipelined() {
        byte[] all = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer heapSlice = ByteBuffer.wrap(all).position(3).limit(13); // "3456789abc"
        ByteBuffer bigDirect = ByteBuffer.allocateDirect(LARGE);
        bigDirect.put(pattern(LARGE)).position(100).limit(LARGE - 100);
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.get("/slice", ctx -> ctx.bytes(heapSlice));
            cfg.get("/big-slice", ctx -> ctx.bytes(bigDirect));
            cfg.get("/empty", ctx -> ctx.bytes(ByteBuffer.allocateDirect(0)));
            cfg.get("/replaced", ctx -> ctx.bytes(heapSlice).text("text wins"));
            cfg.get("/replacing", ctx -> ctx.text("dropped").bytes(heapSlice));
        }); RawConnection c = t.raw()) {
            c.send("GET /slice HTTP/1.1\r\nHost: x\r\n\r\nGET /big-slice HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /empty HTTP/1.1\r\nHost: x\r\n\r\nHEAD /big-slice HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response slice = c.read();
            assertThat(slice.body()).isEqualTo("3456789abc");
            assertThat(slice.header("Content-Length")).isEqualTo("10");
            RawConnection.Response big = c.read();
            assertThat(big.header("Content-Length")).isEqualTo(String.valueOf(LARGE - 200));
            byte[] expected = new byte[LARGE - 200];
            System.arraycopy(pattern(LARGE), 100, expected, 0, expected.length);
            assertThat(big.bodyBytes()).isEqualTo(expected);
            RawConnection.Response empty = c.read();
            assertThat(empty.status()).isEqualTo(200);
            assertThat(empty.header("Content-Length")).isEqualTo("0");
            assertThat(empty.body()).isEmpty();
            RawConnection.Response head = c.read(true);
            assertThat(head.header("Content-Length")).isEqualTo(String.valueOf(LARGE - 200));
            assertThat(c.silentFor(200)).as("HEAD sends no body").isTrue();

            assertThat(t.get("/replaced").body()).isEqualTo("text wins");
            assertThat(t.get("/replacing").body()).isEqualTo("3456789abc");
        }
        assertThat(heapSlice.position()).isEqualTo(3);
        assertThat(bigDirect.position()).isEqualTo(100);
    }
}
