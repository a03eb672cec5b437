package dev.brisk.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResponseEncoderTest {
    private static final String DATE = "Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} "
            + "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT";
    private static final Pattern DATE_LINE = Pattern.compile(DATE);

    /** The encoded head, or null when it did not fit in {@code capacity} bytes. */
    private static String encode(int capacity, int status, String contentType, List<String> headers, long length,
                                 int connection) {
        ByteBuffer out = ByteBuffer.allocate(capacity);
        if (!ResponseEncoder.encodeHead(out, status, contentType, headers, length, connection)) {
            return null;
        }
        return new String(out.array(), 0, out.position(), StandardCharsets.ISO_8859_1);
    }

    private static String encode(int status, String contentType, List<String> headers, long length, int connection) {
        String s = encode(4096, status, contentType, headers, length, connection);
        assertThat(s).as("fits in 4 KiB").isNotNull();
        return s;
    }

    /** The head's lines without the final empty one, after checking it ends with exactly one empty line. */
    private static List<String> lines(String head) {
        assertThat(head).endsWith("\r\n\r\n");
        assertThat(head.indexOf("\r\n\r\n")).isEqualTo(head.length() - 4);
        List<String> l = List.of(head.substring(0, head.length() - 4).split("\r\n", -1));
        assertThat(l.get(1)).matches(DATE_LINE);
        return l;
    }

    @Test
    void headWithContentLengthAndHeaders() {
        String head = encode(200, "text/plain; charset=utf-8", List.of("X-A", "b", "Set-Cookie", "k=v; Path=/"), 5, 0);
        List<String> l = lines(head);
        assertThat(l).hasSize(6);
        assertThat(l.get(0)).isEqualTo("HTTP/1.1 200 OK");
        assertThat(l.subList(2, 6)).containsExactly("Content-Type: text/plain; charset=utf-8", "Content-Length: 5",
                "X-A: b", "Set-Cookie: k=v; Path=/");
    }

    @Test
    void chunkedFraming() {
        List<String> l = lines(encode(200, "application/octet-stream", List.of(), ResponseEncoder.CHUNKED, 0));
        assertThat(l.subList(2, l.size())).containsExactly("Content-Type: application/octet-stream",
                "Transfer-Encoding: chunked");
    }

    @Test
    void noLengthFraming() {
        List<String> l = lines(encode(200, "text/plain", List.of(), ResponseEncoder.NO_LENGTH, 1));
        assertThat(l.subList(2, l.size())).containsExactly("Content-Type: text/plain", "Connection: close");
    }

    @Test
    void bodylessStatusesGetNoContentType() {
        for (int status : new int[] {100, 101, 204, 304}) {
            List<String> l = lines(encode(status, "text/plain", List.of("ETag", "\"x\""), ResponseEncoder.NO_LENGTH, 0));
            assertThat(l.get(0)).startsWith("HTTP/1.1 " + status + " ");
            assertThat(l.subList(2, l.size())).as("status %d", status).containsExactly("ETag: \"x\"");
        }
        assertThat(lines(encode(204, null, List.of(), ResponseEncoder.NO_LENGTH, 1)).subList(2, 3))
                .containsExactly("Connection: close");
    }

    @Test
    void nullContentTypeWritesNone() {
        List<String> l = lines(encode(200, null, List.of(), 0, 0));
        assertThat(l.subList(2, l.size())).containsExactly("Content-Length: 0");
    }

    @Test
    void connectionVariants() {
        assertThat(lines(encode(200, null, List.of(), 0, 0))).noneMatch(s -> s.startsWith("Connection"));
        assertThat(lines(encode(200, null, List.of(), 0, 1))).containsOnlyOnce("Connection: close")
                .doesNotContain("Connection: keep-alive");
        assertThat(lines(encode(200, null, List.of(), 0, 2))).containsOnlyOnce("Connection: keep-alive")
                .doesNotContain("Connection: close");
        // framing, then connection, then the handler's headers
        List<String> l = lines(encode(404, "text/html", List.of("X-Z", "1"), 3, 2));
        assertThat(l.subList(2, l.size())).containsExactly("Content-Type: text/html", "Content-Length: 3",
                "Connection: keep-alive", "X-Z: 1");
    }

    @ParameterizedTest
    @CsvSource({"0", "7", "9", "10", "99", "100", "65536", "1234567890123", "9223372036854775807"})
    void contentLengthDigits(long length) {
        assertThat(lines(encode(200, null, List.of(), length, 0))).contains("Content-Length: " + length);
    }

    @Test
    void headerValuesAreWrittenAsLatin1() {
        ByteBuffer out = ByteBuffer.allocate(512);
        assertThat(ResponseEncoder.encodeHead(out, 200, "text/plain", List.of("X-Name", "caf\u00e9"), 0, 0)).isTrue();
        String head = new String(out.array(), 0, out.position(), StandardCharsets.ISO_8859_1);
        assertThat(head).contains("\r\nX-Name: caf\u00e9\r\n");
        int at = head.indexOf("caf") + 3;
        assertThat(out.array()[at]).isEqualTo((byte) 0xe9);
    }

    @Test
    void writesFromTheBufferPosition() {
        ByteBuffer out = ByteBuffer.allocate(512);
        out.put("prefix".getBytes(StandardCharsets.US_ASCII));
        assertThat(ResponseEncoder.encodeHead(out, 201, null, List.of(), 12, 0)).isTrue();
        String all = new String(out.array(), 0, out.position(), StandardCharsets.ISO_8859_1);
        assertThat(all).startsWith("prefixHTTP/1.1 201 Created\r\nDate: ").endsWith("\r\nContent-Length: 12\r\n\r\n");
    }

    @Test
    void returnsFalseWhenTheBufferIsTooSmall() {
        List<String> headers = List.of("X-Request-Id", "abc-123", "Cache-Control", "no-cache");
        for (long length : new long[] {1234567, ResponseEncoder.CHUNKED}) {
            String full = encode(200, "application/json", headers, length, 1);
            int needed = full.length();
            for (int cap = 0; cap < needed; cap++) {
                assertThat(encode(cap, 200, "application/json", headers, length, 1)).as("capacity %d of %d", cap, needed)
                        .isNull();
            }
            String exact = encode(needed, 200, "application/json", headers, length, 1);
            assertThat(exact).isNotNull();
            assertThat(exact.replaceAll(DATE, "D")).isEqualTo(full.replaceAll(DATE, "D"));
        }
    }

    @Test
    void contentLengthDigitsThatDoNotFitAreReported() {
        String full = encode(200, null, List.of(), 123456789, 0);
        // capacity ends inside the Content-Length digits
        int digitsAt = full.indexOf("123456789");
        for (int cap = digitsAt; cap < digitsAt + 9; cap++) {
            assertThat(encode(cap, 200, null, List.of(), 123456789, 0)).isNull();
        }
    }

    @Test
    void bodyless() {
        for (int s : new int[] {100, 101, 103, 199, 204, 304}) {
            assertThat(ResponseEncoder.bodyless(s)).as("%d", s).isTrue();
        }
        for (int s : new int[] {200, 201, 205, 206, 301, 400, 404, 500}) {
            assertThat(ResponseEncoder.bodyless(s)).as("%d", s).isFalse();
        }
    }

    @Test
    void chunkHeader() {
        assertThat(new String(ResponseEncoder.chunkHeader(0), StandardCharsets.US_ASCII)).isEqualTo("0\r\n");
        assertThat(new String(ResponseEncoder.chunkHeader(255), StandardCharsets.US_ASCII)).isEqualTo("ff\r\n");
        assertThat(new String(ResponseEncoder.chunkHeader(4096), StandardCharsets.US_ASCII)).isEqualTo("1000\r\n");
        assertThat(new String(ResponseEncoder.chunkHeader(Integer.MAX_VALUE), StandardCharsets.US_ASCII))
                .isEqualTo("7fffffff\r\n");
    }

    // ---- status lines -------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({"100,Continue", "200,OK", "204,No Content", "304,Not Modified", "404,Not Found",
        "413,Content Too Large", "414,URI Too Long", "431,Request Header Fields Too Large",
        "505,HTTP Version Not Supported", "150,Informational", "299,Success", "399,Redirection",
        "418,Client Error", "599,Server Error"})
    void statusLines(int status, String reason) {
        assertThat(StatusLines.reason(status)).isEqualTo(reason);
        assertThat(new String(StatusLines.line(status), StandardCharsets.US_ASCII))
                .isEqualTo("HTTP/1.1 " + status + " " + reason + "\r\n");
    }

    @Test
    void everyStatusHasALine() {
        for (int s = 100; s < 600; s++) {
            String line = new String(StatusLines.line(s), StandardCharsets.US_ASCII);
            assertThat(line).as("%d", s).matches("HTTP/1\\.1 " + s + " [A-Za-z][A-Za-z -]*\r\n");
        }
    }

    // ---- Date ---------------------------------------------------------------------------------

    @Test
    void dateIsTheCurrentSecondAsImfFixdate() {
        long before = System.currentTimeMillis() / 1000;
        HttpDate.Line line = HttpDate.now();
        long after = System.currentTimeMillis() / 1000;
        assertThat(line.second()).isBetween(before, after);
        String s = new String(line.bytes(), StandardCharsets.US_ASCII);
        assertThat(s).matches(DATE + "\r\n");
        Instant parsed = ZonedDateTime.parse(s.substring(6, s.length() - 2), DateTimeFormatter.RFC_1123_DATE_TIME)
                .toInstant();
        assertThat(parsed.getEpochSecond()).isEqualTo(line.second());
    }

    @Test
    void dateHasATwoDigitDayAndEnglishNames() throws Exception {
        Method build = HttpDate.class.getDeclaredMethod("build", long.class);
        build.setAccessible(true);
        HttpDate.Line march = (HttpDate.Line) build.invoke(null, 1772694489L);
        assertThat(new String(march.bytes(), StandardCharsets.US_ASCII)).isEqualTo("Date: Thu, 05 Mar 2026 07:08:09 GMT\r\n");
        HttpDate.Line y2k = (HttpDate.Line) build.invoke(null, 946684799L);
        assertThat(new String(y2k.bytes(), StandardCharsets.US_ASCII)).isEqualTo("Date: Fri, 31 Dec 1999 23:59:59 GMT\r\n");
        HttpDate.Line epoch = (HttpDate.Line) build.invoke(null, 0L);
        assertThat(new String(epoch.bytes(), StandardCharsets.US_ASCII)).isEqualTo("Date: Thu, 01 Jan 1970 00:00:00 GMT\r\n");
    }
}
