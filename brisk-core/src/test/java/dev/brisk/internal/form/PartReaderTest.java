package dev.brisk.internal.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.FormOptions;
import dev.brisk.HttpException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The multipart scanner on its own: parts found whatever the reads' sizes, and every fault refused with its status. */
class PartReaderTest {
    private static final String B = "XyZ-boundary'()+_,-./:=?";
    private static final FormOptions LIMITS = FormOptions.DEFAULTS;

    /** A stream that hands out at most {@code step} bytes per read, as a slow network would. */
    private static InputStream trickle(byte[] b, int step) {
        return new ByteArrayInputStream(b) {
            @Override
            public synchronized int read(byte[] out, int off, int len) {
                return super.read(out, off, Math.min(len, step));
            }
        };
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Reads every part as "name|filename|type|content" (content as ISO-8859-1), with the given read sizes. */
    private static List<String> parts(byte[] body, int step, int readSize, FormOptions limits) {
        PartReader r = new PartReader(trickle(body, step), B, limits);
        List<String> out = new ArrayList<>();
        PartHead h;
        byte[] buf = new byte[readSize];
        while ((h = r.next()) != null) {
            ByteArrayOutputStream content = new ByteArrayOutputStream();
            int n;
            while ((n = r.read(buf, 0, buf.length)) >= 0) {
                content.write(buf, 0, n);
            }
            out.add(h.name() + "|" + h.filename() + "|" + h.contentType() + "|"
                    + content.toString(StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private static List<String> parts(byte[] body) {
        return parts(body, Integer.MAX_VALUE, 8192, LIMITS);
    }

    private static String form() {
        return "preamble to ignore\r\n"
                + "--" + B + "\r\n"
                + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
                + "Hello\r\n--" + B.substring(0, B.length() - 1) + "!not-quite\r\n"
                + "--" + B + "  \t\r\n"
                + "content-disposition: form-data; name=\"file\"; filename=\"a \\\"q\\\" é.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n"
                + "line1\r\n--" + B.substring(0, 5) + "\r\n\r\r\n"
                + "\r\n--" + B + "\r\n"
                + "Content-Disposition: form-data; name=empty\r\n\r\n"
                + "\r\n--" + B + "--\r\nepilogue\r\n--" + B + "\r\n";
    }

    private static final List<String> EXPECTED = List.of(
            "title|null|null|Hello\r\n--" + B.substring(0, B.length() - 1) + "!not-quite",
            "file|a \"q\" \u00e9.txt|text/plain|line1\r\n--" + B.substring(0, 5) + "\r\n\r\r\n",
            "empty|null|null|");

    @Test
    void partsAreFoundWithPreambleEpilogueAndNearMissDelimiters() {
        List<String> p = parts(bytes(form()));
        // the file name's é was UTF-8 on the wire: compare decoded
        assertThat(p).hasSize(3);
        assertThat(p.get(0)).isEqualTo(EXPECTED.get(0));
        assertThat(p.get(1)).isEqualTo("file|a \"q\" \u00e9.txt|text/plain|line1\r\n--" + B.substring(0, 5) + "\r\n\r\r\n");
        assertThat(p.get(2)).isEqualTo(EXPECTED.get(2));
    }

    @Test
    void aBadCloseDelimiterLineIsNotAnEndForACallerThatAsksAgain() {
        byte[] body = bytes(FIELD + "\r\n--" + B + "--x\r\n--" + B + "\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n--"
                + B + "--");
        PartReader r = new PartReader(new java.io.ByteArrayInputStream(body), B, LIMITS);
        assertThat(r.next()).isNotNull();
        assertThatThrownBy(r::next).hasMessageContaining("closing boundary delimiter is followed by more than padding");
        assertThatThrownBy(r::next).as("asked again").isInstanceOf(dev.brisk.HttpException.class);
    }

    @Test
    void theCloseDelimiterMayEndTheBodyOrHavePaddingAndAnEpilogueAfterIt() {
        String one = "--" + B + "\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--" + B + "--";
        for (String tail : new String[] {"", " \t ", "\r\n", " \r\nanything, --" + B + " even this"}) {
            assertThat(parts(bytes(one + tail))).as("tail %s", tail).containsExactly("a|null|null|1");
        }
    }

    @Test
    void everyReadSizeFindsTheSameParts() {
        byte[] body = bytes(form());
        List<String> whole = parts(body);
        for (int step = 1; step <= body.length; step++) {
            assertThat(parts(body, step, 8192, LIMITS)).as("reads of %d bytes", step).isEqualTo(whole);
        }
        for (int readSize = 1; readSize <= 40; readSize++) {
            assertThat(parts(body, 3, readSize, LIMITS)).as("content read %d bytes at a time", readSize).isEqualTo(whole);
        }
    }

    @Test
    void largeRandomContentSurvivesEveryFewBytes() {
        byte[] content = new byte[200_000];
        new Random(7).nextBytes(content);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(bytes("--" + B + "\r\nContent-Disposition: form-data; name=f; filename=r.bin\r\n\r\n"));
        body.writeBytes(content);
        body.writeBytes(bytes("\r\n--" + B + "--"));
        for (int step : new int[] {1, 7, 73, 16_384, Integer.MAX_VALUE}) {
            PartReader r = new PartReader(trickle(body.toByteArray(), step), B, LIMITS);
            PartHead h = r.next();
            assertThat(h.filename()).isEqualTo("r.bin");
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[5000];
            int n;
            while ((n = r.read(buf, 0, buf.length)) >= 0) {
                got.write(buf, 0, n);
            }
            assertThat(got.toByteArray()).as("step %d", step).isEqualTo(content);
            assertThat(r.next()).isNull();
        }
    }

    private static void refused(String body, int status, String message) {
        refused(body, LIMITS, status, message);
    }

    private static void refused(String body, FormOptions limits, int status, String message) {
        for (int step : new int[] {1, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> parts(bytes(body), step, 8192, limits))
                    .isInstanceOf(HttpException.class)
                    .hasMessageContaining(message)
                    .extracting(e -> ((HttpException) e).status()).isEqualTo(status);
        }
    }

    private static final String FIELD = "--" + B + "\r\nContent-Disposition: form-data; name=a\r\n\r\nx";

    @Test
    void malformedBodiesAre400() {
        refused("", 400, "ends before the closing boundary delimiter");
        refused("no delimiter at all", 400, "ends before the closing boundary delimiter");
        refused(FIELD, 400, "ends before the closing boundary delimiter");
        refused(FIELD + "\r\n--" + B, 400, "ends before the closing boundary delimiter");
        refused(FIELD + "\r\n--" + B + "-x", 400, "followed by '-' and not '--'");
        refused(FIELD + "\r\n--" + B + "x\r\n", 400, "more than padding");
        // after the close delimiter too: what follows would be dropped unread as its epilogue
        refused(FIELD + "\r\n--" + B + "--x\r\n--" + B + "\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n--"
                + B + "--", 400, "closing boundary delimiter is followed by more than padding");
        refused(FIELD + "\r\n--" + B + "-- \t\rx", 400, "closing boundary delimiter is followed by more than padding");
        refused(FIELD + "\r\n--" + B + "--\r", 400, "closing boundary delimiter is followed by more than padding");
        refused("--" + B + "\r\nContent-Disposition: form-data; name=a\n\r\nx\r\n--" + B + "--", 400, "bare LF");
        refused("--" + B + "\r\nContent-Disposition: form-data; name=a\rx\r\n\r\n\r\n--" + B + "--", 400, "not followed by LF");
        refused("--" + B + "\r\nNo colon here\r\n\r\nx\r\n--" + B + "--", 400, "not a token");
        refused("--" + B + "\r\nContent-Disposition: form-data;\r\n name=a\r\n\r\nx\r\n--" + B + "--", 400, "folded");
        refused("--" + B + "\r\nContent-Type: text/plain\r\n\r\nx\r\n--" + B + "--", 400, "no Content-Disposition");
        refused("--" + B + "\r\nContent-Disposition: form-data; filename=a\r\n\r\nx\r\n--" + B + "--", 400, "has no name");
        refused("--" + B + "\r\nContent-Disposition: attachment; name=a\r\n\r\nx\r\n--" + B + "--", 400, "not form-data");
        refused("--" + B + "\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--" + B + "--", 400, "not closed");
        refused("--" + B + "\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\nx\r\n--" + B + "--", 400, "twice");
        refused("--" + B + "\r\nContent-Disposition: form-data; name=a\r\nX: \u0001\r\n\r\nx\r\n--" + B + "--", 400,
                "control character");
    }

    private static String fileName(String disposition) {
        byte[] body = bytes("--" + B + "\r\nContent-Disposition: form-data; name=f; " + disposition
                + "\r\n\r\nx\r\n--" + B + "--");
        return parts(body).get(0).split("\\|")[1];
    }

    @Test
    void anRfc8187FileNameIsDecodedAndWinsOverThePlainOne() {
        assertThat(fileName("filename*=UTF-8''%e2%82%ac%20rates.txt")).isEqualTo("\u20ac rates.txt");
        assertThat(fileName("filename=\"plain.txt\"; filename*=utf-8'en'%C3%A9t%C3%A9.txt")).isEqualTo("\u00e9t\u00e9.txt");
        assertThat(fileName("filename*=ISO-8859-1''%E9t%E9.txt; filename=plain.txt")).isEqualTo("\u00e9t\u00e9.txt");
        assertThat(fileName("filename*=UTF-8''")).isEmpty();
        String head = "--" + B + "\r\nContent-Disposition: form-data; name=f; ";
        String tail = "\r\n\r\nx\r\n--" + B + "--";
        refused(head + "filename*=UTF-8'%41" + tail, 400, "not charset'language'value");
        refused(head + "filename*=x.txt" + tail, 400, "not charset'language'value");
        refused(head + "filename*=UTF-16''%00a" + tail, 400, "not UTF-8 or ISO-8859-1: UTF-16");
        refused(head + "filename*=UTF-8''a%2" + tail, 400, "not followed by two hex digits");
        refused(head + "filename*=UTF-8''a%zz" + tail, 400, "not followed by two hex digits");
        refused(head + "filename*=UTF-8''a'b" + tail, 400, "holds ''', which must be percent-encoded");
        refused(head + "filename*=UTF-8''%C3" + tail, 400, "filename*'s octets are not UTF-8");
        // what a plain filename may not hold cannot come in percent-encoded, nor with another script's digits
        refused(head + "filename*=UTF-8''a%00b" + tail, 400, "filename* holds a control character");
        refused(head + "filename*=UTF-8''a%0D%0A..%2Fx" + tail, 400, "filename* holds a control character");
        refused(head + "filename*=\"UTF-8''a%\u0664\u0661\"" + tail, 400, "not followed by two hex digits");
    }

    @Test
    void aHeaderValueThatIsNotUtf8Is400() {
        byte[] head = bytes("--" + B + "\r\nContent-Disposition: form-data; name=\"");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(head);
        body.write(0xC3); // a lone lead byte
        body.writeBytes(bytes("\"\r\n\r\nx\r\n--" + B + "--"));
        assertThatThrownBy(() -> parts(body.toByteArray())).hasMessageContaining("not UTF-8");
    }

    @Test
    void limitsAre413() {
        FormOptions small = new FormOptions(2, 10, 400, 100, 0);
        String ok = FIELD + "\r\n--" + B + "\r\nContent-Disposition: form-data; name=b\r\n\r\n0123456789\r\n--" + B + "--";
        assertThat(parts(bytes(ok), 1, 8192, small)).hasSize(2);
        refused(FIELD + "\r\n" + ok, small, 413, "more than 2 parts");
        refused("--" + B + "\r\nContent-Disposition: form-data; name=a\r\n\r\n01234567890\r\n--" + B + "--", small, 413,
                "Part 'a' is larger than 10 bytes");
        refused("--" + B + "\r\nContent-Disposition: form-data; name=a\r\nX-Long: " + "v".repeat(100) + "\r\n\r\nx\r\n--"
                + B + "--", small, 413, "Part headers are larger than 100 bytes");
        refused("x".repeat(401) + ok, small, 413, "larger than 400 bytes");
        // the epilogue counts too
        refused(ok + "\r\n" + "x".repeat(400), small, 413, "larger than 400 bytes");
    }

    @Test
    void aBoundaryWithoutPartsIsAnEmptyForm() {
        assertThat(parts(bytes("--" + B + "--"))).isEmpty();
        assertThat(parts(bytes("--" + B + "--\r\n"))).isEmpty();
    }
}
