package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many uploads whose handlers do not read yet must not stop the server from reading other
 * connections. On io_uring this is the provided buffer ring's starvation rule: 300 stalled uploads
 * hold more receive buffers than the ring has (512, at most two per connection), so later receives
 * find it empty and fall back to a buffer of their own; a fresh {@code GET /hello} is still answered at
 * once, and every upload completes once its handler reads.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class StalledUploadsTest {
    private static final int UPLOADS = 300;
    private static final int BODY = 100_000;
    private static final int FIRST = 64 * 1024;

    @Parameter
    Engine engine;

    @Test
    void stalledUploadsDoNotStarveOtherConnections() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(UPLOADS);
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.options().maxConnections(2 * UPLOADS).platformThreads(2 * UPLOADS) // a thread per upload there
                    // the test holds its uploads' clients until all 300 handlers have started: on a slow
                    // run past rate-grace (5 s), min-body-rate would rightly cut one (seen once in CI)
                    .minBodyRate(0);
            cfg.post("/gated", ctx -> {
                started.countDown();
                if (!gate.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never opened the gate");
                }
                long n = 0;
                byte[] buf = new byte[8192];
                try (InputStream in = ctx.bodyAsStream()) {
                    for (int r; (r = in.read(buf)) >= 0; ) {
                        n += r;
                    }
                }
                ctx.text("n=" + n);
            }).streamBody();
            cfg.get("/hello", ctx -> ctx.text("hello"));
        })) {
            List<Socket> uploads = new ArrayList<>();
            byte[] first = new byte[FIRST];
            try {
                for (int i = 0; i < UPLOADS; i++) {
                    Socket s = new Socket("127.0.0.1", t.port());
                    s.setSoTimeout(30_000);
                    uploads.add(s);
                    OutputStream out = s.getOutputStream();
                    out.write(("POST /gated HTTP/1.1\r\nHost: x\r\nContent-Length: " + BODY + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(first);
                    out.flush();
                }
                assertThat(started.await(30, TimeUnit.SECONDS)).as("every upload reached its handler").isTrue();

                long t0 = System.nanoTime();
                try (Socket s = new Socket("127.0.0.1", t.port())) {
                    s.setSoTimeout(5_000);
                    s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                    assertThat(answer).startsWith("HTTP/1.1 200").endsWith("hello");
                }
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0))
                        .as("a fresh request beside %d stalled uploads", UPLOADS).isLessThan(5_000);

                gate.countDown();
                byte[] rest = new byte[BODY - FIRST];
                for (Socket s : uploads) {
                    s.getOutputStream().write(rest);
                    s.getOutputStream().flush();
                }
                for (Socket s : uploads) {
                    assertThat(readResponse(s.getInputStream())).startsWith("HTTP/1.1 200").endsWith("n=" + BODY);
                }
            } finally {
                gate.countDown();
                for (Socket s : uploads) {
                    s.close();
                }
            }
        }
    }

    /** Reads one response with a content-length body. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String h = head.toString(StandardCharsets.US_ASCII);
        int at = h.toLowerCase(java.util.Locale.ROOT).indexOf("content-length:");
        int len = at < 0 ? 0 : Integer.parseInt(h.substring(at + 15, h.indexOf('\r', at)).trim());
        return h + new String(in.readNBytes(len), StandardCharsets.US_ASCII);
    }
}
