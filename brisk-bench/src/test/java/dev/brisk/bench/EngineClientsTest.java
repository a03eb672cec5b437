package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.IoMode;
import dev.brisk.ThreadMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The clients of {@code bench/engines.sh} against a real server: what they count is what happened. */
class EngineClientsTest {

    private static Brisk start(IoMode io, ThreadMode threads, int platformThreads) {
        return Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.host("127.0.0.1").port(0);
            cfg.options().io(io).threads(threads).platformThreads(platformThreads)
               .connectionWaitTimeout(Duration.ofMillis(100));
            cfg.get("/hello", ctx -> ctx.text("Hello, World!"));
        }).start();
    }

    @Test
    void readerFramesResponsesSplitAnywhere() {
        byte[] two = ("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello"
                + "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        for (int split = 0; split <= two.length; split++) {
            ResponseReader r = new ResponseReader();
            ByteBuffer a = ByteBuffer.wrap(two, 0, split);
            ByteBuffer b = ByteBuffer.wrap(two, split, two.length - split);
            StringBuilder statuses = new StringBuilder();
            for (ByteBuffer part : new ByteBuffer[] {a, b}) {
                while (part.hasRemaining()) {
                    int s = r.feed(part);
                    if (s != ResponseReader.INCOMPLETE) {
                        statuses.append(s).append(' ');
                    }
                }
            }
            assertThat(statuses.toString()).as("split at %d", split).isEqualTo("200 503 ");
        }
        ResponseReader chunked = new ResponseReader();
        assertThat(chunked.feed(ByteBuffer.wrap("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII)))).isEqualTo(ResponseReader.MALFORMED);
    }

    @Test
    void idleConnectionsAreOpenedAnsweredAndCounted() throws Exception {
        try (Brisk app = start(IoMode.NIO, ThreadMode.VIRTUAL, 200)) {
            IdleConnections.Opened o = IdleConnections.openAndClose(app.port(), 300, 64, TimeUnit.SECONDS.toNanos(20));
            assertThat(o.ok()).isEqualTo(300);
            assertThat(o.failed() + o.status503() + o.otherStatus() + o.unanswered()).isZero();
        }
    }

    @Test
    void idleConnectionsBeyondPlatformThreadsAreRefused() throws Exception {
        try (Brisk app = start(IoMode.BLOCKING, ThreadMode.PLATFORM, 10)) {
            IdleConnections.Opened o = IdleConnections.openAndClose(app.port(), 30, 30, TimeUnit.SECONDS.toNanos(3));
            assertThat(o.ok()).isEqualTo(10);
            // one waits the connection-wait-timeout, then the saturated pool refuses the rest at once
            assertThat(o.status503()).isPositive();
            assertThat(o.failed() + o.otherStatus()).isZero();
        }
    }

    @Test
    void warmupProbeCountsResponsesPerSecond() throws Exception {
        try (Brisk app = start(IoMode.BLOCKING, ThreadMode.VIRTUAL, 200)) {
            String out = WarmupProbe.run(app.port(), System.nanoTime(), 4, 2, "/hello");
            assertThat(out).startsWith("WARMUP probe_ready_ms=").contains("connections=4 seconds=2")
                    .contains("WARMUP_END unanswered=0 reconnects=0");
            Matcher m = Pattern.compile("SECOND n=(\\d) ok=(\\d+) errors=(\\d+)").matcher(out);
            int seconds = 0;
            while (m.find()) {
                seconds++;
                assertThat(Integer.parseInt(m.group(2))).as(m.group()).isPositive();
                assertThat(m.group(3)).isEqualTo("0");
            }
            assertThat(seconds).isEqualTo(2);
        }
    }

    @Test
    void warmupProbeCountsRefusalsAsErrors() throws Exception {
        try (Brisk app = Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.host("127.0.0.1").port(0);
            cfg.get("/hello", ctx -> ctx.status(503).text("no"));
        }).start()) {
            String out = WarmupProbe.run(app.port(), System.nanoTime(), 2, 1, "/hello");
            assertThat(out).contains("first_response_ms=-1").containsPattern("SECOND n=1 ok=0 errors=[1-9]");
        }
    }
}
