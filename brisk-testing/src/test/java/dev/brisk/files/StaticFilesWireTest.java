package dev.brisk.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.StaticFiles;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Static files on the wire, with the bytes written out: bodies, HEAD, validators, directories, hostile paths. */
@ParameterizedClass
@EnumSource(Engine.class)
class StaticFilesWireTest {
    @Parameter
    Engine engine;

    @TempDir
    Path tmp;

    private StaticTree tree;

    private BriskTestServer start(UnaryOperator<StaticFiles> files) {
        tree = StaticTree.under(tmp);
        return BriskTestServer.start(engine, cfg -> {
            cfg.options().shutdownTimeout(Duration.ofSeconds(1)).ioThreads(2);
            cfg.staticFiles("/static", files.apply(StaticFiles.directory(tree.root)));
            cfg.get("/hello", ctx -> ctx.text("hello"));
        });
    }

    private BriskTestServer start() {
        return start(f -> f);
    }

    /** The head with its Date line removed (the only line that changes from run to run). */
    static String withoutDate(String head) {
        return head.replaceFirst("Date: [^\r]*\r\n", "");
    }

    private static String get(String path, String... headers) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + String.join("", Arrays.stream(headers).map(h -> h + "\r\n").toList()) + "\r\n";
    }

    @Test
    void aSmallFileHasExactlyTheseBytes() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt"));
            assertThat(withoutDate(c.readHead())).isEqualTo("HTTP/1.1 200 OK\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 21\r\n"
                    + "Vary: Accept-Encoding\r\n"
                    + "ETag: " + StaticTree.etag(21, "") + "\r\n"
                    + "Last-Modified: " + StaticTree.MODIFIED_HTTP + "\r\n"
                    + "Accept-Ranges: bytes\r\n"
                    + "\r\n");
            assertThat(new String(c.readBytes(21), StandardCharsets.UTF_8)).isEqualTo(StaticTree.HELLO);
            // the connection goes on: the body was framed exactly
            c.send(get("/hello"));
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void aLargeFileIsSentWholeTwiceOnOneConnectionThenTheNextRequest() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/big.bin") + get("/static/big.bin") + get("/hello"));
            for (int i = 0; i < 2; i++) {
                assertThat(withoutDate(c.readHead())).isEqualTo("HTTP/1.1 200 OK\r\n"
                        + "Content-Type: application/octet-stream\r\n"
                        + "Content-Length: 1048576\r\n"
                        + "Vary: Accept-Encoding\r\n"
                        + "ETag: " + StaticTree.etag(1 << 20, "") + "\r\n"
                        + "Last-Modified: " + StaticTree.MODIFIED_HTTP + "\r\n"
                        + "Accept-Ranges: bytes\r\n"
                        + "\r\n");
                assertThat(c.readBytes(1 << 20)).isEqualTo(StaticTree.big());
            }
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void aLargeFileReachesASlowReaderWhole() throws Exception {
        try (BriskTestServer t = start(f -> f.precompressed(false));
             java.net.Socket s = new java.net.Socket()) {
            s.setReceiveBufferSize(4096); // the server's socket fills up again and again
            s.connect(new java.net.InetSocketAddress("127.0.0.1", t.port()));
            s.setSoTimeout(5_000);
            s.getOutputStream().write(get("/static/big.bin").getBytes(StandardCharsets.US_ASCII));
            java.io.InputStream in = s.getInputStream();
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[1000];
            int headEnd = -1;
            while (headEnd < 0 || all.size() < headEnd + (1 << 20)) {
                int n = in.read(buf);
                assertThat(n).as("bytes before the end").isPositive();
                all.write(buf, 0, n);
                if (headEnd < 0) {
                    headEnd = all.toString(StandardCharsets.ISO_8859_1).indexOf("\r\n\r\n");
                    headEnd = headEnd < 0 ? -1 : headEnd + 4;
                }
            }
            byte[] got = all.toByteArray();
            assertThat(got.length).isEqualTo(headEnd + (1 << 20));
            assertThat(Arrays.copyOfRange(got, headEnd, got.length)).isEqualTo(StaticTree.big());
        }
    }

    /**
     * A file larger than every socket buffer on the way, read by a client in small pieces: the server's
     * socket fills again and again, and each engine must wait for room and go on (a blocking engine on
     * virtual threads gets 0 from sendfile then, as its socket is non-blocking underneath).
     */
    @Test
    void aFileLargerThanTheSocketBuffersReachesAReaderWhole() throws Exception {
        try (BriskTestServer t = start(f -> f.precompressed(false)); java.net.Socket s = new java.net.Socket()) {
            long size = 48L << 20;
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(tree.root.resolve("sparse.bin").toFile(), "rw")) {
                f.setLength(size); // zeros, without writing them
                f.seek(size - 5);
                f.write("last!".getBytes(StandardCharsets.US_ASCII));
            }
            s.setReceiveBufferSize(16 * 1024);
            s.connect(new java.net.InetSocketAddress("127.0.0.1", t.port()));
            s.setSoTimeout(10_000);
            s.getOutputStream().write((get("/static/sparse.bin") + get("/hello")).getBytes(StandardCharsets.US_ASCII));
            java.io.InputStream in = new java.io.BufferedInputStream(s.getInputStream(), 8192);
            StringBuilder head = new StringBuilder();
            while (head.indexOf("\r\n\r\n") < 0) {
                int c = in.read();
                assertThat(c).isNotNegative();
                head.append((char) c);
            }
            assertThat(head.toString()).contains("Content-Length: " + size + "\r\n");
            byte[] buf = new byte[4096];
            long read = 0;
            byte[] last = new byte[5];
            while (read < size) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, size - read));
                assertThat(n).as("bytes after %d of %d", read, size).isPositive();
                long end = read + n;
                if (end > size - 5) {
                    for (long i = Math.max(read, size - 5); i < end; i++) {
                        last[(int) (i - (size - 5))] = buf[(int) (i - read)];
                    }
                }
                read = end;
            }
            assertThat(new String(last, StandardCharsets.US_ASCII)).isEqualTo("last!");
            byte[] rest = new byte[200];
            int n = in.read(rest);
            assertThat(new String(rest, 0, n, StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 OK").endsWith("hello");
        }
    }

    @Test
    void headHasTheGetHeadersAndNoBody() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/big.bin"));
            String getHead = c.readHead();
            c.readBytes(1 << 20);
            c.send("HEAD /static/big.bin HTTP/1.1\r\nHost: x\r\n\r\n" + get("/hello"));
            assertThat(withoutDate(c.readHead())).isEqualTo(withoutDate(getHead));
            assertThat(c.read().body()).as("no body bytes came between").isEqualTo("hello");
        }
    }

    @Test
    void anEmptyFileIsServedEmpty() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/zero.txt", "Range: bytes=0-10"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).as("an empty file has no range to send").isEqualTo(200);
            assertThat(r.header("Content-Length")).isEqualTo("0");
        }
    }

    // ---- conditional requests --------------------------------------------------------------

    @Test
    void ifNoneMatchWithTheTagIsNotModifiedWithTheseBytes() {
        try (BriskTestServer t = start(f -> f.cacheControl("public, max-age=60")); RawConnection c = t.raw()) {
            String tag = StaticTree.etag(21, "");
            c.send(get("/static/hello.txt", "If-None-Match: " + tag));
            assertThat(withoutDate(c.readHead())).isEqualTo("HTTP/1.1 304 Not Modified\r\n"
                    + "Vary: Accept-Encoding\r\n"
                    + "ETag: " + tag + "\r\n"
                    + "Last-Modified: " + StaticTree.MODIFIED_HTTP + "\r\n"
                    + "Cache-Control: public, max-age=60\r\n"
                    + "\r\n");
            c.send(get("/hello"));
            assertThat(c.read().body()).as("a 304 has no body").isEqualTo("hello");
        }
    }

    @Test
    void ifNoneMatchListsWeakTagsAndStar() {
        String tag = StaticTree.etag(21, "");
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            for (String value : new String[] {"\"other\", W/" + tag, "\"a\",W/\"b\" ,  " + tag, "*", tag}) {
                c.send(get("/static/hello.txt", "If-None-Match: " + value));
                assertThat(c.read().status()).as(value).isEqualTo(304);
            }
            for (String value : new String[] {"\"other\"", "W/\"other\", \"x\"", "junk, " + tag.substring(1), "\"\""}) {
                c.send(get("/static/hello.txt", "If-None-Match: " + value));
                RawConnection.Response r = c.read();
                assertThat(r.status()).as(value).isEqualTo(200);
                assertThat(r.body()).isEqualTo(StaticTree.HELLO);
            }
            // If-None-Match wins over If-Modified-Since
            c.send(get("/static/hello.txt", "If-None-Match: \"other\"", "If-Modified-Since: " + StaticTree.MODIFIED_HTTP));
            assertThat(c.read().status()).isEqualTo(200);
        }
    }

    /**
     * A list field sent as several lines means the lines joined (RFC 9110 5.3): a client that splits
     * If-Match or If-None-Match (or a proxy that adds a line) is answered as for one line, not as if it
     * had sent only the first (If-Match was a wrong 412).
     */
    @Test
    void listFieldsOnSeveralLinesAreReadWhole() {
        String tag = StaticTree.etag(21, "");
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "If-None-Match: \"other\"", "If-None-Match: " + tag));
            assertThat(c.read().status()).isEqualTo(304);
            c.send(get("/static/hello.txt", "If-Match: \"other\"", "If-Match: " + tag));
            assertThat(c.read().status()).isEqualTo(200);
            c.send(get("/static/hello.txt", "If-Match: \"other\"", "If-Match: \"x\""));
            assertThat(c.read().status()).isEqualTo(412);
        }
    }

    @Test
    void ifModifiedSinceComparesSeconds() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "If-Modified-Since: " + StaticTree.MODIFIED_HTTP));
            assertThat(c.read().status()).isEqualTo(304);
            c.send(get("/static/hello.txt", "If-Modified-Since: Tue, 02 Jan 2024 03:04:04 GMT"));
            assertThat(c.read().status()).isEqualTo(200);
            c.send(get("/static/hello.txt", "If-Modified-Since: Tuesday, 02-Jan-24 03:04:05 GMT")); // RFC 850
            assertThat(c.read().status()).isEqualTo(304);
            c.send(get("/static/hello.txt", "If-Modified-Since: Tue Jan  2 03:04:05 2024")); // asctime
            assertThat(c.read().status()).isEqualTo(304);
            c.send(get("/static/hello.txt", "If-Modified-Since: yesterday")); // not a date: ignored
            assertThat(c.read().status()).isEqualTo(200);
        }
    }

    @Test
    void ifMatchAndIfUnmodifiedSinceFailWith412() {
        String tag = StaticTree.etag(21, "");
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "If-Match: \"other\""));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(412);
            assertThat(r.body()).isEqualTo("Precondition Failed");
            assertThat(r.header("ETag")).as("the file's validators only on its own answers").isNull();
            assertThat(r.header("Last-Modified")).isNull();
            c.send(get("/static/hello.txt", "If-Match: W/" + tag)); // strong comparison: a weak tag never matches
            assertThat(c.read().status()).isEqualTo(412);
            c.send(get("/static/hello.txt", "If-Match: \"x\", " + tag));
            assertThat(c.read().status()).isEqualTo(200);
            c.send(get("/static/hello.txt", "If-Match: *"));
            assertThat(c.read().status()).isEqualTo(200);
            c.send(get("/static/hello.txt", "If-Unmodified-Since: Mon, 01 Jan 2024 00:00:00 GMT"));
            assertThat(c.read().status()).isEqualTo(412);
            c.send(get("/static/hello.txt", "If-Unmodified-Since: " + StaticTree.MODIFIED_HTTP));
            assertThat(c.read().status()).isEqualTo(200);
        }
    }

    // ---- directories, missing files, content types ------------------------------------------

    @Test
    void directoriesServeTheirIndexAndRedirectWithoutTheSlash() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/sub/"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
            assertThat(r.body()).isEqualTo("<h1>sub</h1>");
            c.send(get("/static/sub"));
            assertThat(withoutDate(c.readHead())).isEqualTo("HTTP/1.1 301 Moved Permanently\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 0\r\n"
                    + "Location: sub/\r\n"
                    + "\r\n");
            c.send(get("/static/sub?page=2&q=a%20b"));
            assertThat(c.read().header("Location")).as("the query goes along").isEqualTo("sub/?page=2&q=a%20b");
            c.send(get("/static"));
            assertThat(c.read().header("Location")).isEqualTo("static/");
            c.send(get("/static?x=1"));
            assertThat(c.read().header("Location")).isEqualTo("static/?x=1");
            c.send(get("/static/empty/"));
            assertThat(c.read().status()).as("no index, no listing").isEqualTo(404);
            c.send(get("/static/empty"));
            assertThat(c.read().status()).isEqualTo(404);
            c.send(get("/static/"));
            assertThat(c.read().status()).as("the root has no index").isEqualTo(404);
            c.send(get("/static/hello.txt/"));
            assertThat(c.read().status()).as("a file is no directory").isEqualTo(404);
        }
    }

    @Test
    void missingFilesAre404AndNamesAreDecodedOnce() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/nope.txt"));
            assertThat(c.read().status()).isEqualTo(404);
            c.send(get("/static/with%20space.txt"));
            assertThat(c.read().body()).isEqualTo("spaced");
            c.send(get("/static/%C3%BCn%C3%AF.txt"));
            assertThat(c.read().body()).isEqualTo("unicode");
            c.send(get("/static/hello%2etxt"));
            assertThat(c.read().body()).isEqualTo(StaticTree.HELLO);
            c.send(get("/static//hello.txt"));
            assertThat(c.read().body()).as("empty segments are dropped").isEqualTo(StaticTree.HELLO);
            // names the file system cannot hold (ENAMETOOLONG) are not there: 404, not a 500 and a log entry
            c.send(get("/static/" + "a".repeat(300)));
            assertThat(c.read().status()).isEqualTo(404);
            c.send(get("/static/" + "b".repeat(300) + "/hello.txt"));
            assertThat(c.read().status()).isEqualTo(404);
            c.send(get("/static/" + ("c".repeat(250) + "/").repeat(18) + "hello.txt"));
            assertThat(c.read().status()).as("a path longer than any file's").isEqualTo(404);
            c.send(get("/static/hello.txt"));
            assertThat(c.read().body()).as("the connection serves on").isEqualTo(StaticTree.HELLO);
        }
    }

    @Test
    void contentTypesComeFromTheTableAndOverrides() {
        try (BriskTestServer t = start(f -> f.contentType("json", "application/vnd.test+json").precompressed(false));
             RawConnection c = t.raw()) {
            c.send(get("/static/app.js"));
            RawConnection.Response js = c.read();
            assertThat(js.header("Content-Type")).isEqualTo("text/javascript; charset=utf-8");
            assertThat(js.header("Vary")).as("no siblings used: nothing varies").isNull();
            assertThat(js.body()).isEqualTo(StaticTree.APP_JS);
            c.send(get("/static/data.json"));
            assertThat(c.read().header("Content-Type")).isEqualTo("application/vnd.test+json");
            c.send(get("/static/app.js.gz"));
            assertThat(c.read().header("Content-Type")).isEqualTo("application/gzip");
        }
    }

    // ---- hostile paths ------------------------------------------------------------------

    @Test
    void traversalInEveryEncodingNeverReachesAFileOutsideTheRoot() {
        String[] attacks = {
            "/static/../secret.txt",
            "/static/..%2fsecret.txt",
            "/static/..%2Fsecret.txt",
            "/static/%2e%2e/secret.txt",
            "/static/%2E%2E%2Fsecret.txt",
            "/static/.%2e/secret.txt",
            "/static/sub/../../secret.txt",
            "/static/sub/%2e%2e/%2e%2e/secret.txt",
            "/static/..%5csecret.txt",
            "/static/%5c..%5csecret.txt",
            "/static/..\\secret.txt",
            "/static/%252e%252e%252fsecret.txt",
            "/static/%252e%252e/secret.txt",
            "/static/%c0%ae%c0%ae/secret.txt",
            "/static/%c0%ae%c0%ae%c0%afsecret.txt",
            "/static/%e0%80%ae%e0%80%ae/secret.txt",
            "/static/..%c0%afsecret.txt",
            "/static/..%u2215secret.txt",
            "/static/..;/secret.txt",
            "/static/%00../secret.txt",
            "/static/hello.txt%00.html",
            "/static/%2fetc%2fpasswd",
            "/static//etc/passwd",
            "/static/..",
            "/static/.",
            "/static/%2e",
            "/static/dir-out/secret.txt",
        };
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            for (String path : attacks) {
                c.send(get(path));
                RawConnection.Response r = c.read();
                assertThat(r.status()).as(path).isIn(400, 404);
                assertThat(r.body()).as(path).doesNotContain("SECRET").doesNotContain("root:");
            }
            c.send(get("/hello"));
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void dotSegmentsAndMalformedNamesAreBadRequestsWithAReason() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/%2e%2e/secret.txt"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).isEqualTo("Dot segments ('.' or '..') are not allowed in a path"); // any route's rule
            c.send(get("/static/%c0%ae%c0%ae/secret.txt"));
            r = c.read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).isEqualTo("Malformed UTF-8 in path");
            c.send(get("/static/..%5csecret.txt")); // a backslash splits segments: refused by routing first
            assertThat(c.read().body()).isEqualTo("Dot segments ('.' or '..') are not allowed in a path");
            c.send(get("/static/a%5cb"));
            assertThat(c.read().body()).isEqualTo("Path separator inside a path segment");
            c.send(get("/static/a%00b"));
            assertThat(c.read().body()).isEqualTo("An encoded NUL (%00) is not allowed in a path");
            c.send(get("/static/a%01b"));
            assertThat(c.read().body()).isEqualTo("Control character in path");
            c.send(get("/static/%zz"));
            assertThat(c.read().status()).isEqualTo(400);
        }
    }

    @Test
    void hiddenFilesAreNotFoundUnlessServed() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            for (String path : new String[] {"/static/.env", "/static/%2eenv", "/static/.git/config", "/static/.git/",
                    "/static/sub/../.env"}) {
                c.send(get(path));
                RawConnection.Response r = c.read();
                assertThat(r.status()).as(path).isIn(400, 404);
                assertThat(r.body()).as(path).doesNotContain("hunter2");
            }
        }
        try (BriskTestServer t = start(f -> f.hiddenFiles(true)); RawConnection c = t.raw()) {
            c.send(get("/static/.env"));
            assertThat(c.read().body()).isEqualTo("PASSWORD=hunter2");
        }
    }

    @Test
    void linksOutOfTheRootAreNotFollowedUnlessAllowed() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            assumeTrue(tree.links, "no symbolic links on this file system");
            c.send(get("/static/link-in"));
            assertThat(c.read().body()).as("a link inside the root").isEqualTo(StaticTree.HELLO);
            c.send(get("/static/link-out"));
            RawConnection.Response out = c.read();
            assertThat(out.status()).isEqualTo(404);
            assertThat(out.body()).doesNotContain("SECRET");
            c.send(get("/static/dir-out/secret.txt"));
            assertThat(c.read().status()).isEqualTo(404);
            c.send(get("/static/dir-in/index.html"));
            assertThat(c.read().body()).as("through a directory link inside the root").isEqualTo("<h1>sub</h1>");
        }
        // a mount whose root is itself reached through a link: its files are inside it
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.options().shutdownTimeout(Duration.ofSeconds(1));
            cfg.staticFiles("/static", StaticFiles.directory(tree.base.resolve("root-link")));
        }); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt"));
            assertThat(c.read().body()).isEqualTo(StaticTree.HELLO);
            c.send(get("/static/link-out"));
            assertThat(c.read().status()).isEqualTo(404);
            c.send(get("/static/dir-in/index.html"));
            assertThat(c.read().body()).isEqualTo("<h1>sub</h1>");
        }
        try (BriskTestServer t = start(f -> f.followSymlinks(true)); RawConnection c = t.raw()) {
            c.send(get("/static/link-out"));
            assertThat(c.read().body()).isEqualTo(StaticTree.SECRET);
        }
    }

    @Test
    void aGroupMountsFilesUnderItsPrefixWithItsMiddleware() {
        tree = StaticTree.under(tmp);
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.options().shutdownTimeout(Duration.ofSeconds(1)).ioThreads(2);
            cfg.group("/g", g -> {
                g.use(next -> ctx -> {
                    ctx.header("X-Group", "yes").header("Vary", "Origin");
                    next.handle(ctx);
                });
                g.staticFiles("/files", StaticFiles.directory(tree.root));
            });
            cfg.staticFiles("/", StaticFiles.directory(tree.root).indexFiles("hello.txt"));
        }); RawConnection c = t.raw()) {
            c.send(get("/g/files/hello.txt"));
            String head = c.readHead();
            assertThat(head).contains("\r\nX-Group: yes\r\n")
                    .as("the middleware's Vary stays beside the mount's").contains("\r\nVary: Origin\r\n")
                    .contains("\r\nVary: Accept-Encoding\r\n");
            assertThat(new String(c.readBytes(21), StandardCharsets.UTF_8)).isEqualTo(StaticTree.HELLO);
            c.send(get("/g/files"));
            assertThat(c.read().header("Location")).isEqualTo("files/");
            c.send(get("/sub/index.html"));
            assertThat(c.read().body()).as("a mount at the root").isEqualTo("<h1>sub</h1>");
            c.send(get("/"));
            assertThat(c.read().body()).as("the root's index").isEqualTo(StaticTree.HELLO);
        }
    }

    @Test
    void aMissingDirectoryFailsAtCreate() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BriskTestServer.start(engine,
                        cfg -> cfg.staticFiles("/s", StaticFiles.directory(tmp.resolve("nope")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a directory");
    }

    @Test
    void onlyGetAndHeadAreServed() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send("POST /static/hello.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(405);
            assertThat(r.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
        }
    }
}
