package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The response side of {@code Context}: status, headers, bodies, streaming, redirects, header safety. */
class ResponseContextTest {
    private static final int LARGE_SIZE = 5 * 1024 * 1024 + 123;
    private static final AtomicBoolean streamClosed = new AtomicBoolean();
    private static BriskTestServer server;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.get("/status", ctx -> ctx.status(418).text("teapot"));
            cfg.get("/status-getter", ctx -> {
                int before = ctx.status();
                ctx.status(202);
                ctx.text(before + "->" + ctx.status());
            });
            cfg.get("/untouched", ctx -> { });
            cfg.get("/no-content-with-body", ctx -> ctx.status(204).text("dropped"));
            cfg.get("/headers", ctx -> ctx
                    .header("X-Replaced", "first")
                    .header("x-replaced", "second")
                    .addHeader("Set-Cookie", "a=1; Path=/")
                    .addHeader("Set-Cookie", "b=2; HttpOnly")
                    .header("X-Latin1", "café")
                    .text("rh=" + ctx.responseHeader("X-REPLACED") + " sc=" + ctx.responseHeader("set-cookie")
                            + " none=" + ctx.responseHeader("X-None")));
            cfg.get("/remove-headers", ctx -> ctx
                    .addHeader("Set-Cookie", "a=1")
                    .addHeader("set-cookie", "b=2")
                    .header("ETag", "\"v1\"")
                    .header("X-Kept", "yes")
                    .removeHeader("SET-COOKIE")
                    .removeHeader("etag")
                    .removeHeader("X-Never-Set")
                    .text("etag=" + ctx.responseHeader("ETag") + " removing Content-Length: "
                            + attempt(() -> ctx.removeHeader("Content-Length")) + " bad name: "
                            + attempt(() -> ctx.removeHeader("a b"))));
            cfg.get("/text", ctx -> ctx.text("héllo"));
            cfg.get("/html", ctx -> ctx.html("<p>héllo</p>"));
            cfg.get("/bytes", ctx -> ctx.bytes(new byte[] {1, 2, 3}));
            cfg.get("/bytes-typed", ctx -> ctx.contentType("image/png").bytes(new byte[] {(byte) 0x89, 'P', 'N', 'G'}));
            cfg.get("/bytes-header-typed", ctx -> ctx.header("Content-Type", "application/xml")
                    .bytes("<a/>".getBytes(StandardCharsets.UTF_8)));
            cfg.get("/content-type-after-text", ctx -> ctx.text("a,b").contentType("text/csv"));
            cfg.get("/body-twice", ctx -> ctx.text("first").html("<b>second</b>"));
            cfg.get("/add-content-type", ctx -> ctx.addHeader("Content-Type", "image/png")
                    .bytes(new byte[] {'P', 'N', 'G'}));

            cfg.get("/stream", ctx -> ctx.stream(new ByteArrayInputStream("streamed body".getBytes(StandardCharsets.UTF_8))));
            cfg.get("/stream-typed", ctx -> ctx.contentType("text/plain; charset=utf-8")
                    .stream(new ByteArrayInputStream("typed".getBytes(StandardCharsets.UTF_8))));
            cfg.get("/stream-large", ctx -> ctx.stream(new PatternStream(LARGE_SIZE, streamClosed)));
            cfg.get("/stream-replaced", ctx -> ctx.stream(new ByteArrayInputStream(new byte[] {1})).text("text wins"));

            cfg.get("/redirect", ctx -> ctx.redirect("/target"));
            cfg.get("/redirect-text", ctx -> ctx.redirect("/landing?q=café crème&sign=100%"));
            cfg.get("/landing", ctx -> ctx.text("q=" + ctx.queryParam("q") + " sign=" + ctx.queryParam("sign")));
            cfg.get("/redirect/{status}", ctx -> ctx.redirect("https://example.com/x?y=1",
                    Integer.parseInt(ctx.pathParam("status"))));

