package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.AccessLogMode;
import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.Dispatch;
import dev.brisk.testing.Engine;
import dev.brisk.tls.TestKeys;
import dev.brisk.testing.Tools;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 17, HTTP/2 through real clients on every engine: the JDK {@link HttpClient} (h2 over TLS, with
 * a test certificate), {@code curl --http2} over TLS and {@code curl --http2-prior-knowledge} in the
 * clear, and {@code h2load} (many streams at once, both ways; {@code .ci/run} installs it, and
 * {@code BRISK_REQUIRE_H2LOAD=1} makes its absence a failure). The same handlers answer whichever protocol carried the request, so each answer is
 * compared with what HTTP/1.1 gives.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class Http2ClientsTest {
    static TestKeys.Key key;
    static final byte[] BIG = new byte[700_000];

    @Parameter
    Engine engine;

    @TempDir
    Path dir;

    private Brisk app;

    @BeforeAll
    static void keys() throws Exception {
        key = TestKeys.shared().server();
        new Random(17).nextBytes(BIG);
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    static void routes(BriskConfig cfg) {
        cfg.options().maxBodySize(8 << 20);
        cfg.get("/hello", ctx -> ctx.text("hello"));
        cfg.get("/users/{id}", ctx -> ctx.header("X-User", ctx.pathParam("id"))
                .text("user " + ctx.pathParam("id") + " q=" + ctx.queryParam("q")));
        cfg.get("/headers", ctx -> ctx.text("host=" + ctx.header("Host") + " ua=" + ctx.header("User-Agent")
                + " x=" + ctx.headers("X-Multi") + " tls=" + (ctx.tls() == null ? "-" : ctx.tls().applicationProtocol())));
        cfg.post("/echo", ctx -> ctx.contentType("application/octet-stream").bytes(ctx.body()));
        cfg.get("/big", ctx -> ctx.bytes(BIG));
        cfg.get("/buffer", ctx -> ctx.bytes(java.nio.ByteBuffer.wrap(BIG).asReadOnlyBuffer()));
        cfg.get("/stream", ctx -> ctx.stream(new ByteArrayInputStream(BIG)));
        cfg.get("/empty", ctx -> ctx.status(204));
        cfg.get("/unicode", ctx -> ctx.text("h\u00e9llo \u4e16\u754c"));
        cfg.get("/slow/{ms}", ctx -> {
            Thread.sleep(Long.parseLong(ctx.pathParam("ms")));
            ctx.text("slept");
        });
        cfg.get("/loop", ctx -> ctx.text("on the loop")).dispatch(Dispatch.EVENT_LOOP);
        cfg.get("/workers", ctx -> ctx.text("on a worker")).dispatch(Dispatch.WORKER_POOL);
        cfg.get("/boom", ctx -> {
            throw new IllegalStateException("boom");
        });
    }

    private Brisk start(Consumer<BriskConfig> options) {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(2));
            options.accept(cfg);
            routes(cfg);
        }).start();
        return app;
    }

    private Brisk startTls() {
        return start(cfg -> cfg.options().tlsPem(key.certPem(), key.keyPem()));
    }

    private static HttpClient h2(javax.net.ssl.SSLContext ctx) {
        return HttpClient.newBuilder().sslContext(ctx).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private String https(String path) {
        return "https://localhost:" + app.port() + path;
    }

    private static HttpResponse<byte[]> send(HttpClient c, HttpRequest.Builder r) throws Exception {
        return c.send(r.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void jdkClientOverTlsSpeaksH2() throws Exception {
        startTls();
        HttpClient c = h2(key.trustingContext());
        HttpResponse<byte[]> r = send(c, HttpRequest.newBuilder(URI.create(https("/users/42?q=a%20b"))));
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("user 42 q=a b");
        assertThat(r.headers().firstValue("x-user")).hasValue("42");
        assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(r.headers().firstValue("content-length")).hasValue("13");
        assertThat(r.headers().firstValue("date")).isPresent();

        HttpResponse<byte[]> h = send(c, HttpRequest.newBuilder(URI.create(https("/headers")))
                .header("X-Multi", "a").header("X-Multi", "b").header("User-Agent", "jdk-test"));
        assertThat(new String(h.body(), StandardCharsets.UTF_8))
                .isEqualTo("host=localhost:" + app.port() + " ua=jdk-test x=[a, b] tls=h2");

        assertThat(send(c, HttpRequest.newBuilder(URI.create(https("/unicode")))).body())
                .isEqualTo("h\u00e9llo \u4e16\u754c".getBytes(StandardCharsets.UTF_8));
        assertThat(send(c, HttpRequest.newBuilder(URI.create(https("/nope")))).statusCode()).isEqualTo(404);
        assertThat(send(c, HttpRequest.newBuilder(URI.create(https("/hello"))).DELETE()).statusCode()).isEqualTo(405);
        assertThat(send(c, HttpRequest.newBuilder(URI.create(https("/boom")))).statusCode()).isEqualTo(500);
        HttpResponse<byte[]> empty = send(c, HttpRequest.newBuilder(URI.create(https("/empty"))));
        assertThat(empty.statusCode()).isEqualTo(204);
        assertThat(empty.body()).isEmpty();
        HttpResponse<byte[]> head = send(c, HttpRequest.newBuilder(URI.create(https("/big")))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("content-length")).hasValue(Integer.toString(BIG.length));
        assertThat(head.body()).isEmpty();
        assertThat(new String(send(c, HttpRequest.newBuilder(URI.create(https("/loop")))).body(),
                StandardCharsets.UTF_8)).isEqualTo("on the loop");
        assertThat(new String(send(c, HttpRequest.newBuilder(URI.create(https("/workers")))).body(),
                StandardCharsets.UTF_8)).isEqualTo("on a worker");
    }

    @Test
    void largeBodiesBothWaysWithinTheWindows() throws Exception {
        startTls();
        HttpClient c = h2(key.trustingContext());
        for (String path : List.of("/big", "/buffer", "/stream")) {
            HttpResponse<byte[]> r = send(c, HttpRequest.newBuilder(URI.create(https(path))));
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.body()).as(path).isEqualTo(BIG);
        }
        byte[] up = new byte[3_000_000];
        new Random(3).nextBytes(up);
        HttpResponse<byte[]> echo = send(c, HttpRequest.newBuilder(URI.create(https("/echo")))
                .POST(HttpRequest.BodyPublishers.ofByteArray(up)));
        assertThat(echo.statusCode()).isEqualTo(200);
        assertThat(echo.body()).isEqualTo(up);
    }

    @Test
    void aClientThatWaitsFor100ContinueGetsIt() throws Exception {
        startTls();
        HttpClient c = h2(key.trustingContext());
        send(c, HttpRequest.newBuilder(URI.create(https("/hello")))); // h2 settled on the connection first
        byte[] up = "a body after 100 Continue".getBytes(StandardCharsets.US_ASCII);
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = send(c, HttpRequest.newBuilder(URI.create(https("/echo"))).expectContinue(true)
                .POST(HttpRequest.BodyPublishers.ofByteArray(up)));
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(up);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("no wait for the client's own timeout")
                .isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void manyStreamsAtOnceOnOneConnection() throws Exception {
        startTls();
        HttpClient c = h2(key.trustingContext());
        send(c, HttpRequest.newBuilder(URI.create(https("/hello")))); // one connection, then 60 streams on it
        List<CompletableFuture<HttpResponse<byte[]>>> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String path = i % 3 == 0 ? "/big" : i % 3 == 1 ? "/users/" + i : "/slow/20";
            all.add(c.sendAsync(HttpRequest.newBuilder(URI.create(https(path))).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (int i = 0; i < all.size(); i++) {
            HttpResponse<byte[]> r = all.get(i).get(40, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
            byte[] expected = i % 3 == 0 ? BIG : i % 3 == 1 ? ("user " + i + " q=null").getBytes(StandardCharsets.UTF_8)
                    : "slept".getBytes(StandardCharsets.UTF_8);
            assertThat(r.body()).as("stream %d", i).isEqualTo(expected);
        }
        assertThat(app.metrics().connectionsAccepted()).as("multiplexed on one connection").isEqualTo(1);
    }

    @Test
    void curlOverTlsAndInTheClear() throws Exception {
        assumeTrue(Tools.onPath("curl"), "curl is not installed");
        startTls();
        String tls = curl("--http2", "--cacert", key.certPem().toString(), "-w", "\n%{http_version}",
                https("/users/7?q=x"));
        assertThat(tls).isEqualTo("user 7 q=x\n2");
        app.close();
        Path files = Files.createDirectories(dir.resolve("files"));
        Files.write(files.resolve("big.bin"), BIG);
        start(cfg -> cfg.staticFiles("/files", dev.brisk.StaticFiles.directory(files)));
        String base = "http://127.0.0.1:" + app.port();
        assertThat(curl("--http2-prior-knowledge", "-w", "\n%{http_version}", base + "/hello")).isEqualTo("hello\n2");
        // a file says its length over HTTP/2 as over HTTP/1.1: on GET and on HEAD
        assertThat(curl("--http2-prior-knowledge", "-I", base + "/files/big.bin"))
                .contains("HTTP/2 200").contains("content-length: " + BIG.length);
        assertThat(curl("--http2-prior-knowledge", "-s", "-D", "-", "-o", "/dev/null", base + "/files/big.bin"))
                .contains("content-length: " + BIG.length);
        // an expectation it cannot meet is a 417, as over HTTP/1.1
        assertThat(curl("--http2-prior-knowledge", "-H", "Expect: something", "-w", "%{http_code}", "-o", "/dev/null",
                base + "/hello")).isEqualTo("417");
        Path big = dir.resolve("big.bin");
        Files.write(big, BIG);
        Path got = dir.resolve("got.bin");
        assertThat(curl("--http2-prior-knowledge", "--data-binary", "@" + big, "-o", got.toString(), "-w",
                "%{http_code} %{http_version}", base + "/echo")).isEqualTo("200 2");
        assertThat(Files.readAllBytes(got)).isEqualTo(BIG);
        assertThat(curl("--http2-prior-knowledge", "-o", got.toString(), "-w", "%{size_download}", base + "/stream"))
                .isEqualTo(Integer.toString(BIG.length));
        assertThat(curl("--http2-prior-knowledge", "-I", base + "/hello"))
                .contains("HTTP/2 200").contains("content-length: 5");
        // and HTTP/1.1 on the same port, as before
        assertThat(curl("--http1.1", "-w", " %{http_version}", base + "/hello")).isEqualTo("hello 1.1");
    }

    @Test
    void h2loadManyStreamsInTheClearAndOverTls() throws Exception {
        Tools.need("h2load", "BRISK_REQUIRE_H2LOAD", "nghttp2-client");
        start(cfg -> { });
        String clear = h2load("http://127.0.0.1:" + app.port() + "/users/5");
        assertThat(clear).contains("requests: 4000 total, 4000 started, 4000 done, 4000 succeeded, 0 failed")
                .contains("status codes: 4000 2xx");
        app.close();
        startTls();
        String tls = h2load("https://127.0.0.1:" + app.port() + "/users/6");
        assertThat(tls).contains("Application protocol: h2")
                .contains("requests: 4000 total, 4000 started, 4000 done, 4000 succeeded, 0 failed");
    }

    /** h2load: 4 connections of 20 streams at once, 4000 requests; its whole output. */
    private static String h2load(String url) throws Exception {
        Process p = new ProcessBuilder("h2load", "-n", "4000", "-c", "4", "-m", "20", "-T", "20", url)
                .redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("h2load finished").isTrue();
        return out;
    }

    @Test
    void theJdkClientsUpgradeToH2cIsAnsweredWithHttp11() throws Exception {
        // Upgrade: h2c (RFC 7540 3.2) is not implemented: RFC 9113 deprecates it. The client's request is
        // served as the HTTP/1.1 request it also is.
        start(cfg -> { });
        HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<byte[]> r = send(c, HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/hello")));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
    }

    @Test
    void h2cOffAnswersThePrefaceAsAnHttp11Request() throws Exception {
        start(cfg -> cfg.options().h2c(false));
        try (Socket s = new Socket("127.0.0.1", app.port())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 505 ");
        }
    }

    @Test
    void http2OffOffersOnlyHttp11ByAlpn() throws Exception {
        start(cfg -> cfg.options().tlsPem(key.certPem(), key.keyPem()).http2(false));
        HttpResponse<byte[]> r = send(h2(key.trustingContext()), HttpRequest.newBuilder(URI.create(https("/headers"))));
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).endsWith("tls=http/1.1");
    }

    @Test
    void accessLogAndMetricsCountStreamsWithTheirProtocol() throws Exception {
        Logger logger = Logger.getLogger("brisk.access");
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                lines.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level before = logger.getLevel();
        logger.setLevel(Level.INFO);
        logger.setUseParentHandlers(false);
        logger.addHandler(h);
        try {
            start(cfg -> cfg.options().tlsPem(key.certPem(), key.keyPem()).accessLog(AccessLogMode.FULL));
            HttpClient c = h2(key.trustingContext());
            send(c, HttpRequest.newBuilder(URI.create(https("/users/9"))).header("X-Request-Id", "req-9"));
            long responses = app.metrics().requests();
            assertThat(app.metrics().requestsByProtocol()).containsEntry("h2", 1L).containsEntry("h2c", 0L)
                    .containsEntry("http/1.1", 0L);
            app.close(); // the log is written out at close
            app = null;
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("method=GET route=/users/{id} path=/users/9 status=200")
                    .contains("request_id=req-9").endsWith("protocol=h2"));
            assertThat(responses).isGreaterThanOrEqualTo(1);
        } finally {
            logger.removeHandler(h);
            logger.setLevel(before);
            logger.setUseParentHandlers(true);
        }
    }

    /** Runs {@code curl -sS --max-time 20 args...}: its output. */
    private static String curl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(25, TimeUnit.SECONDS)).as("curl finished").isTrue();
        return out.replace("\r\n", "\n");
    }

}
