package dev.brisk.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Compression;
import dev.brisk.StaticFiles;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Response compression on the wire, with the bytes written out: negotiation, what is never compressed, streams. */
@ParameterizedClass
@EnumSource(Engine.class)
class CompressionWireTest {
    private static final String JSON = StaticTree.json();
    /** Over the size a file is compressed whole at ({@code ResponseCompression.WHOLE_MAX}, 256 KiB). */
    private static final String LARGE_JSON = JSON.repeat(3);

    @Parameter
    Engine engine;

    @TempDir
    Path tmp;

    private final BlockingQueue<PipedOutputStream> producers = new ArrayBlockingQueue<>(1);

    private BriskTestServer start() {
        StaticTree tree = StaticTree.under(tmp);
        return BriskTestServer.start(engine, cfg -> {
            cfg.options().shutdownTimeout(Duration.ofSeconds(1)).ioThreads(2);
            cfg.use(Compression.defaults());
            cfg.get("/json", ctx -> ctx.bytes(JSON.getBytes(StandardCharsets.UTF_8)).contentType("application/json"));
            cfg.get("/text", ctx -> ctx.text(JSON)); // an ASCII text body
            cfg.get("/small", ctx -> ctx.text("x".repeat(1023)));
            cfg.get("/png", ctx -> ctx.bytes(JSON.getBytes(StandardCharsets.UTF_8)).contentType("image/png"));
            cfg.get("/encoded", ctx -> ctx.bytes(StaticTree.gzip(JSON.getBytes(StandardCharsets.UTF_8)))
                    .contentType("application/json").header("Content-Encoding", "gzip"));
            cfg.get("/no-transform", ctx -> ctx.text(JSON).header("Cache-Control", "no-transform"));
            cfg.get("/tagged", ctx -> ctx.text(JSON).header("ETag", "\"v1\""));
            cfg.get("/created", ctx -> ctx.status(201).text(JSON));
            cfg.get("/empty", ctx -> ctx.status(204));
            cfg.get("/off", ctx -> ctx.text(JSON)).use(Compression.off());
            cfg.get("/gzip-only", ctx -> ctx.text(JSON)).use(Compression.defaults().deflate(false).minSize(0).level(1));
            cfg.get("/stream", ctx -> {
                PipedInputStream in = new PipedInputStream(64 * 1024);
                PipedOutputStream out = new PipedOutputStream(in);
                producers.add(out);
                ctx.contentType("text/plain").stream(in);
            });
            cfg.staticFiles("/static", StaticFiles.directory(tree.root).precompressed(false));
            cfg.after(ctx -> {
                // a file that shrinks after its handler sized it, before the compression reads it
                if (ctx.path().endsWith("/shrinking.json")) {
                    try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(
                            tree.root.resolve("shrinking.json"), java.nio.file.StandardOpenOption.WRITE)) {
                        f.truncate(10);
                    }
                }
            });
            try {
                Path large = Files.createDirectories(tmp.resolve("large"));
                Files.writeString(large.resolve("large.json"), LARGE_JSON);
                cfg.staticFiles("/large", StaticFiles.directory(large));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static String get(String path, String... headers) {
        StringBuilder sb = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: x\r\n");
        for (String h : headers) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    static byte[] gunzip(byte[] b) {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(b))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] inflate(byte[] b) {
        try (InputStream in = new InflaterInputStream(new ByteArrayInputStream(b))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String lengthOf(String head) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Content-Length: (\\d+)\r\n").matcher(head);
        return m.find() ? m.group(1) : null;
    }

    @Test
    void aJsonBodyIsGzippedWithTheseBytes() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/json", "Accept-Encoding: gzip, deflate, br"));
            String head = c.readHead();
            String length = lengthOf(head);
            assertThat(StaticFilesWireTest.withoutDate(head)).isEqualTo("HTTP/1.1 200 OK\r\n"
                    + "Content-Type: application/json\r\n"
                    + "Content-Length: " + length + "\r\n"
                    + "Vary: Accept-Encoding\r\n"
                    + "Content-Encoding: gzip\r\n"
                    + "\r\n");
            byte[] body = c.readBytes(Integer.parseInt(length));
            assertThat(body.length).as("100 KiB of repetitive JSON shrinks").isLessThan(JSON.length() / 5);
            assertThat(new String(gunzip(body), StandardCharsets.UTF_8)).isEqualTo(JSON);
            c.send(get("/text", "Accept-Encoding: gzip"));
            assertThat(new String(gunzip(c.read().bodyBytes()), StandardCharsets.UTF_8)).isEqualTo(JSON);
        }
    }

    @Test
    void aFileThatShrinksWhileCompressedIs500WithoutTheFilesHeaders() throws IOException {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            Files.writeString(tmp.resolve("root").resolve("shrinking.json"), JSON);
            c.send(get("/static/shrinking.json", "Accept-Encoding: gzip"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.body()).isEqualTo("Internal Server Error");
            assertThat(r.header("Content-Encoding")).isNull();
            assertThat(r.header("ETag")).as("the file's validators are not the error's").isNull();
            assertThat(r.header("Last-Modified")).isNull();
            assertThat(r.header("Content-Type")).startsWith("text/plain");
        }
    }

    /**
     * A large file (encoded as it is sent) that shrinks after its handler sized it: the encoding fails
     * and the connection ends with the chunked body unfinished. It ended the gzip stream cleanly after the
     * bytes that were left, and the last chunk passed the cut body off as whole.
     */
    @Test
    void aLargeFileThatShrinksWhileCompressedAsItIsSentIsNotPassedOffAsWhole() throws IOException {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            Files.writeString(tmp.resolve("root").resolve("shrinking.json"), LARGE_JSON);
            c.send(get("/static/shrinking.json", "Accept-Encoding: gzip"));
            String head = c.readHead();
            String rest = c.readAll(); // until the server closes: it must, whatever it answered
            if (head.startsWith("HTTP/1.1 500")) {
                assertThat(rest).contains("Internal Server Error"); // nothing of the file had gone out
            } else {
                assertThat(head).startsWith("HTTP/1.1 200").contains("Transfer-Encoding: chunked");
                assertThat(rest).as("no last chunk").doesNotEndWith("0\r\n\r\n");
            }
        }
    }

    @Test
    void deflateIsTheZlibFormatAndChosenByQValue() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            for (String ae : new String[] {"deflate", "gzip;q=0.5, deflate", "gzip;q=0, *", "DEFLATE;q=1"}) {
                c.send(get("/json", "Accept-Encoding: " + ae));
                RawConnection.Response r = c.read();
                assertThat(r.header("Content-Encoding")).as(ae).isEqualTo("deflate");
                assertThat(new String(inflate(r.bodyBytes()), StandardCharsets.UTF_8)).as(ae).isEqualTo(JSON);
            }
            for (String ae : new String[] {"gzip", "deflate, gzip", "*", "x-gzip", "gzip;q=0.9, deflate;q=0.9"}) {
                c.send(get("/json", "Accept-Encoding: " + ae));
                RawConnection.Response r = c.read();
                assertThat(r.header("Content-Encoding")).as(ae).isEqualTo("gzip");
                assertThat(new String(gunzip(r.bodyBytes()), StandardCharsets.UTF_8)).as(ae).isEqualTo(JSON);
            }
        }
    }

    @Test
    void anAcceptEncodingOnSeveralLinesIsReadWhole() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/json", "Accept-Encoding: br;q=0", "Accept-Encoding: gzip"));
            RawConnection.Response r = c.read();
            assertThat(r.header("Content-Encoding")).as("the second line's gzip").isEqualTo("gzip");
            assertThat(new String(gunzip(r.bodyBytes()), StandardCharsets.UTF_8)).isEqualTo(JSON);
        }
    }

    @Test
    void clientsThatTakeNoCodingGetIdentityWithVary() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            for (String ae : new String[] {null, "", "identity", "br", "gzip;q=0, deflate;q=0", "identity;q=0",
                    "*;q=0", "gzip;q=2"}) {
                c.send(ae == null ? get("/json") : get("/json", "Accept-Encoding: " + ae));
                RawConnection.Response r = c.read();
                assertThat(r.status()).as(ae).isEqualTo(200);
                assertThat(r.header("Content-Encoding")).as(ae).isNull();
                assertThat(r.header("Vary")).as(ae).isEqualTo("Accept-Encoding");
                assertThat(r.body()).as(ae).isEqualTo(JSON);
            }
        }
    }

    @Test
    void whatIsNeverCompressed() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            String ae = "Accept-Encoding: gzip";
            c.send(get("/small", ae));
            RawConnection.Response small = c.read();
            assertThat(small.header("Content-Encoding")).isNull();
            assertThat(small.header("Vary")).as("below the threshold: nothing varies").isNull();
            c.send(get("/png", ae));
            RawConnection.Response png = c.read();
            assertThat(png.header("Content-Encoding")).isNull();
            assertThat(png.header("Vary")).isNull();
            c.send(get("/encoded", ae));
            RawConnection.Response encoded = c.read();
            assertThat(encoded.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(new String(gunzip(encoded.bodyBytes()), StandardCharsets.UTF_8)).as("encoded once, not twice").isEqualTo(JSON);
            c.send(get("/no-transform", ae));
            assertThat(c.read().header("Content-Encoding")).isNull();
            c.send(get("/off", ae));
            RawConnection.Response off = c.read();
            assertThat(off.header("Content-Encoding")).isNull();
            assertThat(off.body()).isEqualTo(JSON);
            c.send(get("/empty", ae));
            assertThat(c.read().status()).isEqualTo(204);
            c.send(get("/static/app.js", ae, "Range: bytes=0-1999"));
            RawConnection.Response range = c.read();
            assertThat(range.status()).isEqualTo(206);
            assertThat(range.header("Content-Encoding")).isNull();
            assertThat(range.body()).isEqualTo(StaticTree.APP_JS.substring(0, 2000));
        }
    }

    @Test
    void otherStatusesAndRouteSettingsApply() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/created", "Accept-Encoding: gzip"));
            RawConnection.Response created = c.read();
            assertThat(created.status()).isEqualTo(201);
            assertThat(created.header("Content-Encoding")).isEqualTo("gzip");
            c.send(get("/gzip-only", "Accept-Encoding: deflate"));
            assertThat(c.read().header("Content-Encoding")).as("deflate is not offered there").isNull();
            c.send(get("/gzip-only", "Accept-Encoding: deflate, gzip;q=0.1"));
            RawConnection.Response gz = c.read();
            assertThat(gz.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(new String(gunzip(gz.bodyBytes()), StandardCharsets.UTF_8)).isEqualTo(JSON);
        }
    }

    @Test
    void aStrongTagBecomesWeak() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/tagged", "Accept-Encoding: gzip"));
            assertThat(c.read().header("ETag")).isEqualTo("W/\"v1\"");
            c.send(get("/tagged"));
            assertThat(c.read().header("ETag")).isEqualTo("\"v1\"");
        }
    }

    @Test
    void headGetsTheHeadersOfGet() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/json", "Accept-Encoding: gzip"));
            String getHead = c.readHead();
            c.readBytes(Integer.parseInt(lengthOf(getHead)));
            c.send("HEAD /json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n" + get("/small"));
            assertThat(StaticFilesWireTest.withoutDate(c.readHead())).isEqualTo(StaticFilesWireTest.withoutDate(getHead));
            assertThat(c.read().body()).isEqualTo("x".repeat(1023));
        }
    }

    @Test
    void aStaticFileWithoutSiblingIsCompressedWholeWithItsLength() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/data.json", "Accept-Encoding: gzip"));
            RawConnection.Response r = c.read();
            assertThat(r.header("Content-Encoding")).isEqualTo("gzip");
            // a file of modest size is encoded at once: one answer with its length, not a chunk per piece
            assertThat(r.header("Transfer-Encoding")).isNull();
            assertThat(r.header("Content-Length")).isEqualTo(String.valueOf(r.bodyBytes().length));
            assertThat(r.bodyBytes().length).isLessThan(JSON.length() / 4);
            assertThat(r.header("Vary")).isEqualTo("Accept-Encoding");
            String weak = r.header("ETag");
            assertThat(weak).startsWith("W/\"");
            assertThat(new String(gunzip(r.bodyBytes()), StandardCharsets.UTF_8)).isEqualTo(JSON);
            assertThat(r.header("Accept-Ranges")).as("no ranges of the encoded bytes").isNull();
            c.send(get("/static/data.json", "Accept-Encoding: gzip", "If-None-Match: " + weak));
            RawConnection.Response revalidated = c.read();
            assertThat(revalidated.status()).as("the weak tag still validates").isEqualTo(304);
            assertThat(revalidated.header("ETag")).as("the 304 says the tag its 200 had").isEqualTo(weak);
            assertThat(revalidated.header("Vary")).as("and its Vary").isEqualTo("Accept-Encoding");
            c.send(get("/static/data.json", "If-None-Match: " + weak.substring(2)));
            RawConnection.Response identity = c.read();
            assertThat(identity.status()).isEqualTo(304);
            assertThat(identity.header("ETag")).as("a client holding the file itself").isEqualTo(weak.substring(2));
            assertThat(identity.header("Vary")).as("its 200 varies too (RFC 9110 15.4.5)").isEqualTo("Accept-Encoding");
            // a cache holding both representations names both tags: a client taking no coding gets the file's
            c.send(get("/static/data.json", "If-None-Match: " + weak.substring(2) + ", " + weak));
            RawConnection.Response both = c.read();
            assertThat(both.status()).isEqualTo(304);
            assertThat(both.header("ETag")).as("not the encoded one's: this client would not get it").isEqualTo(weak.substring(2));
            c.send(get("/static/data.json"));
            assertThat(c.read().header("Accept-Ranges")).as("the file itself has ranges").isEqualTo("bytes");
            c.send(get("/static/big.bin", "Accept-Encoding: gzip"));
            RawConnection.Response bin = c.read();
            assertThat(bin.header("Content-Encoding")).isNull();
            assertThat(bin.bodyBytes()).isEqualTo(StaticTree.big());
            c.send("HEAD /static/data.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n" + get("/small"));
            RawConnection.Response head = c.read(true);
            assertThat(head.header("Content-Encoding")).isEqualTo("gzip");
            // the length of GET's body is known once it is made: the GET above left its gzip form kept
            // (compressed-file-cache), so HEAD says that length, and nothing of chunks, which GET does not use
            assertThat(head.header("Content-Length")).isEqualTo(r.header("Content-Length"));
            assertThat(head.header("Transfer-Encoding")).isNull();
            assertThat(c.read().body()).isEqualTo("x".repeat(1023));
            // before any GET made it (deflate, not made yet): HEAD omits the length (RFC 9110 9.3.2)
            c.send("HEAD /static/data.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: deflate\r\n\r\n" + get("/small"));
            RawConnection.Response unknown = c.read(true);
            assertThat(unknown.header("Content-Encoding")).isEqualTo("deflate");
            assertThat(unknown.header("Content-Length")).isNull();
            assertThat(unknown.header("Transfer-Encoding")).isNull();
            assertThat(c.read().body()).isEqualTo("x".repeat(1023));
            c.send(get("/static/data.json", "Accept-Encoding: deflate"));
            assertThat(new String(inflate(c.read().bodyBytes()), StandardCharsets.UTF_8)).isEqualTo(JSON);
        }
    }

    @Test
    void aLargeStaticFileIsCompressedAsItIsSent() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/large/large.json", "Accept-Encoding: gzip"));
            RawConnection.Response r = c.read();
            assertThat(r.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(new String(gunzip(r.bodyBytes()), StandardCharsets.UTF_8)).isEqualTo(LARGE_JSON);
            c.send("HEAD /large/large.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n" + get("/small"));
            RawConnection.Response head = c.read(true);
            assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(c.read().body()).isEqualTo("x".repeat(1023));
        }
    }

    /** Each piece a streamed body produces reaches the client decodable, before the stream ends. */
    @Test
    void aStreamIsCompressedPieceByPieceAndFlushed() throws Exception {
        try (BriskTestServer t = start(); Socket s = new Socket("127.0.0.1", t.port())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(get("/stream", "Accept-Encoding: gzip").getBytes(StandardCharsets.US_ASCII));
            PipedOutputStream producer = producers.poll(5, TimeUnit.SECONDS);
            assertThat(producer).isNotNull();
            InputStream in = s.getInputStream();
            String head = readHead(in);
            assertThat(head).contains("Content-Encoding: gzip\r\n").contains("Transfer-Encoding: chunked\r\n");
            Inflater inflater = new Inflater(true);
            ByteArrayOutputStream decoded = new ByteArrayOutputStream();
            boolean headerSkipped = false;
            for (String piece : new String[] {"first piece\n", "second piece\n", "third\n"}) {
                producer.write(piece.getBytes(StandardCharsets.US_ASCII));
                producer.flush();
                // read chunks until this piece decodes: it must, before the stream has ended
                while (!decoded.toString(StandardCharsets.US_ASCII).endsWith(piece)) {
                    byte[] chunk = readChunk(in);
                    assertThat(chunk).as("a chunk before the last").isNotEmpty();
                    int from = 0;
                    if (!headerSkipped) {
                        from = 10; // the gzip header
                        headerSkipped = true;
                    }
                    inflater.setInput(chunk, from, chunk.length - from);
                    byte[] out = new byte[4096];
                    int n;
                    while ((n = inflate(inflater, out)) > 0) {
                        decoded.write(out, 0, n);
                    }
                }
            }
            producer.close();
            assertThat(decoded.toString(StandardCharsets.US_ASCII)).isEqualTo("first piece\nsecond piece\nthird\n");
        }
    }

    private static int inflate(Inflater i, byte[] out) {
        try {
            return i.inflate(out);
        } catch (DataFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int c = in.read();
            assertThat(c).isNotNegative();
            b.write(c);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] readChunk(InputStream in) throws IOException {
        StringBuilder size = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            assertThat(c).isNotNegative();
            if (c != '\r') {
                size.append((char) c);
            }
        }
        int n = Integer.parseInt(size.toString(), 16);
        byte[] data = in.readNBytes(n);
        in.readNBytes(2);
        return data;
    }
}
