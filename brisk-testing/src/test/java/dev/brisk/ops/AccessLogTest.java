package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.AccessLogMode;
import dev.brisk.BriskConfig;
import dev.brisk.ConfigSource;
import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The access log over real sockets, read back through a java.util.logging handler. */
class AccessLogTest {
    private static final Pattern LINE = Pattern.compile("method=(\\S+) route=(\\S+) path=(\\S+) status=(\\d{3})"
            + " bytes=(\\S+) duration_us=(\\S+) remote=(127\\.0\\.0\\.1:\\d+) request_id=(\\S+)"
            + " protocol=(http/1\\.1|http/1\\.0|h2|h2c)");
    private static final String THREAD = "brisk-access-log";

    /** The fields of an access-log line, by name. */
    private record Fields(String method, String route, String path, int status, String bytes, String duration,
                          String remote, String requestId, String protocol) {
        static Fields of(String line) {
            Matcher m = LINE.matcher(line);
            assertThat(m.matches()).as("a logfmt access-log line: %s", line).isTrue();
            return new Fields(m.group(1), m.group(2), m.group(3), Integer.parseInt(m.group(4)), m.group(5),
                    m.group(6), m.group(7), m.group(8), m.group(9));
        }
    }

    private static BriskTestServer start(AccessLogMode mode, Consumer<BriskConfig> more) {
        return BriskTestServer.start(cfg -> {
            cfg.options().accessLog(mode).ioThreads(1).shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/users/{id}", ctx -> ctx.text("user " + ctx.pathParam("id") + " " + ctx.requestId()));
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()));
            cfg.get("/boom", ctx -> {
                throw new IllegalStateException("boom");
            });
            cfg.fastGet("/health", StaticResponse.text("OK"));
            more.accept(cfg);
        });
    }

    /** Whether {@code t} waits inside the access log's close(). */
    private static boolean waitsInAccessLogClose(Thread t) {
        Thread.State state = t.getState();
        return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                && Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getMethodName().equals("close")
                        && f.getClassName().equals("dev.brisk.internal.ops.AccessLog"));
    }

    private static boolean logThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(THREAD) && t.isAlive());
    }

    @Test
    void fullLogsOneLinePerResponse() throws Exception {
        try (AccessLogCapture log = AccessLogCapture.start(); BriskTestServer s = start(AccessLogMode.FULL, cfg -> { })) {
            HttpResponse<String> user = s.send(s.request("/users/42").header("X-Request-Id", "req-42").GET().build());
            assertThat(user.body()).isEqualTo("user 42 req-42");
            HttpResponse<String> generated = s.get("/users/7");
            assertThat(s.get("/missing").statusCode()).isEqualTo(404);
            assertThat(s.post("/echo", "text/plain", "hello").body()).isEqualTo("hello");
            assertThat(s.get("/boom").statusCode()).isEqualTo(500);
            assertThat(s.get("/health").body()).isEqualTo("OK");
            try (RawConnection c = s.raw()) {
                c.send("HEAD /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: head-1\r\n\r\n");
                assertThat(c.read(true).status()).isEqualTo(200);
            }
            try (RawConnection c = s.raw()) {
                c.send("GET /users/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(400);
            }

            List<Fields> lines = log.await(8).stream().map(Fields::of).toList();
            Fields first = lines.get(0);
            assertThat(first).isEqualTo(new Fields("GET", "/users/{id}", "/users/42", 200, "14",
                    first.duration(), first.remote(), "req-42", "http/1.1"));
            assertThat(Long.parseLong(first.duration())).isNotNegative().isLessThan(10_000_000);
            // the id the handler saw is the one logged: generated once per request
            assertThat(generated.body()).isEqualTo("user 7 " + lines.get(1).requestId());
            assertThat(lines.get(1).requestId()).matches("[0-9a-f]{12}-[0-9a-f]+");
            assertThat(lines.get(2)).extracting(Fields::method, Fields::route, Fields::path, Fields::status)
                    .containsExactly("GET", "-", "/missing", 404);
            assertThat(lines.get(3)).extracting(Fields::method, Fields::route, Fields::status, Fields::bytes)
                    .containsExactly("POST", "/echo", 200, "5");
            assertThat(lines.get(4)).extracting(Fields::route, Fields::status).containsExactly("/boom", 500);
            assertThat(lines.get(5)).extracting(Fields::method, Fields::route, Fields::path, Fields::status, Fields::bytes)
                    .containsExactly("GET", "/health", "/health", 200, "2");
            assertThat(lines.get(6)).extracting(Fields::method, Fields::route, Fields::bytes, Fields::requestId)
                    .containsExactly("HEAD", "/health", "0", "head-1");
            assertThat(lines.get(7)).extracting(Fields::method, Fields::route, Fields::status, Fields::duration)
                    .as("refused while parsed: nothing known but the status").containsExactly("-", "-", 400, "-");
            assertThat(s.app().metrics().accessLogDropped()).isZero();
        }
    }

    @Test
    void anUnsafePathIsQuotedAndEscapedAndTheRemoteIsTheClientsAddress() throws Exception {
        try (AccessLogCapture log = AccessLogCapture.start(); BriskTestServer s = start(AccessLogMode.FULL, cfg -> { });
             Socket socket = new Socket("127.0.0.1", s.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /a\"b=c\\d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .startsWith("HTTP/1.1 404 ");
            assertThat(log.await(1).get(0)).contains(" path=\"/a\\\"b=c\\\\d\" status=404 ")
                    .contains(" remote=127.0.0.1:" + socket.getLocalPort() + " ");
        }
    }

    @Test
    void sampledLogsOneInNAndEveryServerError() throws Exception {
        try (AccessLogCapture log = AccessLogCapture.start(); BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.options().accessLog(AccessLogMode.SAMPLED).accessLogSampleRate(10).ioThreads(1);
            cfg.get("/ok", ctx -> ctx.text("ok"));
            cfg.get("/fail", ctx -> ctx.status(503).text("down"));
        })) {
            for (int i = 0; i < 100; i++) {
                assertThat(s.get("/ok").statusCode()).isEqualTo(200);
            }
            for (int i = 0; i < 3; i++) {
                assertThat(s.get("/fail").statusCode()).isEqualTo(503);
            }
            List<Fields> lines = log.await(13).stream().map(Fields::of).toList();
            // one loop, one counter: exactly every tenth, starting with the first
            assertThat(lines).filteredOn(f -> f.status() == 200).hasSize(10);
            assertThat(lines).filteredOn(f -> f.status() == 503).hasSize(3);
        }
    }

    @Test
    void offLogsNothingAndStartsNoThread() throws Exception {
        try (AccessLogCapture log = AccessLogCapture.start(); BriskTestServer s = start(AccessLogMode.OFF, cfg -> { })) {
            for (int i = 0; i < 5; i++) {
                s.get("/users/" + i);
                s.get("/health");
            }
            assertThat(log.await(0)).isEmpty();
            assertThat(logThreadAlive()).isFalse();
            assertThat(s.app().metrics().accessLogDropped()).isZero();
        }
    }

    @Test
    void theOptionsComeFromTheEnvironmentAndSystemProperties() throws Exception {
        Properties systemProperties = new Properties();
        systemProperties.setProperty("brisk.request-ids", "true");
        try (AccessLogCapture log = AccessLogCapture.start(); BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.configSource(ConfigSource.of(Map.of("BRISK_ACCESS_LOG", "sampled", "BRISK_ACCESS_LOG_SAMPLE_RATE", "3"),
                    systemProperties, new Properties()));
            cfg.options().ioThreads(1);
            cfg.get("/id", ctx -> ctx.text(ctx.requestId()));
        })) {
            assertThat(s.app().options().accessLog()).isEqualTo(AccessLogMode.SAMPLED);
            String id = null;
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> r = s.get("/id");
                assertThat(r.headers().firstValue("X-Request-Id")).contains(r.body());
                if (i == 3) {
                    id = r.body();
                }
            }
            List<String> lines = log.await(2);
            assertThat(Fields.of(lines.get(1)).requestId()).isEqualTo(id);
        }
    }

    @Test
    void aFullQueueDropsLinesAndCountsThemWithoutSlowingResponses() throws Exception {
        int requests = 8192 + 500; // more than the queue holds
        AccessLogCapture log = AccessLogCapture.blocking();
        try (log; BriskTestServer s = start(AccessLogMode.FULL, cfg -> { })) {
            assertThat(s.get("/health").statusCode()).isEqualTo(200);
            log.awaitBlocked(); // the log's thread is stuck in the handler with that first line
            long t0 = System.nanoTime();
            assertThat(pipelined(s.port(), "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", requests)).isEqualTo(requests);
            assertThat(System.nanoTime() - t0).as("responses do not wait for the log")
                    .isLessThan(Duration.ofSeconds(20).toNanos());
            long dropped = s.app().metrics().accessLogDropped();
            assertThat(dropped).isBetween((long) requests - 8192, (long) requests - 8192 + 1);

            log.release();
            s.close();
            assertThat(logThreadAlive()).as("close stops the log's thread").isFalse();
            assertThat(log.lines()).as("every line not dropped is written by close").hasSize((int) (requests + 1 - dropped));
        }
    }

    @Test
    void closeWritesWhatIsQueuedAndStopsTheThread() throws Exception {
        AccessLogCapture log = AccessLogCapture.blocking();
        try (log) {
            BriskTestServer s = start(AccessLogMode.FULL, cfg -> { });
            for (int i = 0; i < 40; i++) {
                s.get("/users/" + i);
            }
            log.awaitBlocked();
            assertThat(log.lines()).as("all still queued when close starts").isEmpty();
            Thread closer = Thread.ofPlatform().name("test-closer").start(s::close);
            // the logger is released only once close() waits for the log's thread to write the queue
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!waitsInAccessLogClose(closer) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(waitsInAccessLogClose(closer)).as("close() waiting for the access log").isTrue();
            log.release();
            closer.join(10_000);
            assertThat(closer.isAlive()).as("close() returned").isFalse();
            assertThat(log.lines()).hasSize(40);
            assertThat(log.lines().get(39)).contains("path=/users/39 ");
            assertThat(logThreadAlive()).isFalse();
        }
    }

    /** Sends {@code request} {@code n} times in one go on one connection; returns the responses read. */
    private static int pipelined(int port, String request, int n) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            byte[] all = (request.repeat(n - 1) + request.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"))
                    .getBytes(StandardCharsets.US_ASCII);
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(all);
                    out.flush();
                } catch (Exception e) {
                    // the reader sees the short answer
                }
            });
            InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            writer.join();
            int count = 0;
            for (int i = text.indexOf("HTTP/1.1 200 "); i >= 0; i = text.indexOf("HTTP/1.1 200 ", i + 1)) {
                count++;
            }
            return count;
        }
    }
}
