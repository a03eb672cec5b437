package dev.brisk.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.Compression;
import dev.brisk.StaticFiles;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLClassLoader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Static files and compression through real clients: the JDK's HttpClient and curl (when installed),
 * over a directory, a class-path directory and a jar on a class loader.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class StaticFilesClientTest {
    @Parameter
    Engine engine;

    @TempDir
    Path tmp;

    private StaticTree tree;

    private BriskTestServer start(ClassLoader jarLoader) {
        tree = StaticTree.under(tmp);
        return BriskTestServer.start(engine, cfg -> {
            cfg.options().shutdownTimeout(Duration.ofSeconds(1)).ioThreads(2);
            cfg.use(Compression.defaults());
            cfg.staticFiles("/static", StaticFiles.directory(tree.root).maxAge(Duration.ofMinutes(5)));
            cfg.staticFiles("/cp", StaticFiles.classpath("public"));
            if (jarLoader != null) {
                cfg.staticFiles("/jar", StaticFiles.classpath(jarLoader, "/web/"));
            }
            cfg.get("/json", ctx -> ctx.bytes(StaticTree.json().getBytes(StandardCharsets.UTF_8)).contentType("application/json"));
        });
    }

    // ---- JDK HttpClient -----------------------------------------------------------------------

    @Test
    void httpClientGetsFilesRangesAndValidators() {
        try (BriskTestServer t = start(null)) {
            HttpResponse<byte[]> big = t.getBytes("/static/big.bin");
            assertThat(big.statusCode()).isEqualTo(200);
            assertThat(big.body()).isEqualTo(StaticTree.big());
            assertThat(big.headers().firstValue("Cache-Control")).hasValue("public, max-age=300");
            String tag = big.headers().firstValue("ETag").orElseThrow();

            HttpResponse<byte[]> range = t.getBytes("/static/big.bin", "Range", "bytes=100-199");
            assertThat(range.statusCode()).isEqualTo(206);
            assertThat(range.body()).isEqualTo(Arrays.copyOfRange(StaticTree.big(), 100, 200));

            assertThat(t.getBytes("/static/big.bin", "If-None-Match", tag).statusCode()).isEqualTo(304);
            assertThat(t.getBytes("/static/big.bin", "If-Modified-Since", StaticTree.MODIFIED_HTTP).statusCode()).isEqualTo(304);
            assertThat(t.getBytes("/static/big.bin", "If-Match", "\"nope\"").statusCode()).isEqualTo(412);
            assertThat(t.getBytes("/static/big.bin", "Range", "bytes=2000000-").statusCode()).isEqualTo(416);
            assertThat(t.getBytes("/static/missing.txt").statusCode()).isEqualTo(404);
            assertThat(t.getBytes("/static/empty/").statusCode()).isEqualTo(404);

            HttpResponse<String> head = t.head("/static/big.bin");
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.headers().firstValue("Content-Length")).hasValue("1048576");
            assertThat(head.body()).isEmpty();
        }
    }

    @Test
    void httpClientGetsTheGzipSiblingAndCompressedAnswers() {
        try (BriskTestServer t = start(null)) {
            HttpResponse<byte[]> js = t.getBytes("/static/app.js", "Accept-Encoding", "gzip");
            assertThat(js.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(js.body()).isEqualTo(tree.bytes("app.js.gz"));
            assertThat(new String(CompressionWireTest.gunzip(js.body()), StandardCharsets.UTF_8)).isEqualTo(StaticTree.APP_JS);

            HttpResponse<byte[]> json = t.getBytes("/json", "Accept-Encoding", "deflate;q=0.5, gzip");
            assertThat(json.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(json.headers().firstValue("Vary")).hasValue("Accept-Encoding");
            assertThat(new String(CompressionWireTest.gunzip(json.body()), StandardCharsets.UTF_8)).isEqualTo(StaticTree.json());

            HttpResponse<byte[]> plain = t.getBytes("/json");
            assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
            assertThat(new String(plain.body(), StandardCharsets.UTF_8)).isEqualTo(StaticTree.json());
        }
    }

    @Test
    void httpClientCannotClimbOutOfTheRoot() {
        try (BriskTestServer t = start(null)) {
            for (String path : new String[] {"/static/%2e%2e/secret.txt", "/static/..%2fsecret.txt", "/static/%252e%252e%252fsecret.txt",
                    "/static/%c0%ae%c0%ae/secret.txt", "/static/..%5csecret.txt", "/static/.env", "/static/link-out"}) {
                HttpResponse<String> r = t.get(path);
                assertThat(r.statusCode()).as(path).isIn(400, 404);
                assertThat(r.body()).as(path).doesNotContain("SECRET").doesNotContain("hunter2");
            }
        }
    }

    // ---- class path and jars ------------------------------------------------------------------

    @Test
    void aClassPathDirectoryIsServed() {
        try (BriskTestServer t = start(null)) {
            HttpResponse<String> r = t.get("/cp/hello.txt");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello from the class path\n");
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
            assertThat(t.get("/cp/").body()).contains("class path index");
            assertThat(t.get("/cp/nested").statusCode()).as("a directory without index").isEqualTo(404);
            assertThat(t.get("/cp/%2e%2e/dev/brisk/files/StaticTree.class").statusCode()).isEqualTo(400);
            assertThat(t.get("/cp/../dev/brisk/files/StaticTree.class").statusCode()).isIn(400, 404);
            String tag = r.headers().firstValue("ETag").orElseThrow();
            assertThat(t.get("/cp/hello.txt", "If-None-Match", tag).statusCode()).isEqualTo(304);
        }
    }

    /** A jar on a class loader: entries, ranges, validators, a directory entry with its index, hidden entries. */
    @Test
    void aJarIsServed() throws IOException {
        Path jar = tmp.resolve("web.jar");
        byte[] big = StaticTree.big();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            entry(out, "web/", null);
            entry(out, "web/hello.txt", "hello from a jar".getBytes(StandardCharsets.UTF_8));
            entry(out, "web/big.bin", big);
            entry(out, "web/docs/", null);
            entry(out, "web/docs/index.html", "<p>docs</p>".getBytes(StandardCharsets.UTF_8));
            entry(out, "web/.secret", "hidden".getBytes(StandardCharsets.UTF_8));
            entry(out, "outside.txt", "not under web".getBytes(StandardCharsets.UTF_8));
        }
        try (URLClassLoader loader = new URLClassLoader(new java.net.URL[] {jar.toUri().toURL()}, null);
             BriskTestServer t = start(loader)) {
            assertThat(t.get("/jar/hello.txt").body()).isEqualTo("hello from a jar");
            HttpResponse<byte[]> b = t.getBytes("/jar/big.bin");
            assertThat(b.body()).isEqualTo(big);
            String tag = b.headers().firstValue("ETag").orElseThrow();
            assertThat(tag).as("from the entry's CRC and size").matches("\"[0-9a-f]+-100000\"");
            assertThat(t.getBytes("/jar/big.bin", "If-None-Match", tag).statusCode()).isEqualTo(304);
            HttpResponse<byte[]> r = t.getBytes("/jar/big.bin", "Range", "bytes=500000-500099");
            assertThat(r.statusCode()).isEqualTo(206);
            assertThat(r.body()).isEqualTo(Arrays.copyOfRange(big, 500000, 500100));
            HttpResponse<byte[]> multi = t.getBytes("/jar/big.bin", "Range", "bytes=0-9,900000-900009");
            assertThat(multi.statusCode()).isEqualTo(206);
            assertThat(multi.headers().firstValue("Content-Type").orElseThrow()).startsWith("multipart/byteranges; boundary=");
            String body = new String(multi.body(), StandardCharsets.ISO_8859_1);
            assertThat(body).contains(new String(Arrays.copyOfRange(big, 900000, 900010), StandardCharsets.ISO_8859_1));
            assertThat(t.get("/jar/docs/").body()).isEqualTo("<p>docs</p>");
            HttpResponse<String> noSlash = t.get("/jar/docs");
            assertThat(noSlash.statusCode()).isEqualTo(301);
            assertThat(noSlash.headers().firstValue("Location")).hasValue("docs/");
            assertThat(t.get("/jar/.secret").statusCode()).isEqualTo(404);
            assertThat(t.get("/jar/%2e%2e/outside.txt").statusCode()).isEqualTo(400);
            assertThat(t.get("/jar/missing").statusCode()).isEqualTo(404);
        }
    }

    /**
     * A class loader whose own URL handler tells no length (its connection reports -1, as a loader
     * over memory or a custom archive may): the resource is served whole, with ranges, not as empty.
     */
    @Test
    void aResourceWhoseConnectionTellsNoLengthIsServedWhole() {
        byte[] content = Arrays.copyOf(StaticTree.big(), 70_000); // above the inline limit: streamed
        java.util.concurrent.atomic.AtomicReference<byte[]> current = new java.util.concurrent.atomic.AtomicReference<>(content);
        java.util.concurrent.atomic.AtomicLong modified = new java.util.concurrent.atomic.AtomicLong(0);
        java.util.concurrent.atomic.AtomicInteger opens = new java.util.concurrent.atomic.AtomicInteger();
        java.net.URLStreamHandler handler = new java.net.URLStreamHandler() {
            @Override
            protected java.net.URLConnection openConnection(java.net.URL u) {
                return new java.net.URLConnection(u) {
                    @Override
                    public void connect() {
                    }

                    @Override
                    public long getLastModified() {
                        return modified.get();
                    }

                    @Override
                    public java.io.InputStream getInputStream() {
                        opens.incrementAndGet();
                        return new java.io.ByteArrayInputStream(current.get());
                    }
                };
            }
        };
        ClassLoader memory = new ClassLoader(null) {
            @Override
            protected java.net.URL findResource(String name) {
                if (!name.equals("mem/data.bin")) {
                    return null;
                }
                try {
                    return java.net.URL.of(java.net.URI.create("mem:/data.bin"), handler);
                } catch (java.net.MalformedURLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        try (BriskTestServer t = BriskTestServer.start(engine, cfg ->
                cfg.staticFiles("/mem", StaticFiles.classpath(memory, "mem")))) {
            HttpResponse<byte[]> whole = t.getBytes("/mem/data.bin");
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(whole.headers().firstValue("Content-Length")).hasValue("70000");
            assertThat(whole.body()).isEqualTo(content);
            HttpResponse<byte[]> again = t.getBytes("/mem/data.bin");
            assertThat(again.body()).as("every read opens the URL anew").isEqualTo(content);
            HttpResponse<byte[]> r = t.getBytes("/mem/data.bin", "Range", "bytes=69990-");
            assertThat(r.statusCode()).isEqualTo(206);
            assertThat(r.body()).isEqualTo(Arrays.copyOfRange(content, 69990, 70000));
            assertThat(t.get("/mem/other.bin").statusCode()).isEqualTo(404);

            // with a last-modified time the count is remembered: one read per request, not two
            modified.set(StaticTree.MODIFIED.toEpochMilli());
            assertThat(t.getBytes("/mem/data.bin").body()).isEqualTo(content);
            opens.set(0);
            assertThat(t.getBytes("/mem/data.bin").body()).isEqualTo(content);
            assertThat(opens.get()).as("the length counted before, the resource unchanged").isEqualTo(1);
            // changed (a new time): counted again
            byte[] shorter = Arrays.copyOf(content, 50_000);
            current.set(shorter);
            modified.set(StaticTree.MODIFIED.toEpochMilli() + 1000);
            HttpResponse<byte[]> changed = t.getBytes("/mem/data.bin");
            assertThat(changed.headers().firstValue("Content-Length")).hasValue("50000");
            assertThat(changed.body()).isEqualTo(shorter);
        }
    }

    private static void entry(JarOutputStream out, String name, byte[] data) throws IOException {
        JarEntry e = new JarEntry(name);
        e.setTime(StaticTree.MODIFIED.toEpochMilli());
        out.putNextEntry(e);
        if (data != null) {
            out.write(data);
        }
        out.closeEntry();
    }

    // ---- curl ---------------------------------------------------------------------------------

    static boolean hasCurl() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, "curl"))) {
                return true;
            }
        }
        return false;
    }

    /** curl's output (head with -i, then body) as Latin-1 text, CRLF as LF. */
    static String curl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
        return out.toString(StandardCharsets.ISO_8859_1).replace("\r\n", "\n");
    }

    @Test
    void curlGetsFilesRangesSiblingsAndCompressedAnswers() throws Exception {
        assumeTrue(hasCurl(), "curl is not installed");
        try (BriskTestServer t = start(null)) {
            String base = "http://127.0.0.1:" + t.port();
            assertThat(curl("-i", base + "/static/hello.txt")).startsWith("HTTP/1.1 200 OK\n")
                    .contains("\nAccept-Ranges: bytes\n").endsWith("\n\n" + StaticTree.HELLO);
            assertThat(curl("-r", "7-12", base + "/static/hello.txt")).isEqualTo("static");
            assertThat(curl("-i", "-r", "0-1,3-4", base + "/static/hello.txt")).startsWith("HTTP/1.1 206 Partial Content\n")
                    .contains("Content-Type: multipart/byteranges; boundary=brisk-").contains("Content-Range: bytes 3-4/21\n\nlo\n");
            assertThat(curl("-i", "-z", StaticTree.MODIFIED_HTTP, base + "/static/hello.txt")).startsWith("HTTP/1.1 304 Not Modified\n");
            assertThat(curl("-I", base + "/static/big.bin")).contains("\nContent-Length: 1048576\n");
            // --compressed: curl asks for gzip (and others) and decodes what comes
            String js = curl("-i", "--compressed", base + "/static/app.js");
            assertThat(js).contains("\nContent-Encoding: gzip\n").endsWith("\n\n" + StaticTree.APP_JS.replace("\r\n", "\n"));
            String json = curl("-i", "--compressed", base + "/json");
            assertThat(json).contains("\nContent-Encoding: gzip\n").endsWith("\n\n" + StaticTree.json());
            String data = curl("-i", "--compressed", base + "/static/data.json");
            // a file of modest size is compressed whole, under its Content-Length
            assertThat(data).contains("\nContent-Encoding: gzip\n").containsPattern("\nContent-Length: \\d+\n")
                    .doesNotContain("Transfer-Encoding").endsWith("\n\n" + StaticTree.json());
            // --path-as-is: curl sends the dot segments instead of resolving them itself
            assertThat(curl("-i", "--path-as-is", base + "/static/../secret.txt")).startsWith("HTTP/1.1 400").doesNotContain("SECRET");
            assertThat(curl("-i", "--path-as-is", base + "/static/%2e%2e/%2e%2e/etc/passwd")).startsWith("HTTP/1.1 400").doesNotContain("root:");
            // two files on one connection
            String two = curl(base + "/static/hello.txt", base + "/static/sub/");
            assertThat(two).isEqualTo(StaticTree.HELLO + "<h1>sub</h1>");
        }
    }
}
