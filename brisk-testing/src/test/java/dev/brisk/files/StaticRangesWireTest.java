package dev.brisk.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.StaticFiles;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Ranges, precompressed siblings and the open-file bound on the wire, with the bytes written out. */
@ParameterizedClass
@EnumSource(Engine.class)
class StaticRangesWireTest {
    @Parameter
    Engine engine;

    @TempDir
    Path tmp;

    private StaticTree tree;

    private BriskTestServer start(UnaryOperator<StaticFiles> files, int maxOpenFiles) {
        tree = StaticTree.under(tmp);
        return BriskTestServer.start(engine, cfg -> {
            cfg.options().shutdownTimeout(Duration.ofSeconds(1)).ioThreads(2).maxHeaderSize(1 << 20)
                    .maxOpenFiles(maxOpenFiles);
            cfg.staticFiles("/static", files.apply(StaticFiles.directory(tree.root)));
            cfg.get("/hello", ctx -> ctx.text("hello"));
        });
    }

    private BriskTestServer start() {
        return start(f -> f, 1024);
    }

    private static String get(String path, String... headers) {
        StringBuilder sb = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: x\r\n");
        for (String h : headers) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    // ---- ranges -------------------------------------------------------------------------

    @Test
    void oneRangeIsA206WithTheseBytes() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "Range: bytes=7-12"));
            assertThat(StaticFilesWireTest.withoutDate(c.readHead())).isEqualTo("HTTP/1.1 206 Partial Content\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 6\r\n"
                    + "Vary: Accept-Encoding\r\n"
                    + "ETag: " + StaticTree.etag(21, "") + "\r\n"
                    + "Last-Modified: " + StaticTree.MODIFIED_HTTP + "\r\n"
                    + "Accept-Ranges: bytes\r\n"
                    + "Content-Range: bytes 7-12/21\r\n"
                    + "\r\n");
            assertThat(new String(c.readBytes(6), StandardCharsets.US_ASCII)).isEqualTo("static");
            c.send(get("/static/hello.txt", "Range: bytes=-6")); // the last six
            RawConnection.Response suffix = c.read();
            assertThat(suffix.header("Content-Range")).isEqualTo("bytes 15-20/21");
            assertThat(suffix.body()).isEqualTo("world!\n".substring(1));
            c.send(get("/static/hello.txt", "Range: bytes=16-"));
            assertThat(c.read().body()).isEqualTo("rld!\n");
            c.send(get("/static/hello.txt", "Range: bytes=0-99999999999999999999999")); // past the end: to the end
            RawConnection.Response all = c.read();
            assertThat(all.header("Content-Range")).isEqualTo("bytes 0-20/21");
            assertThat(all.body()).isEqualTo(StaticTree.HELLO);
        }
    }

    @Test
    void aLargeRangeComesFromTheFile() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/big.bin", "Range: bytes=1000-600999") + get("/hello"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(206);
            assertThat(r.header("Content-Range")).isEqualTo("bytes 1000-600999/1048576");
            assertThat(r.bodyBytes()).isEqualTo(Arrays.copyOfRange(StaticTree.big(), 1000, 601000));
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void severalRangesAreAMultipartBodyWithTheseBytes() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "Range: bytes=0-4, 14-18"));
            String head = c.readHead();
            Matcher m = Pattern.compile("Content-Type: multipart/byteranges; boundary=(brisk-[0-9a-f]+)\r\n").matcher(head);
            assertThat(m.find()).as(head).isTrue();
            String b = m.group(1);
            String body = "--" + b + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 0-4/21\r\n\r\nHello"
                    + "\r\n--" + b + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes 14-18/21\r\n\r\nworld"
                    + "\r\n--" + b + "--\r\n";
            assertThat(StaticFilesWireTest.withoutDate(head)).isEqualTo("HTTP/1.1 206 Partial Content\r\n"
                    + "Content-Type: multipart/byteranges; boundary=" + b + "\r\n"
                    + "Content-Length: " + body.length() + "\r\n"
                    + "Vary: Accept-Encoding\r\n"
                    + "ETag: " + StaticTree.etag(21, "") + "\r\n"
                    + "Last-Modified: " + StaticTree.MODIFIED_HTTP + "\r\n"
                    + "Accept-Ranges: bytes\r\n"
                    + "\r\n");
            assertThat(new String(c.readBytes(body.length()), StandardCharsets.ISO_8859_1)).isEqualTo(body);
            c.send(get("/hello"));
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void severalRangesOfALargeFileAreEachRightInThePartsTheyName() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/big.bin", "Range: bytes=500000-599999,10-19,-100"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(206);
            String body = new String(r.bodyBytes(), StandardCharsets.ISO_8859_1);
            byte[] big = StaticTree.big();
            // ascending after coalescing: 10-19, 500000-599999, the last 100
            long[][] expect = {{10, 19}, {500000, 599999}, {1048476, 1048575}};
            int at = 0;
            for (long[] e : expect) {
                String header = "Content-Range: bytes " + e[0] + "-" + e[1] + "/1048576\r\n\r\n";
                at = body.indexOf(header, at);
                assertThat(at).as(header).isPositive();
                at += header.length();
                byte[] part = body.substring(at, at + (int) (e[1] - e[0] + 1)).getBytes(StandardCharsets.ISO_8859_1);
                assertThat(part).isEqualTo(Arrays.copyOfRange(big, (int) e[0], (int) e[1] + 1));
            }
        }
    }

    @Test
    void overlappingAndAdjacentRangesAreMergedIntoOne() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "Range: bytes=2-5,0-3,4-6,7-7"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(206);
            assertThat(r.header("Content-Range")).isEqualTo("bytes 0-7/21");
            assertThat(r.body()).isEqualTo("Hello, s");
        }
    }

    @Test
    void tenThousandRangesGetTheWholeFileNotTenThousandParts() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            StringBuilder same = new StringBuilder("Range: bytes=0-0");
            StringBuilder distinct = new StringBuilder("Range: bytes=0-0");
            for (int i = 1; i < 10_000; i++) {
                same.append(",0-0");
                distinct.append(',').append(i * 2).append('-').append(i * 2);
            }
            c.send(get("/static/big.bin", distinct.toString()));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Length")).isEqualTo("1048576");
            assertThat(r.bodyBytes()).isEqualTo(StaticTree.big());
            c.send(get("/static/hello.txt", same.toString()));
            r = c.read();
            assertThat(r.status()).as("ten thousand of one range: more specs than are read").isEqualTo(200);
            assertThat(r.body()).isEqualTo(StaticTree.HELLO);
            // within the spec bound, overlapping copies merge into one part
            c.send(get("/static/hello.txt", "Range: bytes=0-0" + ",0-0".repeat(999)));
            r = c.read();
            assertThat(r.status()).isEqualTo(206);
            assertThat(r.body()).isEqualTo("H");
        }
    }

    @Test
    void moreDisjointRangesThanTheBoundGetTheWholeFile() {
        try (BriskTestServer t = start(f -> f.maxRanges(3), 1024); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "Range: bytes=0-0,2-2,4-4"));
            assertThat(c.read().status()).isEqualTo(206);
            c.send(get("/static/hello.txt", "Range: bytes=0-0,2-2,4-4,6-6"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(StaticTree.HELLO);
        }
    }

    @Test
    void unsatisfiableRangesAre416WithTheseBytes() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "Range: bytes=21-30, 99-"));
            String head = StaticFilesWireTest.withoutDate(c.readHead());
            assertThat(head).isEqualTo("HTTP/1.1 416 Range Not Satisfiable\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 21\r\n"
                    + "Vary: Accept-Encoding\r\n"
                    + "Accept-Ranges: bytes\r\n"
                    + "Content-Range: bytes */21\r\n"
                    + "\r\n");
            assertThat(new String(c.readBytes(21), StandardCharsets.US_ASCII)).isEqualTo("Range Not Satisfiable");
            c.send(get("/static/hello.txt", "Range: bytes=-0"));
            assertThat(c.read().status()).isEqualTo(416);
        }
    }

    @Test
    void malformedRangesAndOtherUnitsAreIgnored() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            for (String range : new String[] {"bytes=5-2", "bytes=abc", "bytes=", "items=0-1", "bytes=1-2-3",
                    "bytes 0-1", "bytes=--1", "bytes=0x10-20", "bytes=,,,"}) {
                c.send(get("/static/hello.txt", "Range: " + range));
                RawConnection.Response r = c.read();
                assertThat(r.status()).as(range).isEqualTo(200);
                assertThat(r.body()).as(range).isEqualTo(StaticTree.HELLO);
            }
        }
    }

    @Test
    void ifRangeDecidesWhetherTheRangeApplies() {
        String tag = StaticTree.etag(21, "");
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send(get("/static/hello.txt", "Range: bytes=0-4", "If-Range: " + tag));
            assertThat(c.read().status()).isEqualTo(206);
            c.send(get("/static/hello.txt", "Range: bytes=0-4", "If-Range: \"stale\""));
            assertThat(c.read().status()).isEqualTo(200);
            c.send(get("/static/hello.txt", "Range: bytes=0-4", "If-Range: W/" + tag));
            assertThat(c.read().status()).as("a weak tag never matches If-Range").isEqualTo(200);
            c.send(get("/static/hello.txt", "Range: bytes=0-4", "If-Range: " + StaticTree.MODIFIED_HTTP));
            assertThat(c.read().status()).isEqualTo(206);
            c.send(get("/static/hello.txt", "Range: bytes=0-4", "If-Range: Mon, 01 Jan 2024 00:00:00 GMT"));
            assertThat(c.read().status()).isEqualTo(200);
        }
    }

    @Test
    void headIgnoresRange() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send("HEAD /static/big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n" + get("/hello"));
            RawConnection.Response r = c.read(true);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Length")).isEqualTo("1048576");
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }

    // ---- precompressed siblings ------------------------------------------------------------

    @Test
    void aGzipSiblingIsSentToClientsThatTakeGzip() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            byte[] gz = tree.bytes("app.js.gz");
            c.send(get("/static/app.js", "Accept-Encoding: gzip, deflate"));
            assertThat(StaticFilesWireTest.withoutDate(c.readHead())).isEqualTo("HTTP/1.1 200 OK\r\n"
                    + "Content-Type: text/javascript; charset=utf-8\r\n"
                    + "Content-Length: " + gz.length + "\r\n"
                    + "Vary: Accept-Encoding\r\n"
                    + "ETag: " + StaticTree.etag(gz.length, "-gz") + "\r\n"
                    + "Last-Modified: " + StaticTree.MODIFIED_HTTP + "\r\n"
                    + "Accept-Ranges: bytes\r\n"
                    + "Content-Encoding: gzip\r\n"
                    + "\r\n");
            assertThat(c.readBytes(gz.length)).isEqualTo(gz);
            for (String ae : new String[] {"*", "br;q=0.9, gzip;q=0.1", "x-gzip", "GZIP;Q=0.5", "identity;q=0.5, *;q=1"}) {
                c.send(get("/static/app.js", "Accept-Encoding: " + ae));
                RawConnection.Response r = c.read();
                assertThat(r.header("Content-Encoding")).as(ae).isEqualTo("gzip");
                assertThat(r.bodyBytes()).as(ae).isEqualTo(gz);
            }
        }
    }

    @Test
    void theFileItselfGoesToClientsThatDoNotTakeGzip() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            for (String ae : new String[] {null, "", "identity", "gzip;q=0", "br", "deflate", "*;q=0, identity", "gzip;q=0.0000"}) {
                c.send(ae == null ? get("/static/app.js") : get("/static/app.js", "Accept-Encoding: " + ae));
                RawConnection.Response r = c.read();
                assertThat(r.header("Content-Encoding")).as(ae).isNull();
                assertThat(r.header("Vary")).as(ae).isEqualTo("Accept-Encoding");
                assertThat(r.header("ETag")).as(ae).isEqualTo(tree.etag("app.js"));
                assertThat(r.body()).as(ae).isEqualTo(StaticTree.APP_JS);
            }
            // the sibling's own tag validates the sibling, not the file
            c.send(get("/static/app.js", "Accept-Encoding: gzip", "If-None-Match: " + tree.etag("app.js.gz")));
            assertThat(c.read().status()).isEqualTo(304);
            c.send(get("/static/app.js", "If-None-Match: " + tree.etag("app.js.gz")));
            assertThat(c.read().status()).isEqualTo(200);
        }
    }

    @Test
    void aRangeOfAPrecompressedFileIsARangeOfTheSibling() {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            byte[] gz = tree.bytes("app.js.gz");
            c.send(get("/static/app.js", "Accept-Encoding: gzip", "Range: bytes=0-9"));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(206);
            assertThat(r.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(r.header("Content-Range")).isEqualTo("bytes 0-9/" + gz.length);
            assertThat(r.bodyBytes()).isEqualTo(Arrays.copyOf(gz, 10));

            // the 416's own text is not encoded: it says no Content-Encoding
            c.send(get("/static/app.js", "Accept-Encoding: gzip", "Range: bytes=" + (gz.length + 10) + "-"));
            RawConnection.Response none = c.read();
            assertThat(none.status()).isEqualTo(416);
            assertThat(none.header("Content-Range")).isEqualTo("bytes */" + gz.length);
            assertThat(none.header("Content-Encoding")).isNull();
            assertThat(none.body()).isEqualTo("Range Not Satisfiable");

            // several ranges of the sibling: no multipart wrapper labelled gzip; the whole sibling instead
            c.send(get("/static/app.js", "Accept-Encoding: gzip", "Range: bytes=0-9,20-29"));
            RawConnection.Response whole = c.read();
            assertThat(whole.status()).isEqualTo(200);
            assertThat(whole.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(whole.header("Content-Type")).doesNotStartWith("multipart/");
            assertThat(whole.bodyBytes()).isEqualTo(gz);

            // the file itself still gets its multipart answer
            c.send(get("/static/app.js", "Range: bytes=0-9,20-29"));
            RawConnection.Response parts = c.read();
            assertThat(parts.status()).isEqualTo(206);
            assertThat(parts.header("Content-Type")).startsWith("multipart/byteranges");
            assertThat(parts.header("Content-Encoding")).isNull();
        }
    }

    // ---- the open-file bound ---------------------------------------------------------------

    /**
     * A sparse file far larger than any socket buffer: a client that reads none of it keeps it open on the
     * server (with 1 MiB, loopback buffers could take the whole file and the server would be done with it).
     */
    private void hugeFile() throws java.io.IOException {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(tree.root.resolve("huge.bin").toFile(), "rw")) {
            f.setLength(256L << 20);
        }
    }

    @Test
    void theOpenFileBoundAnswers503UntilAFileIsClosed() throws Exception {
        try (BriskTestServer t = start(f -> f.maxAge(Duration.ofHours(1)), 1); RawConnection c = t.raw()) {
            hugeFile();
            RawConnection slow = t.raw();
            // a reader that takes nothing: its response holds the only permit
            slow.send(get("/static/huge.bin"));
            assertThat(slow.readHead()).startsWith("HTTP/1.1 200 OK");
            c.send(get("/static/big.bin"));
            RawConnection.Response busy = c.read();
            assertThat(busy.status()).isEqualTo(503);
            assertThat(busy.header("Retry-After")).isEqualTo("1");
            assertThat(busy.body()).isEqualTo("Too many files open: try again shortly");
            // none of the file's caching or validators: a cache must not keep the 503 for an hour, nor revalidate it
            assertThat(busy.header("Cache-Control")).isNull();
            assertThat(busy.header("ETag")).isNull();
            assertThat(busy.header("Last-Modified")).isNull();
            c.send(get("/static/app.js", "Accept-Encoding: gzip"));
            RawConnection.Response busyGz = c.read();
            assertThat(busyGz.status()).isEqualTo(503);
            assertThat(busyGz.header("Content-Encoding")).as("the 503's text is not encoded").isNull();
            c.send(get("/static/hello.txt", "Range: bytes=0-1,3-4"));
            assertThat(c.read().status()).as("a multipart body holds its file open too").isEqualTo(503);
            c.send(get("/static/hello.txt", "Range: bytes=0-1"));
            RawConnection.Response busyRange = c.read();
            assertThat(busyRange.status()).isEqualTo(503);
            assertThat(busyRange.header("Content-Range")).as("not a 206's").isNull();
            assertThat(busyRange.header("Cache-Control")).isNull();
            c.send(get("/static/hello.txt"));
            assertThat(c.read().status()).as("a small file is read and closed at once, but needs a permit too").isEqualTo(503);
            c.send(get("/hello"));
            assertThat(c.read().body()).isEqualTo("hello");
            slow.close(); // the server's write fails, and the file is closed
            long deadline = System.nanoTime() + 5_000_000_000L;
            int status;
            do {
                c.send(get("/static/big.bin"));
                status = c.read().status();
            } while (status == 503 && System.nanoTime() - deadline < 0);
            assertThat(status).isEqualTo(200);
        }
    }

    @Test
    void aClientThatLeavesMidFileGivesItsFileBack() throws Exception {
        try (BriskTestServer t = start(f -> f, 1); RawConnection c = t.raw()) {
            try (RawConnection gone = t.raw()) {
                gone.send(get("/static/big.bin"));
                gone.readHead();
                gone.readBytes(1000);
            } // closed mid-body
            long deadline = System.nanoTime() + 5_000_000_000L;
            int status;
            do {
                c.send(get("/static/big.bin"));
                status = c.read().status();
            } while (status == 503 && System.nanoTime() - deadline < 0);
            assertThat(status).isEqualTo(200);
        }
    }
}
