package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.LogCapture;
import dev.brisk.testing.RawConnection;
import dev.brisk.testing.Tools;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Response trailer fields ({@code Context.trailers}) on every engine, over HTTP/1.1 (after the last
 * chunk, a sized body sent chunked) as a raw client and curl read them, and over HTTP/2 as curl reads
 * them (the frames themselves: {@code Http2TrailersTest}). The supplier runs after the body: the
 * stream's route reports in a trailer how many bytes its stream gave.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class ResponseTrailersTest {
    static final int PIECES = 3;
    static final int PIECE = 10 * 1024;

    @Parameter
    Engine engine;

    private BriskTestServer server;
    private Path files;

    @BeforeEach
    void start() throws Exception {
        files = Files.createTempDirectory("brisk-trailers");
        byte[] file = new byte[200_000];
        Arrays.fill(file, (byte) 'f');
        Files.write(files.resolve("big.bin"), file);
        server = BriskTestServer.start(engine, cfg -> {
            cfg.staticFiles("/files", dev.brisk.StaticFiles.directory(files));
            cfg.use(next -> ctx -> {
                next.handle(ctx);
                if (ctx.path().startsWith("/files/")) {
                    ctx.trailers(() -> Map.of("X-File", "sent"));
                }
            });
            cfg.get("/stream", ctx -> {
                AtomicLong given = new AtomicLong();
                ctx.stream(new InputStream() {
                    private int left = PIECES * PIECE;

                    @Override
                    public int read() {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public int read(byte[] b, int off, int len) {
                        if (left == 0) {
                            return -1;
                        }
                        int n = Math.min(Math.min(len, PIECE), left);
                        Arrays.fill(b, off, off + n, (byte) 'x');
                        left -= n;
                        given.addAndGet(n);
                        return n;
                    }
                }).header("Trailer", "X-Bytes").trailers(() -> Map.of("X-Bytes", Long.toString(given.get())));
            });
            cfg.get("/text", ctx -> ctx.text("hello").trailers(() -> Map.of("X-Sum", "5")));
            cfg.get("/none", ctx -> ctx.text("plain").trailers(Map::of));
            cfg.get("/no-content", ctx -> ctx.status(204).trailers(() -> Map.of("X-Sum", "0")));
            cfg.get("/throws", ctx -> ctx.text("partial").trailers(() -> {
                throw new IllegalStateException("no checksum today");
            }));
            cfg.get("/forbidden", ctx -> ctx.text("partial").trailers(() -> Map.of("Content-Length", "7")));
            cfg.get("/throws-error", ctx -> ctx.text("partial").trailers(() -> {
                throw new AssertionError("an Error, not an exception");
            }));
            cfg.get("/missing", ctx -> ctx.status(404).text("the handler's").trailers(() -> Map.of("X-Sum", "1")));
            cfg.error(404, ctx -> ctx.text("the error page's"));
            cfg.get("/failing-handler", ctx -> {
                ctx.trailers(() -> Map.of("X-Sum", "1"));
                throw new IllegalStateException("the handler failed after setting trailers");
            });
        });
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        Files.deleteIfExists(files.resolve("big.bin"));
        Files.deleteIfExists(files);
    }

    @Test
    void aStreamEndsWithTheTrailersItsSupplierMadeAfterTheLastByteAndTheConnectionGoesOn() {
        try (RawConnection c = server.raw()) {
            c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(r.header("Trailer")).isEqualTo("X-Bytes");
            assertThat(r.bodyBytes()).hasSize(PIECES * PIECE);
            assertThat(r.trailers()).containsExactly(Map.entry("x-bytes", Integer.toString(PIECES * PIECE)));
            // the framing held: the connection serves its next request
            c.send("GET /text HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response next = c.read();
            assertThat(next.body()).isEqualTo("hello");
            assertThat(next.trailers()).containsExactly(Map.entry("x-sum", "5"));
        }
    }

    @Test
    void aBodyOfKnownLengthIsSentChunkedSoThatItsTrailersCanFollow() {
        try (RawConnection c = server.raw()) {
            c.send("GET /text HTTP/1.1\r\nHost: x\r\n\r\nGET /none HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.header("Content-Length")).isNull();
            assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(r.body()).isEqualTo("hello");
            assertThat(r.trailers()).containsExactly(Map.entry("x-sum", "5"));
            RawConnection.Response none = c.read(); // an empty map: the plain last chunk
            assertThat(none.body()).isEqualTo("plain");
            assertThat(none.trailers()).isEmpty();
        }
    }

    @Test
    void http10HeadAndNoContentAnswersCarryNoTrailers() {
        try (RawConnection c = server.raw()) {
            c.send("GET /text HTTP/1.0\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.header("Transfer-Encoding")).isNull();
            assertThat(r.body()).isEqualTo("hello");
        }
        try (RawConnection c = server.raw()) {
            c.send("HEAD /text HTTP/1.1\r\nHost: x\r\n\r\nGET /no-content HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = c.read(true);
            assertThat(head.header("Content-Length")).isEqualTo("5");
            assertThat(head.header("Transfer-Encoding")).isNull();
            RawConnection.Response noContent = c.read();
            assertThat(noContent.status()).isEqualTo(204);
            assertThat(noContent.header("Transfer-Encoding")).isNull();
        }
    }

    @Test
    void anErrorAnswerReplacingTheHandlersDropsItsTrailers() {
        try (RawConnection c = server.raw()) {
            c.send("GET /failing-handler HTTP/1.1\r\nHost: x\r\n\r\nGET /missing HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.header("Transfer-Encoding")).isNull();
            assertThat(r.trailers()).isEmpty();
            RawConnection.Response page = c.read(); // the status's error page replaced the handler's body
            assertThat(page.status()).isEqualTo(404);
            assertThat(page.body()).isEqualTo("the error page's");
            assertThat(page.header("Transfer-Encoding")).isNull();
        }
    }

    /** A file (sent straight from its file where the engine can) goes as chunks when it has trailers. */
    @Test
    void aFileWithTrailersIsSentChunked() {
        try (RawConnection c = server.raw()) {
            c.send("GET /files/big.bin HTTP/1.1\r\nHost: x\r\n\r\nGET /text HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(r.header("Content-Length")).isNull();
            assertThat(r.bodyBytes()).hasSize(200_000);
            assertThat(r.trailers()).containsExactly(Map.entry("x-file", "sent"));
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void aSupplierThatThrowsOrAForbiddenFieldCutsTheAnswerAndIsLogged() {
        try (LogCapture log = LogCapture.install("ResponseTrailersTest")) {
            for (String path : List.of("/throws", "/forbidden", "/throws-error")) {
                try (RawConnection c = server.raw()) {
                    c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
                    String all = c.readAll(); // the server closes
                    assertThat(all).as(path).startsWith("HTTP/1.1 200").contains("\r\n7\r\npartial\r\n")
                            .doesNotContain("\r\n0\r\n");
                }
            }
            assertThat(log.severe()).as("ERROR records").hasSize(3)
                    .allSatisfy(m -> assertThat(m).contains("trailer fields failed"))
                    .anySatisfy(m -> assertThat(m).contains("no checksum today"))
                    .anySatisfy(m -> assertThat(m).contains("an Error, not an exception"))
                    .anySatisfy(m -> assertThat(m).contains("Content-Length may not be sent as a trailer field"));
        }
    }

    @Test
    void curlReadsTheTrailersOverHttp11AndHttp2() throws Exception {
        assumeTrue(Tools.onPath("curl"), "curl is not installed");
        String base = "http://127.0.0.1:" + server.port();
        String h1 = curl("--http1.1", "-s", "-D", "-", "-o", "/dev/null", base + "/stream");
        assertThat(h1).contains("X-Bytes: " + PIECES * PIECE);
        String h2 = curl("--http2-prior-knowledge", "-s", "-D", "-", "-o", "/dev/null", base + "/stream");
        assertThat(h2).startsWith("HTTP/2 200").contains("x-bytes: " + PIECES * PIECE);
        String text = curl("--http2-prior-knowledge", "-s", "-D", "-", "-o", "/dev/null", base + "/text");
        assertThat(text).contains("x-sum: 5");
        String file = curl("--http2-prior-knowledge", "-s", "-D", "-", "-o", "/dev/null", "-w", "%{size_download}",
                base + "/files/big.bin");
        assertThat(file).contains("x-file: sent").endsWith("200000").doesNotContain("content-length");
    }

    private static String curl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "--max-time", "20"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("curl's exit status; output: %s", out).isZero();
        return out;
    }

}
