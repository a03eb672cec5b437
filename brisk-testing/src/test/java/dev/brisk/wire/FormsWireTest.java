package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.Context;
import dev.brisk.Part;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Forms on the wire, on every engine: urlencoded fields decoded strictly, multipart bodies read part by
 * part or stored (large parts in temporary files that are gone once the handler returns, however it
 * ends, or once the answer made of one is sent), and hostile bodies refused with the right status: 10,000 parts, no boundary, a boundary never
 * closed, huge part headers, a body trickled one byte per read.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class FormsWireTest {
    private static final int KIB = 1024;
    private static final String B = "----brisk7MA4YWxkTrZu0gW";

    @Parameter
    Engine engine;

    @TempDir
    Path dir;

    private long files() {
        return SpoolFiles.count(dir);
    }

    private static String crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return Long.toHexString(c.getValue());
    }

    private static String describe(Part p, byte[] content) {
        return p.name() + ":" + p.filename() + ":" + content.length + ":" + crc(content);
    }

    private void routes(BriskConfig cfg) {
        cfg.post("/fields", ctx -> ctx.text(ctx.formParamMap().toString()
                + " first-a=" + ctx.formParam("a") + " all-a=" + ctx.formParams("a")));
        cfg.post("/parts", ctx -> {
            List<String> out = new ArrayList<>();
            for (Part p : ctx.parts()) {
                out.add(describe(p, p.bytes()) + ":size=" + p.size());
            }
            ctx.text(String.join("\n", out) + "\nfiles=" + files());
        }).maxBodySize(4L << 20);
        cfg.post("/count", ctx -> ctx.text("parts=" + ctx.parts().size())).maxBodySize(4L << 20);
        cfg.post("/stream", ctx -> ctx.text(streamed(ctx))).streamBody().maxBodySize(4L << 20);
        cfg.post("/stream-parts", ctx -> {
            List<String> out = new ArrayList<>();
            for (Part p : ctx.parts()) {
                try (InputStream in = p.content()) {
                    out.add(describe(p, in.readAllBytes()));
                }
            }
            ctx.text(String.join("\n", out) + "\nfiles=" + files());
        }).streamBody().maxBodySize(4L << 20);
        cfg.post("/fail", ctx -> {
            ctx.parts();
            throw new IllegalStateException("handler failed after storing its parts");
        }).maxBodySize(4L << 20);
        cfg.get("/hello", ctx -> ctx.text("hello"));
        // parts stored, none read as a stream, then an answer that waits: the parts need not wait with it
        cfg.post("/store-then-wait", ctx -> {
            ctx.parts();
            ctx.stream(new InputStream() {
                private boolean done;

                @Override
                public int read() {
                    if (done) {
                        return -1;
                    }
                    answerBegan.countDown(); // the handler has returned: its answer is being sent
                    try {
                        answerMayEnd.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    done = true;
                    return 'x';
                }
            });
        }).maxBodySize(4L << 20);
        // a stored part sent back as the answer: read after the handler returned, while it is sent
        cfg.post("/echo-part", ctx -> ctx.contentType("application/octet-stream")
                .stream(ctx.part(ctx.queryParam("name")).content())).maxBodySize(4L << 20);
        // the same through a wrapper: the answer reads the part without being its stream
        cfg.post("/echo-part-wrapped", ctx -> ctx.contentType("application/octet-stream")
                .stream(new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(new byte[] {'>'}),
                        new java.io.BufferedInputStream(ctx.part(ctx.queryParam("name")).content(), 1024))))
                .maxBodySize(4L << 20);
    }

    private static String streamed(Context ctx) throws IOException {
        List<String> out = new ArrayList<>();
        for (Part p : ctx.multipart()) {
            if (p.filename() == null) {
                out.add(p.name() + "=" + p.text());
            } else {
                try (InputStream in = p.content()) {
                    out.add(describe(p, in.readAllBytes()));
                }
            }
        }
        return String.join("\n", out);
    }

    private BriskTestServer start(Consumer<BriskConfig> options) {
        return Wire.start(engine, cfg -> {
            cfg.options().bodySpoolDir(dir.toString());
            options.accept(cfg);
            routes(cfg);
        });
    }

    /** A multipart body being built. */
    static final class Form {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Form field(String name, String value) {
            ascii("--" + B + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n");
            out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
            ascii("\r\n");
            return this;
        }

        Form file(String name, String filename, byte[] content) {
            ascii("--" + B + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
            out.writeBytes(content);
            ascii("\r\n");
            return this;
        }

        Form raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        Form ascii(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
            return this;
        }

        byte[] end() {
            ascii("--" + B + "--\r\n");
            return out.toByteArray();
        }

        byte[] unclosed() {
            return out.toByteArray();
        }
    }

    private static String head(String path, String contentType, int length) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + contentType + "\r\nContent-Length: "
                + length + "\r\n\r\n";
    }

    private static String multipart(String path, int length) {
        return head(path, "multipart/form-data; boundary=" + B, length);
    }

    private static RawConnection.Response post(RawConnection c, String path, byte[] body) {
        return c.send(multipart(path, body.length)).send(body).read();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private void awaitFiles(long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (files() != n && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertThat(files()).as("files in the spool directory").isEqualTo(n);
    }

    private void awaitNothingHeld(BriskTestServer t) throws InterruptedException {
        awaitFiles(0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.app().metrics().bodySpoolReserved() != 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertThat(t.app().metrics().bodySpoolReserved()).as("spool disk reserved").isZero();
        BodyBudgetTest.awaitNoneReserved(t);
    }

    @Test
    void aStoredPartSentAsTheAnswerIsWholeAndGivenBackOnceSent() throws Exception { // itself or through a wrapper
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] small = random(1000, 5);
            byte[] large = random(300 * KIB, 6); // over form-spool-threshold: in a file
            byte[] form = new Form().file("small", "s.bin", small).file("large", "l.bin", large).end();
            for (int round = 0; round < 2; round++) {
                RawConnection.Response r = post(c, "/echo-part?name=large", form);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.bodyBytes()).as("the spooled part, read after its handler returned").isEqualTo(large);
                awaitNothingHeld(t);
                RawConnection.Response m = post(c, "/echo-part?name=small", form);
                assertThat(m.bodyBytes()).as("the part held in memory").isEqualTo(small);
                awaitNothingHeld(t);
                for (String name : new String[] {"large", "small"}) {
                    byte[] w = post(c, "/echo-part-wrapped?name=" + name, form).bodyBytes();
                    assertThat(w.length).as("wrapped " + name).isEqualTo(1 + (name.equals("large") ? large : small).length);
                    assertThat(java.util.Arrays.copyOfRange(w, 1, w.length)).as("wrapped " + name, ", whole")
                            .isEqualTo(name.equals("large") ? large : small);
                    awaitNothingHeld(t);
                }
            }
        }
    }

    private final java.util.concurrent.CountDownLatch answerBegan = new java.util.concurrent.CountDownLatch(1);
    private final java.util.concurrent.CountDownLatch answerMayEnd = new java.util.concurrent.CountDownLatch(1);

    /** An answer that is a stream holds only the stored parts the handler opened as streams: the others go at once. */
    @Test
    void partsNotReadAsStreamsAreGivenBackWhileAnUnrelatedAnswerIsSent() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] form = new Form().file("large", "l.bin", random(300 * KIB, 7)).end(); // in a file
            c.send(multipart("/store-then-wait", form.length)).send(form);
            assertThat(answerBegan.await(10, TimeUnit.SECONDS)).as("the answer began").isTrue();
            awaitFiles(0); // the part's file is gone while the answer still waits (the body itself may be held)
            answerMayEnd.countDown();
            assertThat(c.read().body()).isEqualTo("x");
            awaitNothingHeld(t);
        }
    }

    @Test
    void anRfc8187FileNameIsDecodedAndWinsAndAMalformedOneIs400() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] content = random(10, 3);
            byte[] form = new Form().ascii("--" + B + "\r\nContent-Disposition: form-data; name=\"f\"; "
                    + "filename=\"EURO rates.txt\"; filename*=UTF-8''%e2%82%ac%20rates.txt\r\n\r\n")
                    .raw(content).ascii("\r\n").end();
            for (String path : new String[] {"/parts", "/stream"}) {
                RawConnection.Response r = post(c, path, form);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).startsWith("f:\u20ac rates.txt:10:" + crc(content));
            }
            byte[] bad = new Form().ascii("--" + B + "\r\nContent-Disposition: form-data; name=\"f\"; "
                    + "filename*=UTF-16''%00a\r\n\r\nx\r\n").end();
            RawConnection.Response r = post(c, "/parts", bad);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).contains("filename*'s charset is not UTF-8 or ISO-8859-1: UTF-16");
        }
    }

    @Test
    void backslashesInAFileNameStayExceptBeforeAQuoteOrABackslash() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] content = random(7, 5);
            // as curl sends `filename=a\b"c.txt` (a quote as %22), and as old browsers sent whole Windows paths
            String[][] cases = {
                    {"a\\b%22c.txt", "a\\b%22c.txt"},
                    {"C:\\Users\\x\\a.txt", "C:\\Users\\x\\a.txt"},
                    {"say \\\"hi\\\".txt", "say \"hi\".txt"},
                    {"back\\\\slash.txt", "back\\slash.txt"}};
            for (String[] k : cases) {
                byte[] form = new Form().file("f", k[0], content).end();
                for (String path : new String[] {"/parts", "/stream"}) {
                    RawConnection.Response r = post(c, path, form);
                    assertThat(r.status()).as(k[0]).isEqualTo(200);
                    assertThat(r.body()).as(k[0]).startsWith("f:" + k[1] + ":7:" + crc(content));
                }
            }
        }
    }

    // ---- urlencoded ----------------------------------------------------------------------------

    @Test
    void urlencodedFieldsAreDecodedInOrder() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            String body = "b=x+y&a=1&a=%C3%A9%26&&c";
            c.send(head("/fields", "application/x-www-form-urlencoded", body.length()) + body);
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{b=[x y], a=[1, \u00e9&], c=[]} first-a=1 all-a=[1, \u00e9&]");
            // the same fields from a multipart body (file parts are not fields)
            byte[] form = new Form().field("b", "x y").field("a", "1").file("f", "f.bin", random(10, 1))
                    .field("a", "\u00e9&").field("c", "").end();
            RawConnection.Response m = post(c, "/fields", form);
            assertThat(m.body()).isEqualTo("{b=[x y], a=[1, \u00e9&], c=[]} first-a=1 all-a=[1, \u00e9&]");
        }
    }

    @Test
    void badPercentEncodingIs400AndAWrongTypeIs415() throws Exception {
        try (BriskTestServer t = start(cfg -> { })) {
            try (RawConnection c = t.raw()) {
                String body = "a=%zz";
                c.send(head("/fields", "application/x-www-form-urlencoded", body.length()) + body);
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(400);
                assertThat(r.body()).contains("Malformed percent-encoding");
                String latin = "a=%E9"; // Latin-1 é, not UTF-8
                c.send(head("/fields", "application/x-www-form-urlencoded", latin.length()) + latin);
                RawConnection.Response u = c.read();
                assertThat(u.status()).isEqualTo(400);
                assertThat(u.body()).contains("not valid UTF-8");
                c.send(head("/fields", "application/x-www-form-urlencoded; charset=ISO-8859-1", latin.length()) + latin);
                assertThat(c.read().body()).startsWith("{a=[\u00e9]}");
                // the same bytes as a multipart field: a 400 naming the part as well, not a U+FFFD
                byte[] bad = new Form().ascii("--" + B + "\r\nContent-Disposition: form-data; name=\"g\"\r\n\r\n")
                        .raw(new byte[] {(byte) 0xE9, 'x'}).ascii("\r\n").end();
                RawConnection.Response mp = post(c, "/fields", bad);
                assertThat(mp.status()).isEqualTo(400);
                assertThat(mp.body()).contains("Form part \"g\" is not valid UTF-8");
                byte[] latinPart = new Form().ascii("--" + B + "\r\nContent-Disposition: form-data; name=\"g\"\r\n"
                        + "Content-Type: text/plain; charset=ISO-8859-1\r\n\r\n")
                        .raw(new byte[] {(byte) 0xE9, 'x'}).ascii("\r\n").end();
                assertThat(post(c, "/fields", latinPart).body()).startsWith("{g=[\u00e9x]}");
                c.send(head("/fields", "application/json", 2) + "{}");
                RawConnection.Response j = c.read();
                assertThat(j.status()).isEqualTo(415);
                assertThat(j.body()).contains("application/x-www-form-urlencoded or multipart/form-data")
                        .contains("application/json");
                c.send("POST /fields HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\na=1");
                RawConnection.Response none = c.read();
                assertThat(none.status()).isEqualTo(415);
                assertThat(none.body()).contains("without Content-Type");
                c.send("POST /fields HTTP/1.1\r\nHost: x\r\nContent-Type: \r\nContent-Length: 3\r\n\r\na=1");
                RawConnection.Response empty = c.read();
                assertThat(empty.status()).isEqualTo(415);
                assertThat(empty.body()).contains("or multipart/form-data, not an empty Content-Type");
                c.send(head("/stream", "text/plain", 1) + "x");
                assertThat(c.read().status()).as("multipart() on a text body").isEqualTo(415);
            }
            try (RawConnection c = t.raw()) {
                String many = "a=1&".repeat(1001);
                c.send(head("/fields", "application/x-www-form-urlencoded", many.length()) + many);
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(413);
                assertThat(r.body()).contains("more than 1000 fields");
            }
        }
    }

    // ---- multipart -----------------------------------------------------------------------------

    @Test
    void partsAreStoredWithLargeOnesInFilesDeletedAfterTheResponse() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] small = random(1000, 2);
            byte[] large = random(300 * KIB, 3);
            byte[] form = new Form().field("title", "h\u00e9llo").file("small", "s.bin", small)
                    .file("large", "l.bin", large).file("empty", "", new byte[0]).end();
            RawConnection.Response r = post(c, "/parts", form);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(String.join("\n",
                    "title:null:6:" + crc("h\u00e9llo".getBytes(StandardCharsets.UTF_8)) + ":size=6",
                    "small:s.bin:1000:" + crc(small) + ":size=1000",
                    "large:l.bin:" + large.length + ":" + crc(large) + ":size=" + large.length,
                    "empty::0:" + crc(new byte[0]) + ":size=0",
                    "files=1"));
            awaitNothingHeld(t);
            // streamed part by part, and stored from a streamed body: the same parts
            RawConnection.Response s = post(c, "/stream", form);
            assertThat(s.body()).isEqualTo(String.join("\n", "title=h\u00e9llo", "small:s.bin:1000:" + crc(small),
                    "large:l.bin:" + large.length + ":" + crc(large), "empty::0:" + crc(new byte[0])));
            RawConnection.Response sp = post(c, "/stream-parts", form);
            assertThat(sp.body()).endsWith("large:l.bin:" + large.length + ":" + crc(large) + "\n"
                    + "empty::0:" + crc(new byte[0]) + "\nfiles=1");
            awaitNothingHeld(t);
            assertThat(t.get("/hello").body()).isEqualTo("hello");
        }
    }

    @Test
    void tenThousandPartsAre413UnlessTheLimitAllowsThem() throws Exception {
        Form f = new Form();
        for (int i = 0; i < 10_000; i++) {
            f.field("p" + i, "v");
        }
        byte[] form = f.end();
        try (BriskTestServer t = start(cfg -> { })) {
            for (String path : new String[] {"/count", "/stream"}) {
                try (RawConnection c = t.raw()) {
                    RawConnection.Response r = post(c, path, form);
                    assertThat(r.status()).as(path).isEqualTo(413);
                    assertThat(r.body()).contains("more than 1000 parts");
                }
            }
            awaitNothingHeld(t);
        }
        try (BriskTestServer t = start(cfg -> cfg.options().formMaxParts(10_000)); RawConnection c = t.raw()) {
            RawConnection.Response r = post(c, "/count", form);
            assertThat(r.body()).isEqualTo("parts=10000");
            awaitNothingHeld(t);
        }
    }

    /**
     * What a form holds beyond its stored bytes counts against {@code body-memory-budget}: decoded
     * urlencoded pairs, stored parts' heads, and a multipart field's text beside its stored bytes. Each
     * form below fits the budget as bytes but not as the heap holds it: 503 with Retry-After, and
     * everything given back; with room, the same forms are served.
     */
    @Test
    void formFieldsAndStoredPartHeadsAreChargedToTheBodyMemoryBudget() throws Exception {
        StringBuilder pairs = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            pairs.append("k").append(i).append("=v&"); // 7 KB on the wire, about 180 KB as strings
        }
        byte[] urlencoded = pairs.toString().getBytes(StandardCharsets.ISO_8859_1);
        Form h = new Form();
        for (int i = 0; i < 40; i++) {
            h.ascii("--" + B + "\r\nContent-Disposition: form-data; name=\"p" + i + "\"\r\nX-Pad: "
                    + "x".repeat(4000) + "\r\n\r\nv\r\n");
        }
        byte[] heads = h.end(); // 160 KB of heads, 40 bytes of content
        Form t3 = new Form();
        for (int i = 0; i < 6; i++) {
            t3.field("t" + i, "y".repeat(8_000));
        }
        // a 48 KB body and 48 KB stored (a part of at most 8 KiB reserves its size): 97 KB together, then
        // 48 KB more as text
        byte[] texts = t3.end();
        try (BriskTestServer t = start(cfg -> cfg.options().bodyMemoryBudget(128 * KIB))) {
            try (RawConnection c = t.raw()) {
                RawConnection.Response r = c.send(head("/fields", "application/x-www-form-urlencoded",
                        urlencoded.length)).send(urlencoded).read();
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.header("Retry-After")).isEqualTo("1");
                assertThat(r.body()).contains("no request-body memory free for the form's fields");
            }
            awaitNothingHeld(t);
            try (RawConnection c = t.raw()) {
                RawConnection.Response r = post(c, "/stream-parts", heads);
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.body()).contains("no request-body memory free for the form's part headers");
            }
            awaitNothingHeld(t);
            try (RawConnection c = t.raw()) {
                RawConnection.Response r = post(c, "/fields", texts);
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.body()).contains("no request-body memory free for the form's fields");
            }
            awaitNothingHeld(t);
            assertThat(t.get("/hello").body()).isEqualTo("hello");
        }
        try (BriskTestServer t = start(cfg -> cfg.options().bodyMemoryBudget(4L << 20)); RawConnection c = t.raw()) {
            RawConnection.Response r = c.send(head("/fields", "application/x-www-form-urlencoded",
                    urlencoded.length)).send(urlencoded).read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).contains("k999=[v]");
            assertThat(post(c, "/stream-parts", heads).body()).startsWith("p0:null:1:");
            assertThat(post(c, "/fields", texts).body()).startsWith("{t0=[yyy");
            awaitNothingHeld(t);
        }
    }

    @Test
    void aMissingOrInvalidBoundaryIs400() throws Exception {
        byte[] form = new Form().field("a", "1").end();
        String[][] cases = {
            {"multipart/form-data", "no boundary parameter"},
            {"multipart/form-data; boundary=" + "b".repeat(71), "1 to 70 characters"},
            {"multipart/form-data; boundary=\"a<b\"", "does not allow"},
            {"multipart/form-data; boundary=", "a parameter has no value"},
        };
        try (BriskTestServer t = start(cfg -> { })) {
            for (String path : new String[] {"/parts", "/stream"}) {
                for (String[] k : cases) {
                    // a streamed route's unread body closes its connection after the answer: one each
                    try (RawConnection c = t.raw()) {
                        c.send(head(path, k[0], form.length)).send(form);
                        RawConnection.Response r = c.read();
                        assertThat(r.status()).as(path + " " + k[0]).isEqualTo(400);
                        assertThat(r.body()).contains(k[1]);
                    }
                }
            }
        }
    }

    @Test
    void aBoundaryNeverClosedIs400AndLeavesNoFile() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] form = new Form().field("a", "1").file("big", "b.bin", random(200 * KIB, 4)).unclosed();
            for (String path : new String[] {"/parts", "/stream", "/stream-parts"}) {
                RawConnection.Response r = post(c, path, form);
                assertThat(r.status()).as(path).isEqualTo(400);
                assertThat(r.body()).contains("ends before the closing boundary delimiter");
                awaitNothingHeld(t);
            }
        }
    }

    @Test
    void hugePartHeadersAre413AndMalformedOnes400() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] huge = new Form().ascii("--" + B + "\r\nContent-Disposition: form-data; name=a\r\nX-Pad: "
                    + "p".repeat(9000) + "\r\n\r\nv\r\n").end();
            for (String path : new String[] {"/parts", "/stream"}) {
                RawConnection.Response r = post(c, path, huge);
                assertThat(r.status()).as(path).isEqualTo(413);
                assertThat(r.body()).contains("Part headers are larger than 8192 bytes");
            }
            byte[] noName = new Form().ascii("--" + B + "\r\nContent-Disposition: form-data\r\n\r\nv\r\n").end();
            RawConnection.Response r = post(c, "/parts", noName);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).contains("has no name");
            byte[] bareLf = new Form().ascii("--" + B + "\r\nContent-Disposition: form-data; name=a\n\nv\r\n").end();
            assertThat(post(c, "/parts", bareLf).status()).isEqualTo(400);
        }
    }

    @Test
    void partAndTotalSizesAre413() throws Exception {
        try (BriskTestServer t = start(cfg -> cfg.options().formMaxPartSize(100 * KIB).formMaxSize(250 * KIB))) {
            try (RawConnection c = t.raw()) {
                byte[] big = new Form().file("f", "f.bin", random(100 * KIB + 1, 5)).end();
                RawConnection.Response r = post(c, "/parts", big);
                assertThat(r.status()).isEqualTo(413);
                assertThat(r.body()).contains("Part 'f' is larger than 102400 bytes");
            }
            try (RawConnection c = t.raw()) {
                byte[] total = new Form().file("f", "f.bin", random(90 * KIB, 6)).file("g", "g.bin", random(90 * KIB, 7))
                        .file("h", "h.bin", random(90 * KIB, 8)).end();
                RawConnection.Response r = post(c, "/stream-parts", total);
                assertThat(r.status()).isEqualTo(413);
                assertThat(r.body()).contains("Multipart body is larger than 256000 bytes");
            }
            awaitNothingHeld(t);
        }
    }

    @Test
    void partsSplitAtEveryByteAcrossReadsAreFound() throws Exception {
        try (BriskTestServer t = start(cfg -> { })) {
            byte[] content = "0123\r\n--" .getBytes(StandardCharsets.ISO_8859_1);
            byte[] form = new Form().ascii("pre\r\n").field("a", "x\r\n-").file("f", "f.txt", content).end();
            String expected = "a=x\r\n-\nf:f.txt:" + content.length + ":" + crc(content);
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.setTcpNoDelay(true);
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                byte[] h = multipart("/stream", form.length).getBytes(StandardCharsets.ISO_8859_1);
                long sent = t.app().metrics().bytesIn() + h.length;
                out.write(h);
                out.flush();
                Wire.awaitBytesRead(t, sent);
                // one byte per write, each read by the server before the next is sent: every boundary of the
                // body falls between two reads once
                for (byte b : form) {
                    out.write(b);
                    out.flush();
                    Wire.awaitBytesRead(t, ++sent);
                }
                RawConnection.Response r = readResponse(s.getInputStream());
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(expected);
            }
        }
    }

    /** Reads one response with a Content-Length from {@code in}. */
    private static RawConnection.Response readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int c;
        int state = 0;
        while (state < 4 && (c = in.read()) >= 0) {
            head.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        java.util.Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("Content-Length", "0")));
        return new RawConnection.Response(Integer.parseInt(lines[0].split(" ")[1]), lines[0], headers, body);
    }

    @Test
    void storedPartsAreDeletedWhenTheHandlerThrows() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] form = new Form().file("big", "b.bin", random(200 * KIB, 9)).end();
            RawConnection.Response r = post(c, "/fail", form);
            assertThat(r.status()).isEqualTo(500);
            awaitNothingHeld(t);
        }
    }

    @Test
    void aClientThatLeavesMidUploadLeavesNoFile() throws Exception {
        try (BriskTestServer t = start(cfg -> { })) {
            byte[] form = new Form().file("big", "b.bin", random(2 * 1024 * KIB, 10)).end();
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.getOutputStream().write(multipart("/stream-parts", form.length).getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().write(form, 0, 1024 * KIB);
                s.getOutputStream().flush();
                awaitFiles(1); // the large part is being spooled
                s.setSoLinger(true, 0);
            }
            awaitNothingHeld(t);
            assertThat(t.get("/hello").body()).isEqualTo("hello");
        }
    }
}