            cfg.get("/bad-header", ctx -> ctx.text(String.join("\n",
                    attempt(() -> ctx.header("X-Injected", "a\r\nSet-Cookie: evil=1")),
                    attempt(() -> ctx.header("X-Injected", "a\nb")),
                    attempt(() -> ctx.addHeader("X-Injected", "a\rb")),
                    attempt(() -> ctx.header("X-Nul", "a\u0000b")),
                    attempt(() -> ctx.header("Bad Name", "v")),
                    attempt(() -> ctx.header("X-Wide", "snow ☃")),
                    attempt(() -> ctx.redirect("/x\r\nX-Evil: 1")),
                    attempt(() -> ctx.contentType("text/plain\r\nX-Evil: 1")),
                    attempt(() -> ctx.header("X-Ok", "fine\tvalue")))));
            cfg.get("/interim-status", ctx -> {
                String report = "status 100: " + attempt(() -> ctx.status(100))
                        + ", status 101: " + attempt(() -> ctx.status(101))
                        + ", status 199: " + attempt(() -> ctx.status(199));
                ctx.status(200).text(report); // a 1xx left in place would leave the client waiting
            });
            cfg.get("/final-1xx", ctx -> ctx.status(103));
            cfg.get("/big-header", ctx -> ctx.header("X-Big", "h".repeat(40_000)).text("big header"));
            cfg.get("/stream-fails", ctx -> ctx.stream(new InputStream() {
                private int sent;

                @Override
                public int read() throws IOException {
                    if (sent == 100) {
                        throw new IOException("source broke");
                    }
                    sent++;
                    return 'z';
                }
            }));
            cfg.get("/framing-headers", ctx -> {
                List<String> out = new ArrayList<>();
                for (String name : new String[] {"Content-Length", "content-length", "Transfer-Encoding",
                        "Connection", "Date"}) {
                    out.add(name + " set: " + attempt(() -> ctx.header(name, "close")));
                    out.add(name + " add: " + attempt(() -> ctx.addHeader(name, "0")));
                }
                out.add("status 99: " + attempt(() -> ctx.status(99)));
                out.add("status 600: " + attempt(() -> ctx.status(600)));
                out.add("redirect 200: " + attempt(() -> ctx.redirect("/x", 200)));
                out.add("stream null: " + attempt(() -> ctx.stream(null)));
                ctx.text(String.join("\n", out));
            });
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Runs {@code action} in a handler and reports what happened, so the test can see the exception. */
    private static String attempt(Runnable action) {
        try {
            action.run();
            return "ok";
        } catch (IllegalArgumentException e) {
            return "IAE";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static RawConnection.Response raw(String path) {
        try (RawConnection c = server.raw()) {
            c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
            return c.read();
        }
    }

    private static HttpResponse<byte[]> getBytes(String path) {
        try {
            return server.client().send(server.request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // ---- status -----------------------------------------------------------------------------

    @Test
    void statusIsSent() {
        HttpResponse<String> r = server.get("/status");
        assertThat(r.statusCode()).isEqualTo(418);
        assertThat(r.body()).isEqualTo("teapot");
    }

    @Test
    void statusGetterReportsDefaultAndSetValue() {
        HttpResponse<String> r = server.get("/status-getter");
        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(r.body()).isEqualTo("200->202");
    }

    @Test
    void untouchedContextIs200WithEmptyBody() {
        RawConnection.Response r = raw("/untouched");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Length")).isEqualTo("0");
        assertThat(r.bodyBytes()).isEmpty();
    }

    @Test
    void noContentStatusDropsTheBody() {
        try (RawConnection c = server.raw()) {
            c.send("GET /no-content-with-body HTTP/1.1\r\nHost: x\r\n\r\nGET /status HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response first = c.read();
            assertThat(first.status()).isEqualTo(204);
            assertThat(first.header("Content-Length")).isNull();
            assertThat(first.header("Content-Type")).isNull();
            // nothing of "dropped" may precede the next response on the connection
            RawConnection.Response second = c.read();
            assertThat(second.status()).isEqualTo(418);
            assertThat(second.body()).isEqualTo("teapot");
        }
    }

    // ---- headers ----------------------------------------------------------------------------

    @Test
    void removeHeaderTakesEveryValueOfTheFieldAndRefusesFramingFields() {
        RawConnection.Response r = raw("/remove-headers");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Set-Cookie")).as("both values removed").isNull();
        assertThat(r.header("ETag")).isNull();
        assertThat(r.header("X-Kept")).isEqualTo("yes");
        assertThat(r.body()).isEqualTo("etag=null removing Content-Length: IAE bad name: IAE");
    }

    @Test
    void headerReplacesAndAddHeaderAccumulates() {
        HttpResponse<String> r = server.get("/headers");
        assertThat(r.headers().allValues("X-Replaced")).containsExactly("second");
        assertThat(r.headers().allValues("Set-Cookie")).containsExactly("a=1; Path=/", "b=2; HttpOnly");
        assertThat(r.body()).isEqualTo("rh=second sc=a=1; Path=/ none=null");
    }

    @Test
    void latin1HeaderValueIsWrittenAsLatin1() {
        try (RawConnection c = server.raw()) {
            c.send("GET /headers HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().header("X-Latin1")).isEqualTo("café");
        }
    }

    // ---- bodies and content types -----------------------------------------------------------

    @Test
    void textHtmlAndBytesSetTheirContentTypes() {
        HttpResponse<String> text = server.get("/text");
        assertThat(text.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(text.body()).isEqualTo("héllo");
        assertThat(text.headers().firstValue("Content-Length")).hasValue("6");

        HttpResponse<String> html = server.get("/html");
        assertThat(html.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(html.body()).isEqualTo("<p>héllo</p>");

        HttpResponse<byte[]> bytes = getBytes("/bytes");
        assertThat(bytes.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(bytes.body()).containsExactly(1, 2, 3);
    }

    @Test
    void contentTypeSetBeforeBytesIsKept() {
        HttpResponse<byte[]> png = getBytes("/bytes-typed");
        assertThat(png.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(png.body()).containsExactly(0x89, 'P', 'N', 'G');

        HttpResponse<String> xml = server.get("/bytes-header-typed");
        assertThat(xml.headers().allValues("Content-Type")).containsExactly("application/xml");
        assertThat(xml.body()).isEqualTo("<a/>");
    }

    @Test
    void contentTypeSetAfterTextOverridesIt() {
        HttpResponse<String> r = server.get("/content-type-after-text");
        assertThat(r.headers().allValues("Content-Type")).containsExactly("text/csv");
        assertThat(r.body()).isEqualTo("a,b");
    }

    @Test
    void settingABodyTwiceKeepsTheSecond() {
        HttpResponse<String> r = server.get("/body-twice");
        assertThat(r.body()).isEqualTo("<b>second</b>");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    }

    @Test
    void addHeaderContentTypeDoesNotDuplicateTheHeader() {
        // observed: [application/octet-stream, image/png]
        HttpResponse<String> r = server.get("/add-content-type");
        assertThat(r.headers().allValues("Content-Type")).containsExactly("image/png");
        assertThat(r.body()).isEqualTo("PNG");
    }

    // ---- streaming --------------------------------------------------------------------------

    @Test
    void streamIsSentChunked() {
        RawConnection.Response r = raw("/stream");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
        assertThat(r.header("Content-Length")).isNull();
        assertThat(r.header("Content-Type")).isEqualTo("application/octet-stream");
        assertThat(r.body()).isEqualTo("streamed body");
    }

    @Test
    void streamKeepsAContentTypeSetBefore() {
        HttpResponse<String> r = server.get("/stream-typed");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(r.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(r.body()).isEqualTo("typed");
    }

    @Test
    void streamedConnectionStaysUsableAfterTheLastChunk() {
        try (RawConnection c = server.raw()) {
            c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("streamed body");
            c.send("GET /status HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(418);
        }
    }

    @Test
    void largeStreamArrivesCompleteAndTheStreamIsClosed() throws Exception {
        streamClosed.set(false);
        HttpResponse<byte[]> r = getBytes("/stream-large");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(r.body()).hasSize(LARGE_SIZE);
        byte[] expected = new PatternStream(LARGE_SIZE, new AtomicBoolean()).readAllBytes();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        assertThat(sha.digest(r.body())).isEqualTo(MessageDigest.getInstance("SHA-256").digest(expected));
        assertThat(streamClosed).isTrue();
    }

    @Test
    void largeStreamOverARawSocketIsChunkedAndComplete() {
        try (RawConnection c = server.raw()) {
            c.send("GET /stream-large HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(r.bodyBytes()).hasSize(LARGE_SIZE);
            assertThat(r.bodyBytes()[LARGE_SIZE - 1]).isEqualTo(PatternStream.byteAt(LARGE_SIZE - 1));
        }
    }

    @Test
    void headOfAStreamRouteSendsNoBody() {
        try (RawConnection c = server.raw()) {
            c.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /status HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = c.read(true);
            assertThat(head.status()).isEqualTo(200);
            RawConnection.Response next = c.read();
            assertThat(next.status()).isEqualTo(418);
            assertThat(next.body()).isEqualTo("teapot");
        }
    }

    @Test
    void aBodySetAfterAStreamReplacesIt() {
        RawConnection.Response r = raw("/stream-replaced");
        assertThat(r.header("Transfer-Encoding")).isNull();
        assertThat(r.body()).isEqualTo("text wins");
    }

    // ---- redirects --------------------------------------------------------------------------

    @Test
    void redirectDefaultsTo302() {
        HttpResponse<String> r = server.get("/redirect");
        assertThat(r.statusCode()).isEqualTo(302);
        assertThat(r.headers().firstValue("Location")).hasValue("/target");
        assertThat(r.body()).isEmpty();
    }

    @Test
    void aRedirectToTextIsPercentEncodedAndAClientFollowsIt() {
        HttpResponse<String> r = server.get("/redirect-text");
        assertThat(r.statusCode()).isEqualTo(302);
        assertThat(r.headers().firstValue("Location")).hasValue("/landing?q=caf%C3%A9%20cr%C3%A8me&sign=100%25");
        HttpClient following = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<String> landed;
        try {
            landed = following.send(server.request("/redirect-text").build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(landed.statusCode()).isEqualTo(200);
        assertThat(landed.body()).isEqualTo("q=café crème sign=100%");
    }

    @ParameterizedTest
    @ValueSource(ints = {301, 302, 303, 307, 308})
    void redirectWithStatus(int status) {
        HttpResponse<String> r = server.get("/redirect/" + status);
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(r.headers().firstValue("Location")).hasValue("https://example.com/x?y=1");
    }

    @Test
    void redirectWithANonRedirectStatusIsRefused() {
        HttpResponse<String> r = server.get("/redirect/200");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.headers().firstValue("Location")).isEmpty();
    }

    // ---- header safety ----------------------------------------------------------------------

    @Test
    void unsafeHeaderValuesAreRefusedInTheHandler() {
        HttpResponse<String> r = server.get("/bad-header");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body().split("\n")).containsExactly("IAE", "IAE", "IAE", "IAE", "IAE", "IAE", "IAE", "IAE", "ok");
        assertThat(r.headers().map()).doesNotContainKeys("x-injected", "x-evil", "x-nul", "location");
        assertThat(r.headers().allValues("Set-Cookie")).isEmpty();
        try (RawConnection c = server.raw()) {
            // checked on the wire: the JDK client folds the tab
            c.send("GET /bad-header HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().header("X-Ok")).isEqualTo("fine\tvalue");
        }
    }

    @Test
    void framingHeadersAndBadStatusesAreRefused() {
        HttpResponse<String> r = server.get("/framing-headers");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body().split("\n")).containsExactly(
                "Content-Length set: IAE", "Content-Length add: IAE",
                "content-length set: IAE", "content-length add: IAE",
                "Transfer-Encoding set: IAE", "Transfer-Encoding add: IAE",
                "Connection set: IAE", "Connection add: IAE",
                "Date set: IAE", "Date add: IAE",
                "status 99: IAE", "status 600: IAE", "redirect 200: IAE", "stream null: IAE");
        // the real framing is the server's own
        assertThat(r.headers().allValues("Content-Length")).containsExactly(
                String.valueOf(r.body().getBytes(StandardCharsets.UTF_8).length));
        assertThat(r.headers().allValues("Connection")).doesNotContain("close");
        assertThat(r.headers().allValues("Transfer-Encoding")).isEmpty();
    }

    @Test
    void interimStatusesAreRefusedAsFinalStatus() {
        // observed: "status 100: ok, status 101: ok, status 199: ok"
        HttpResponse<String> r = server.get("/interim-status");
        assertThat(r.body()).isEqualTo("status 100: IAE, status 101: IAE, status 199: IAE");

        // observed: only "HTTP/1.1 103 Informational", Date and a blank line are written; no final response
        try (RawConnection c = server.raw()) {
            c.timeout(1_000);
            c.send("GET /final-1xx HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response first = c.read(true);
            assertThat(first.status()).isBetween(200, 599);
        }
    }

    @Test
    void responseHeadsLargerThanTheOutputBufferAreWritten() {
        try (RawConnection c = server.raw()) {
            c.send("GET /big-header HTTP/1.1\r\nHost: x\r\n\r\nGET /status HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("X-Big")).hasSize(40_000);
            assertThat(r.body()).isEqualTo("big header");
            assertThat(c.read().status()).isEqualTo(418);
        }
    }

    @Test
    void failingStreamEndsTheResponseByClosingTheConnection() {
        try (RawConnection c = server.raw()) {
            c.send("GET /stream-fails HTTP/1.1\r\nHost: x\r\n\r\n");
            // no terminating zero-length chunk: the client can tell the body is incomplete
            assertThatThrownBy(c::read).isInstanceOf(UncheckedIOException.class);
        }
        assertThat(server.get("/status").statusCode()).as("the server keeps serving").isEqualTo(418);
    }

    @Test
    void streamToAnHttp10ClientIsDelimitedByClose() {
        try (RawConnection c = server.raw()) {
            c.send("GET /stream HTTP/1.0\r\n\r\n");
            String all = c.readAll();
            assertThat(all).startsWith("HTTP/1.1 200 ").doesNotContainIgnoringCase("Transfer-Encoding")
                    .doesNotContainIgnoringCase("Content-Length").endsWith("\r\n\r\nstreamed body");
        }
    }

    @Test
    void postBodyIsIgnoredWhenTheHandlerDoesNotReadIt() {
        // a body nobody reads must not corrupt the next request on the connection
        HttpResponse<String> r = server.send(server.request("/status").method("GET", BodyPublishers.ofString("ignored"))
                .build());
        assertThat(r.statusCode()).isEqualTo(418);
        assertThat(server.get("/status").body()).isEqualTo("teapot");
    }

    /** A deterministic byte pattern of a given length, read in uneven pieces. */
    static final class PatternStream extends InputStream {
        private final int size;
        private final AtomicBoolean closed;
        private int pos;

        PatternStream(int size, AtomicBoolean closed) {
            this.size = size;
            this.closed = closed;
        }

        static byte byteAt(int i) {
            return (byte) ((i * 7) ^ (i >>> 9));
        }

        @Override
        public int read() {
            return pos < size ? byteAt(pos++) & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= size) {
                return -1;
            }
            int n = Math.min(Math.min(len, 10_007), size - pos);
            for (int i = 0; i < n; i++) {
                b[off + i] = byteAt(pos++);
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            closed.set(true);
        }
    }
}
