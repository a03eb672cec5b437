package dev.brisk.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestParserTest {

    // ---- limits -------------------------------------------------------------------------------

    private static final int STD_LINE = 1024;
    private static final int STD_HEADER = 8192;
    private static final int STD_FIELDS = 32;
    private static final long STD_BODY = 1_000_000;

    private static final int SMALL_LINE = 64;
    private static final int SMALL_HEADER = 256;
    private static final int SMALL_FIELDS = 8;
    private static final long SMALL_BODY = 100;

    private static RequestParser standard() {
        return new RequestParser(STD_LINE, STD_HEADER, STD_FIELDS, STD_BODY);
    }

    private static RequestParser small() {
        return new RequestParser(SMALL_LINE, SMALL_HEADER, SMALL_FIELDS, SMALL_BODY);
    }

    // ---- feeding harness ----------------------------------------------------------------------

    /** The request is placed at this offset of a larger array, so every offset must be relative. */
    private static final int BASE = 7;
    /** Bytes the parser must never look at: before the start, and past the end it was given. */
    private static final byte BEFORE = '\r';
    private static final byte POISON = '\n';

    /** Everything the parser reports, resolved against the bytes, so two runs can be compared. */
    record Head(int headEnd, String method, String target, String path, int version,
                List<Map.Entry<String, String>> fields, List<Integer> offsets, long contentLength,
                boolean chunked, boolean hasBody, boolean keepAlive, boolean expectContinue) {
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String str(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** The request at {@link #BASE}, garbage before it and poison after it. */
    private static byte[] place(byte[] req) {
        byte[] a = new byte[BASE + req.length + 8];
        Arrays.fill(a, 0, BASE, BEFORE);
        System.arraycopy(req, 0, a, BASE, req.length);
        Arrays.fill(a, BASE + req.length, a.length, POISON);
        return a;
    }

    /**
     * A copy of the placed request that holds its bytes only up to a moving end, poison after it, so
     * the parser cannot read past the end it is given. Ends only grow, one byte to restore per step.
     */
    private static final class Cut {
        private final byte[] placed;
        private final byte[] bytes;
        private int end = BASE;

        Cut(byte[] placed) {
            this.placed = placed;
            this.bytes = placed.clone();
            Arrays.fill(bytes, BASE, bytes.length, POISON);
        }

        /** The bytes with everything from {@code newEnd} on poisoned. */
        byte[] upTo(int newEnd) {
            if (newEnd < end) {
                throw new IllegalArgumentException("ends only grow");
            }
            System.arraycopy(placed, end, bytes, end, newEnd - end);
            end = newEnd;
            return bytes;
        }
    }

    private static Head snapshot(RequestParser p, byte[] b, int start) {
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        List<Integer> offsets = new ArrayList<>(List.of(p.methodStart(), p.methodEnd(), p.targetStart(),
                p.targetEnd(), p.pathStart(), p.pathEnd()));
        int[] f = p.fields();
        for (int i = 0; i < p.fieldCount(); i++) {
            fields.add(Map.entry(str(b, start + f[4 * i], start + f[4 * i + 1]),
                    str(b, start + f[4 * i + 2], start + f[4 * i + 3])));
            for (int j = 0; j < 4; j++) {
                offsets.add(f[4 * i + j]);
            }
        }
        return new Head(p.headEnd(), str(b, start + p.methodStart(), start + p.methodEnd()),
                str(b, start + p.targetStart(), start + p.targetEnd()),
                str(b, start + p.pathStart(), start + p.pathEnd()), p.version(), fields, offsets,
                p.contentLength(), p.chunked(), p.hasBody(), p.keepAlive(), p.expectContinue());
    }

    @FunctionalInterface
    interface Call {
        boolean run() throws HttpParseException;
    }

    /** "complete", "incomplete" or "rejected NNN": comparable, and readable in a failure message. */
    private static String outcome(Call c) {
        try {
            return c.run() ? "complete" : "incomplete";
        } catch (HttpParseException e) {
            return "rejected " + e.status();
        }
    }

    /**
     * Parses {@code request} whole, then split at every offset k (first call with [0,k), then [0,n)),
     * then one byte at a time, and asserts that every way gives the same result.
     */
    private static Head parseAllWays(Supplier<RequestParser> factory, String request) {
        byte[] a = place(bytes(request));
        int n = request.length();
        RequestParser whole = factory.get();
        check(outcome(() -> whole.parse(a, BASE, BASE + n)), "complete", "whole request");
        Head expected = snapshot(whole, a, BASE);
        int headEnd = expected.headEnd();
        assertThat(headEnd).isBetween(1, n);

        Cut splits = new Cut(a);
        for (int k = 0; k <= n; k++) {
            RequestParser p = factory.get();
            byte[] part = splits.upTo(BASE + k);
            int end = BASE + k;
            check(outcome(() -> p.parse(part, BASE, end)), k >= headEnd ? "complete" : "incomplete",
                    "first call with %d of %d bytes", k, n);
            check(outcome(() -> p.parse(a, BASE, BASE + n)), "complete", "second call after split at %d", k);
            check(snapshot(p, a, BASE), expected, "result after split at %d", k);
        }

        RequestParser p = factory.get();
        Cut growing = new Cut(a);
        for (int e = 0; e <= n; e++) {
            byte[] part = growing.upTo(BASE + e);
            int end = BASE + e;
            check(outcome(() -> p.parse(part, BASE, end)), e >= headEnd ? "complete" : "incomplete",
                    "byte by byte, %d of %d bytes", e, n);
        }
        assertThat(snapshot(p, a, BASE)).as("result byte by byte").isEqualTo(expected);
        return expected;
    }

    /**
     * Asserts the request is refused with {@code status}: whole, byte by byte, and at every split,
     * where a first call holding at least as many bytes as byte-by-byte needed must already refuse.
     *
     * @return how many bytes it took to refuse the request byte by byte
     */
    private static int assertRejected(Supplier<RequestParser> factory, String request, int status) {
        String rejected = "rejected " + status;
        byte[] a = place(bytes(request));
        int n = request.length();
        check(outcome(() -> factory.get().parse(a, BASE, BASE + n)), rejected, "whole request");

        RequestParser p = factory.get();
        Cut growing = new Cut(a);
        int needed = -1;
        for (int e = 0; e <= n && needed < 0; e++) {
            byte[] part = growing.upTo(BASE + e);
            int end = BASE + e;
            String o = outcome(() -> p.parse(part, BASE, end));
            if (!o.equals("incomplete")) {
                assertThat(o).as("byte by byte, %d of %d bytes", e, n).isEqualTo(rejected);
                needed = e;
            }
        }
        assertThat(needed).as("refused byte by byte").isPositive();

        Cut splits = new Cut(a);
        for (int k = 0; k <= n; k++) {
            RequestParser q = factory.get();
            byte[] part = splits.upTo(BASE + k);
            int end = BASE + k;
            if (k < needed) {
                check(outcome(() -> q.parse(part, BASE, end)), "incomplete",
                        "first call with %d of %d bytes", k, n);
                check(outcome(() -> q.parse(a, BASE, BASE + n)), rejected, "second call after split at %d", k);
            } else {
                check(outcome(() -> q.parse(part, BASE, end)), rejected, "first call with %d of %d bytes", k, n);
            }
        }
        return needed;
    }

    /** Like assertThat(actual).as(...).isEqualTo(expected), without the cost when they are equal. */
    private static void check(Object actual, Object expected, String description, Object... args) {
        if (!actual.equals(expected)) {
            assertThat(actual).as(description, args).isEqualTo(expected);
        }
    }

    private static String head(String requestLine, String... fields) {
        StringBuilder sb = new StringBuilder(requestLine).append("\r\n");
        for (String f : fields) {
            sb.append(f).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    private static String get(String... fields) {
        return head("GET / HTTP/1.1", fields);
    }

    private static List<Map.Entry<String, String>> entries(String... nameValue) {
        List<Map.Entry<String, String>> l = new ArrayList<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            l.add(Map.entry(nameValue[i], nameValue[i + 1]));
        }
        return l;
    }

    // ---- accepted requests --------------------------------------------------------------------

    @Test
    void simpleGet() {
        Head h = parseAllWays(RequestParserTest::standard, "GET /hello?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n");
        assertThat(h.method()).isEqualTo("GET");
        assertThat(h.target()).isEqualTo("/hello?x=1");
        assertThat(h.path()).isEqualTo("/hello");
        assertThat(h.version()).isEqualTo(RequestParser.HTTP_1_1);
        assertThat(h.fields()).isEqualTo(entries("Host", "example.com"));
        assertThat(h.headEnd()).isEqualTo(46);
        assertThat(h.contentLength()).isEqualTo(-1);
        assertThat(h.chunked()).isFalse();
        assertThat(h.hasBody()).isFalse();
        assertThat(h.keepAlive()).isTrue();
        assertThat(h.expectContinue()).isFalse();
    }

    @Test
    void browserLikeGetWithTwentyHeaders() {
        String[] fields = {
            "Host: shop.example.com",
            "Connection: keep-alive",
            "Cache-Control: max-age=0",
            "sec-ch-ua: \"Chromium\";v=\"124\", \"Google Chrome\";v=\"124\", \"Not-A.Brand\";v=\"99\"",
            "sec-ch-ua-mobile: ?0",
            "sec-ch-ua-platform: \"Linux\"",
            "Upgrade-Insecure-Requests: 1",
            "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
            "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
            "Sec-Fetch-Site: same-origin",
            "Sec-Fetch-Mode: navigate",
            "Sec-Fetch-User: ?1",
            "Sec-Fetch-Dest: document",
            "Referer: https://shop.example.com/",
            "Accept-Encoding: gzip, deflate, br, zstd",
            "Accept-Language: en-GB,en;q=0.9,de;q=0.8",
            "Cookie: session=abc123; theme=dark; cart=7f3a",
            "If-None-Match: \"33a64df551425fcc55e4d42a148795d9f25f89d4\"",
            "If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT",
            "Priority: u=0, i",
        };
        String request = head("GET /products/42?ref=home&utm_source=newsletter HTTP/1.1", fields);
        Head h = parseAllWays(RequestParserTest::standard, request);

        List<Map.Entry<String, String>> expected = new ArrayList<>();
        for (String f : fields) {
            int colon = f.indexOf(": ");
            expected.add(Map.entry(f.substring(0, colon), f.substring(colon + 2)));
        }
        assertThat(h.fields()).hasSize(20).isEqualTo(expected);
        assertThat(h.path()).isEqualTo("/products/42");
        assertThat(h.target()).isEqualTo("/products/42?ref=home&utm_source=newsletter");
        assertThat(h.headEnd()).isEqualTo(request.length());
        assertThat(h.keepAlive()).isTrue();
        assertThat(h.hasBody()).isFalse();
    }

    @Test
    void postWithContentLengthLeavesTheBodyAlone() {
        String headPart = head("POST /submit HTTP/1.1", "Host: api.example.com", "Content-Type: text/plain",
                "Content-Length: 11");
        Head h = parseAllWays(RequestParserTest::standard, headPart + "hello world");
        assertThat(h.method()).isEqualTo("POST");
        assertThat(h.path()).isEqualTo("/submit");
        assertThat(h.headEnd()).isEqualTo(headPart.length());
        assertThat(h.contentLength()).isEqualTo(11);
        assertThat(h.hasBody()).isTrue();
        assertThat(h.chunked()).isFalse();
        assertThat(h.fields()).isEqualTo(entries("Host", "api.example.com", "Content-Type", "text/plain",
                "Content-Length", "11"));
    }

    @Test
    void chunkedPostHead() {
        String headPart = head("POST /upload HTTP/1.1", "Host: a", "Transfer-Encoding: chunked");
        Head h = parseAllWays(RequestParserTest::standard, headPart + "5\r\nhello\r\n0\r\n\r\n");
        assertThat(h.headEnd()).isEqualTo(headPart.length());
        assertThat(h.chunked()).isTrue();
        assertThat(h.hasBody()).isTrue();
        assertThat(h.contentLength()).isEqualTo(-1);
    }

    @Test
    void transferCodingNamesAreCaseInsensitiveAndListsMayHaveEmptyElements() {
        assertThat(parseAllWays(RequestParserTest::standard,
                head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: CHUNKED")).chunked()).isTrue();
        assertThat(parseAllWays(RequestParserTest::standard,
                head("POST / HTTP/1.1", "Host: a", "transfer-encoding: , chunked ,")).chunked()).isTrue();
    }

    @Test
    void contentLengthEdgeValues() {
        Head zero = parseAllWays(RequestParserTest::standard, head("POST / HTTP/1.1", "Host: a", "Content-Length: 0"));
        assertThat(zero.contentLength()).isZero();
        assertThat(zero.hasBody()).isFalse();

        Head atLimit = parseAllWays(RequestParserTest::small, head("POST / HTTP/1.1", "Host: a", "Content-Length: 100"));
        assertThat(atLimit.contentLength()).isEqualTo(SMALL_BODY);

        Head padded = parseAllWays(RequestParserTest::standard,
                head("POST / HTTP/1.1", "Host: a", "Content-Length: \t 42 \t"));
        assertThat(padded.contentLength()).isEqualTo(42);

        Head eighteenDigits = parseAllWays(() -> new RequestParser(STD_LINE, STD_HEADER, STD_FIELDS, Long.MAX_VALUE),
                head("POST / HTTP/1.1", "Host: a", "Content-Length: 999999999999999999"));
        assertThat(eighteenDigits.contentLength()).isEqualTo(999_999_999_999_999_999L);
        // leading zeros are digits of the grammar (1*DIGIT): the value is bounded, not the digit count
        Head zeros = parseAllWays(RequestParserTest::standard,
                head("POST / HTTP/1.1", "Host: a", "Content-Length: 0000000000000000005") + "hello");
        assertThat(zeros.contentLength()).isEqualTo(5);
    }

    @Test
    void identicalRepeatedContentLengthIsAccepted() {
        Head h = parseAllWays(RequestParserTest::standard,
                head("POST / HTTP/1.1", "Host: a", "Content-Length: 7", "content-length: 7") + "payload");
        assertThat(h.contentLength()).isEqualTo(7);
        assertThat(h.fields()).hasSize(3);
    }

    static Stream<Arguments> keepAliveRules() {
        return Stream.of(
                Arguments.of("HTTP/1.0", null, false),
                Arguments.of("HTTP/1.0", "keep-alive", true),
                Arguments.of("HTTP/1.0", "Keep-Alive", true),
                Arguments.of("HTTP/1.0", "upgrade, keep-alive", true),
                Arguments.of("HTTP/1.0", "close", false),
                Arguments.of("HTTP/1.0", "keep-alive, close", false),
                Arguments.of("HTTP/1.0", "keep-alive-ish", false),
                Arguments.of("HTTP/1.1", null, true),
                Arguments.of("HTTP/1.1", "keep-alive", true),
                Arguments.of("HTTP/1.1", "close", false),
                Arguments.of("HTTP/1.1", "CLOSE", false),
                Arguments.of("HTTP/1.1", "foo,\tclose ", false),
                Arguments.of("HTTP/1.1", "closed", true));
    }

    @ParameterizedTest(name = "{0} Connection: {1} -> keepAlive {2}")
    @MethodSource("keepAliveRules")
    void keepAliveRules(String version, String connection, boolean keepAlive) {
        List<String> fields = new ArrayList<>(List.of("Host: a"));
        if (connection != null) {
            fields.add("Connection: " + connection);
        }
        Head h = parseAllWays(RequestParserTest::standard, head("GET / " + version, fields.toArray(String[]::new)));
        assertThat(h.version()).isEqualTo(version.equals("HTTP/1.0") ? RequestParser.HTTP_1_0 : RequestParser.HTTP_1_1);
        assertThat(h.keepAlive()).isEqualTo(keepAlive);
    }

    @Test
    void http10NeedsNoHost() {
        Head h = parseAllWays(RequestParserTest::standard, "GET /old HTTP/1.0\r\n\r\n");
        assertThat(h.version()).isEqualTo(RequestParser.HTTP_1_0);
        assertThat(h.fields()).isEmpty();
        assertThat(h.keepAlive()).isFalse();
    }

    @Test
    void hostForms() {
        for (String host : List.of("example.com:8080", "[::1]:8080", "127.0.0.1", "xn--caf-dma.example", "a_b~c",
                "", "[::1]", "x:", "x:65535", "caf%C3%A9.example", "[v1.fe80::1]", "x:00080", "x:000080",
                "[fe80::1%25eth0]:8080", "[fe80::1%eth0]", "[FE80::AB]", "example.com.", "under_score:1")) {
            Head h = parseAllWays(RequestParserTest::standard, get("Host: " + host));
            assertThat(h.fields()).as(host).isEqualTo(entries("Host", host));
        }
    }

    @Test
    void absoluteFormTarget() {
        Head h = parseAllWays(RequestParserTest::standard, get("Host: example.com").replace("GET / ", "GET http://example.com/a/b?x=1 "));
        assertThat(h.target()).isEqualTo("http://example.com/a/b?x=1");
        assertThat(h.path()).isEqualTo("/a/b");
        assertThat(h.offsets().subList(4, 6)).containsExactly(4 + "http://example.com".length(), 4 + "http://example.com/a/b".length());

        Head https = parseAllWays(RequestParserTest::standard,
                head("GET HTTPS://Example.com:8443/x/y HTTP/1.1", "Host: example.com:8443"));
        assertThat(https.path()).isEqualTo("/x/y");

        Head noPath = parseAllWays(RequestParserTest::standard, head("GET http://example.com HTTP/1.1", "Host: example.com"));
        assertThat(noPath.path()).isEmpty();
        assertThat(noPath.offsets().get(4)).isEqualTo(noPath.offsets().get(3)); // empty path at the target's end

        Head queryOnly = parseAllWays(RequestParserTest::standard, head("GET http://example.com?q=1 HTTP/1.1", "Host: example.com"));
        assertThat(queryOnly.path()).isEmpty();
        assertThat(queryOnly.target()).endsWith("?q=1");
    }

    @Test
    void asteriskFormTarget() {
        Head h = parseAllWays(RequestParserTest::standard, head("OPTIONS * HTTP/1.1", "Host: a"));
        assertThat(h.method()).isEqualTo("OPTIONS");
        assertThat(h.target()).isEqualTo("*");
        assertThat(h.path()).isEqualTo("*");
    }

    @Test
    void leadingEmptyLinesAreTolerated() {
        Head one = parseAllWays(RequestParserTest::standard, "\r\n" + get("Host: a"));
        assertThat(one.method()).isEqualTo("GET");
        assertThat(one.offsets().get(0)).isEqualTo(2);
        assertThat(one.headEnd()).isEqualTo(2 + get("Host: a").length());

        Head eight = parseAllWays(RequestParserTest::standard, "\r\n".repeat(8) + get("Host: a"));
        assertThat(eight.offsets().get(0)).isEqualTo(16);
        assertThat(eight.path()).isEqualTo("/");
    }

    @Test
    void headerValuesAreTrimmedOfOptionalWhitespace() {
        Head h = parseAllWays(RequestParserTest::standard,
                get("Host:a", "X-Spaces:    inner  value   ", "X-Tabs:\t\tv\t", "X-Empty: \t ", "X-None:"));
        assertThat(h.fields()).isEqualTo(entries("Host", "a", "X-Spaces", "inner  value", "X-Tabs", "v",
                "X-Empty", "", "X-None", ""));
    }

    @Test
    void obsTextIsAllowedInValues() {
        Head h = parseAllWays(RequestParserTest::standard, get("Host: a", "X-Name: caf\u00e9 \u00ff"));
        assertThat(h.fields().get(1).getValue()).isEqualTo("caf\u00e9 \u00ff");
    }

    @Test
    void fieldOffsets() {
        String request = "GET /a HTTP/1.1\r\nHost: h\r\nX-Y:z\r\nX-E: \t \r\n\r\n";
        Head h = parseAllWays(RequestParserTest::standard, request);
        assertThat(h.offsets()).containsExactly(
                0, 3, 4, 6, 4, 6,
                17, 21, 23, 24,
                26, 29, 30, 31,
                33, 36, 40, 40);
        assertThat(h.headEnd()).isEqualTo(44).isEqualTo(request.length());

        // the raw array: name start, name end, value start, value end per field
        RequestParser p = standard();
        byte[] b = bytes(request);
        assertThat(outcome(() -> p.parse(b, 0, b.length))).isEqualTo("complete");
        assertThat(p.fieldCount()).isEqualTo(3);
        assertThat(Arrays.copyOf(p.fields(), 12)).containsExactly(17, 21, 23, 24, 26, 29, 30, 31, 33, 36, 40, 40);
    }

    @Test
    void expectContinue() {
        Head h11 = parseAllWays(RequestParserTest::standard,
                head("POST / HTTP/1.1", "Host: a", "Expect: 100-Continue", "Content-Length: 3"));
        assertThat(h11.expectContinue()).isTrue();

        Head h10 = parseAllWays(RequestParserTest::standard,
                head("POST / HTTP/1.0", "Expect: 100-continue", "Content-Length: 3"));
        assertThat(h10.expectContinue()).as("ignored in HTTP/1.0").isFalse();

        Head other10 = parseAllWays(RequestParserTest::standard, head("GET / HTTP/1.0", "Expect: something-else"));
        assertThat(other10.expectContinue()).isFalse();
    }

    @Test
    void exactlyMaxHeadersFieldsAreAccepted() {
        String[] fields = new String[SMALL_FIELDS];
        fields[0] = "Host: a";
        for (int i = 1; i < fields.length; i++) {
            fields[i] = "X" + i + ": " + i;
        }
        assertThat(parseAllWays(RequestParserTest::small, get(fields)).fields()).hasSize(SMALL_FIELDS);
    }

    /** A request line of exactly {@code length} bytes, CRLF excluded. */
    private static String requestLineOf(int length) {
        String line = "GET /" + "a".repeat(length - "GET / HTTP/1.1".length()) + " HTTP/1.1";
        assertThat(line).hasSize(length);
        return line;
    }

    /** Field lines (Host first) whose bytes, CRLFs included, add up to exactly {@code size}. */
    private static String[] headerBlockOf(int size) {
        String host = "Host: a"; // 9 bytes with CRLF
        String pad = "X-Pad: " + "p".repeat(size - 9 - "X-Pad: \r\n".length());
        assertThat(host.length() + 2 + pad.length() + 2).isEqualTo(size);
        return new String[] {host, pad};
    }

    @Test
    void requestLineJustBelowTheLimitIsAccepted() {
        Head h = parseAllWays(RequestParserTest::small, get("Host: a").replace("GET / HTTP/1.1", requestLineOf(SMALL_LINE - 1)));
        assertThat(h.target()).hasSize(SMALL_LINE - 1 - "GET  HTTP/1.1".length());
    }

    @Test
    void requestLineOfExactlyTheLimitIsAcceptedAtEverySplit() {
        parseAllWays(RequestParserTest::small, get("Host: a").replace("GET / HTTP/1.1", requestLineOf(SMALL_LINE)));
    }

    @Test
    void headerBlockJustBelowTheLimitIsAccepted() {
        Head h = parseAllWays(RequestParserTest::small, get(headerBlockOf(SMALL_HEADER - 1)));
        assertThat(h.fields()).hasSize(2);
    }

    @Test
    void headerBlockOfExactlyTheLimitIsAcceptedAtEverySplit() {
        parseAllWays(RequestParserTest::small, get(headerBlockOf(SMALL_HEADER)));
    }

    // ---- refused requests ---------------------------------------------------------------------

    static Stream<Arguments> refused() {
        return Stream.of(
                // message framing
                Arguments.of("Content-Length + Transfer-Encoding",
                        head("POST / HTTP/1.1", "Host: a", "Content-Length: 5", "Transfer-Encoding: chunked"), 400),
                Arguments.of("Transfer-Encoding + Content-Length",
                        head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: chunked", "Content-Length: 5"), 400),
                Arguments.of("two differing Content-Length",
                        head("POST / HTTP/1.1", "Host: a", "Content-Length: 5", "Content-Length: 6"), 400),
                Arguments.of("Content-Length +5", head("POST / HTTP/1.1", "Host: a", "Content-Length: +5"), 400),
                Arguments.of("Content-Length -5", head("POST / HTTP/1.1", "Host: a", "Content-Length: -5"), 400),
                Arguments.of("Content-Length '1 0'", head("POST / HTTP/1.1", "Host: a", "Content-Length: 1 0"), 400),
                Arguments.of("Content-Length abc", head("POST / HTTP/1.1", "Host: a", "Content-Length: abc"), 400),
                Arguments.of("Content-Length 5a", head("POST / HTTP/1.1", "Host: a", "Content-Length: 5a"), 400),
                Arguments.of("Content-Length 0x5", head("POST / HTTP/1.1", "Host: a", "Content-Length: 0x5"), 400),
                Arguments.of("Content-Length 5.0", head("POST / HTTP/1.1", "Host: a", "Content-Length: 5.0"), 400),
                Arguments.of("Content-Length empty", head("POST / HTTP/1.1", "Host: a", "Content-Length:"), 400),
                Arguments.of("Content-Length blank", head("POST / HTTP/1.1", "Host: a", "Content-Length:   "), 400),
                Arguments.of("Content-Length 19 digits",
                        head("POST / HTTP/1.1", "Host: a", "Content-Length: 1234567890123456789"), 400),
                Arguments.of("Content-Length 20 digits",
                        head("POST / HTTP/1.1", "Host: a", "Content-Length: 12345678901234567890"), 400),
                Arguments.of("Content-Length 19 significant digits after zeros",
                        head("POST / HTTP/1.1", "Host: a", "Content-Length: 001234567890123456789"), 400),
                Arguments.of("Host with a port not a number", get("Host: x:abc"), 400),
                Arguments.of("Host with two ports", get("Host: x:1:2"), 400),
                Arguments.of("Host with a port over 65535", get("Host: x:65536"), 400),
                Arguments.of("Host with a port of 70000 after zeros", get("Host: x:070000"), 400),
                Arguments.of("Host with a port and no host", get("Host: :80"), 400),
                Arguments.of("Host with an unclosed IP literal", get("Host: [::1"), 400),
                Arguments.of("Host with text after an IP literal", get("Host: [::1]x"), 400),
                Arguments.of("Host with a bracket in a name", get("Host: a]b"), 400),
                Arguments.of("Host with an empty IP literal", get("Host: []"), 400),
                Arguments.of("Host with a broken escape", get("Host: %zz"), 400),
                Arguments.of("Host with an unfinished escape", get("Host: a%4"), 400),
                Arguments.of("absolute-form with a port not a number", head("GET http://x:abc/ HTTP/1.1", "Host: x"), 400),
                Arguments.of("absolute-form with user info", head("GET http://u@x/ HTTP/1.1", "Host: x"), 400),
                Arguments.of("asterisk target with GET", head("GET * HTTP/1.1", "Host: x"), 400),
                Arguments.of("CONNECT to an authority", head("CONNECT 127.0.0.1:22 HTTP/1.1", "Host: 127.0.0.1:22"), 501),
                Arguments.of("another method with an authority-form target", head("GET 127.0.0.1:22 HTTP/1.1", "Host: x"), 400),
                Arguments.of("asterisk target with lowercase options", head("options * HTTP/1.1", "Host: x"), 400),
                Arguments.of("Content-Length list '5, 5'", head("POST / HTTP/1.1", "Host: a", "Content-Length: 5, 5"), 400),
                Arguments.of("Content-Length list '5,5'", head("POST / HTTP/1.1", "Host: a", "Content-Length: 5,5"), 400),
                Arguments.of("TE chunked, gzip", head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: chunked, gzip"), 400),
                Arguments.of("TE gzip", head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: gzip"), 400),
                Arguments.of("TE empty", head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: "), 400),
                Arguments.of("TE chunked;x=1", head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: chunked;x=1"), 400),
                Arguments.of("TE 'chunked gzip'", head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: gzip chunked"), 400),
                Arguments.of("TE gzip, chunked", head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: gzip, chunked"), 501),
                Arguments.of("TE gzip then chunked in two fields",
                        head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: gzip", "Transfer-Encoding: chunked"), 501),
                Arguments.of("TE chunked, chunked",
                        head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: chunked, chunked"), 400),
                Arguments.of("TE chunked twice in two fields",
                        head("POST / HTTP/1.1", "Host: a", "Transfer-Encoding: chunked", "Transfer-Encoding: chunked"), 400),
                Arguments.of("TE in HTTP/1.0", head("POST / HTTP/1.0", "Transfer-Encoding: chunked"), 400),
                // field syntax
                Arguments.of("obs-fold with spaces", get("Host: a", "X-A: first", "   folded"), 400),
                Arguments.of("obs-fold with a tab", get("Host: a", "X-A: first", "\tfolded"), 400),
                Arguments.of("first field line starts with SP", get(" Host: a"), 400),
                Arguments.of("space before colon", get("Host : a"), 400),
                Arguments.of("tab before colon", get("Host\t: a"), 400),
                Arguments.of("space before colon (other field)", get("Host: a", "X-A : b"), 400),
                Arguments.of("space inside name", get("Host: a", "X A: b"), 400),
                Arguments.of("no colon", get("Host: a", "X-A b"), 400),
                Arguments.of("bare CR in value", get("Host: a", "X-A: a\rb"), 400),
                Arguments.of("bare CR at value end", get("Host: a", "X-A: a\r"), 400),
                Arguments.of("bare CR in name", get("Host: a", "X\rA: b"), 400),
                Arguments.of("bare CR in request line", "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                Arguments.of("CR CR LF as the empty line", "GET / HTTP/1.1\r\nHost: a\r\n\r\r\n", 400),
                Arguments.of("NUL in value", get("Host: a", "X-A: a\0b"), 400),
                Arguments.of("NUL in name", get("Host: a", "X\0A: b"), 400),
                Arguments.of("SOH value", get("Host: a", "X-A: \u0001"), 400),
                Arguments.of("VT in value", get("Host: a", "X-A: a\u000bb"), 400),
                Arguments.of("US in value", get("Host: a", "X-A: a\u001fb"), 400),
                Arguments.of("DEL in value", get("Host: a", "X-A: a\u007fb"), 400),
                Arguments.of("DEL in name", get("Host: a", "X\u007fA: b"), 400),
                Arguments.of("non-ASCII in name", get("Host: a", "X\u00e9: b"), 400),
                Arguments.of("bare LF after request line", "GET / HTTP/1.1\nHost: a\r\n\r\n", 400),
                Arguments.of("bare LF after field", "GET / HTTP/1.1\r\nHost: a\nX: y\r\n\r\n", 400),
                Arguments.of("bare LF as the empty line", "GET / HTTP/1.1\r\nHost: a\r\n\n", 400),
                Arguments.of("bare LF before request line", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                Arguments.of("nine leading empty lines", "\r\n".repeat(9) + get("Host: a"), 400),
                // Host
                Arguments.of("missing Host", get(), 400),
                Arguments.of("missing Host among others", get("Accept: */*", "User-Agent: x"), 400),
                Arguments.of("two Host", get("Host: a", "Host: b"), 400),
                Arguments.of("two identical Host", get("Host: a", "host: a"), 400),
                Arguments.of("two Host in HTTP/1.0", head("GET / HTTP/1.0", "Host: a", "Host: a"), 400),
                Arguments.of("Host 'a b'", get("Host: a b"), 400),
                Arguments.of("Host x/y", get("Host: x/y"), 400),
                Arguments.of("Host a@b", get("Host: a@b"), 400),
                Arguments.of("Host with quote", get("Host: a\"b"), 400),
                Arguments.of("Host non-ASCII", get("Host: caf\u00e9.example"), 400),
                // version and request line
                Arguments.of("HTTP/2.0", head("GET / HTTP/2.0", "Host: a"), 505),
                Arguments.of("HTTP/3.1", head("GET / HTTP/3.1", "Host: a"), 505),
                Arguments.of("HTTP/0.9", head("GET / HTTP/0.9", "Host: a"), 505),
                Arguments.of("HTTP/1.1x", head("GET / HTTP/1.1x", "Host: a"), 400),
                Arguments.of("http/1.1", head("GET / http/1.1", "Host: a"), 400),
                Arguments.of("HTTP/1", head("GET / HTTP/1", "Host: a"), 400),
                Arguments.of("HTTP/1,1", head("GET / HTTP/1,1", "Host: a"), 400),
                Arguments.of("HTTP/11.1", head("GET / HTTP/11.1", "Host: a"), 400),
                Arguments.of("trailing space", head("GET / HTTP/1.1 ", "Host: a"), 400),
                Arguments.of("two spaces after method", head("GET  / HTTP/1.1", "Host: a"), 400),
                Arguments.of("two spaces before version", head("GET /  HTTP/1.1", "Host: a"), 400),
                Arguments.of("no version", head("GET /", "Host: a"), 400),
                Arguments.of("method only", head("GET", "Host: a"), 400),
                Arguments.of("leading space", head(" GET / HTTP/1.1", "Host: a"), 400),
                Arguments.of("tab as separator", head("GET\t/ HTTP/1.1", "Host: a"), 400),
                Arguments.of("bad method character", head("G(T / HTTP/1.1", "Host: a"), 400),
                // Expect
                Arguments.of("Expect: something-else", get("Host: a", "Expect: something-else"), 417),
                Arguments.of("Expect: 100-continue, more", get("Host: a", "Expect: 100-continue, x"), 417),
                // target
                Arguments.of("fragment in path", head("GET /a#b HTTP/1.1", "Host: a"), 400),
                Arguments.of("fragment in query", head("GET /a?x=1#b HTTP/1.1", "Host: a"), 400),
                Arguments.of("fragment in absolute-form", head("GET http://h/a#b HTTP/1.1", "Host: h"), 400),
                Arguments.of("non-ASCII in target", head("GET /caf\u00e9 HTTP/1.1", "Host: a"), 400),
                Arguments.of("byte 0xFF in target", head("GET /\u00ff HTTP/1.1", "Host: a"), 400),
                Arguments.of("control in target", head("GET /a\u0001b HTTP/1.1", "Host: a"), 400),
                Arguments.of("DEL in target", head("GET /a\u007f HTTP/1.1", "Host: a"), 400),
                Arguments.of("relative target", head("GET a/b HTTP/1.1", "Host: a"), 400),
                Arguments.of("authority target", head("GET example.com/x HTTP/1.1", "Host: a"), 400),
                Arguments.of("asterisk plus more", head("OPTIONS *x HTTP/1.1", "Host: a"), 400),
                Arguments.of("two asterisks", head("OPTIONS ** HTTP/1.1", "Host: a"), 400),
                Arguments.of("scheme without host", head("GET http:///a HTTP/1.1", "Host: a"), 400),
                Arguments.of("scheme only", head("GET http:// HTTP/1.1", "Host: a"), 400),
                Arguments.of("unknown scheme", head("GET ftp://h/a HTTP/1.1", "Host: a"), 400));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("refused")
    void refused(String description, String request, int status) {
        assertRejected(RequestParserTest::standard, request, status);
    }

    @Test
    void emptyFieldNameIsRefused() {
        assertRejected(RequestParserTest::standard, get("Host: a", ": x"), 400);
    }

    @Test
    void contentLengthAboveMaxBodyIs413() {
        assertRejected(RequestParserTest::small, head("POST / HTTP/1.1", "Host: a", "Content-Length: 101"), 413);
        assertRejected(RequestParserTest::small,
                head("POST / HTTP/1.1", "Host: a", "Content-Length: 999999999999999999"), 413);
    }

    @Test
    void requestLineLongerThanTheLimitIs414() {
        String request = get("Host: a").replace("GET / HTTP/1.1", requestLineOf(SMALL_LINE + 1));
        int needed = assertRejected(RequestParserTest::small, request, 414);
        assertThat(needed).as("refused as soon as the line is too long").isEqualTo(SMALL_LINE + 1);

        String veryLong = "GET /" + "x".repeat(10 * SMALL_LINE) + " HTTP/1.1\r\nHost: a\r\n\r\n";
        assertThat(assertRejected(RequestParserTest::small, veryLong, 414)).isEqualTo(SMALL_LINE + 1);
    }

    @Test
    void overlongIncompleteLineWithoutSpaceIs400() {
        String allMethod = "A".repeat(3 * SMALL_LINE);
        assertThat(assertRejected(RequestParserTest::small, allMethod, 400)).isEqualTo(SMALL_LINE + 1);
    }

    @Test
    void overlongCompleteLineWithoutSpaceIsRefusedTheSameWayAtEverySplit() {
        assertRejected(RequestParserTest::small, "A".repeat(SMALL_LINE + 1) + "\r\n\r\n", 400);
    }

    @Test
    void headerBlockLargerThanTheLimitIs431() {
        String complete = get(headerBlockOf(SMALL_HEADER + 1));
        assertRejected(RequestParserTest::small, complete, 431);

        String manyLines = get("Host: a", "X-1: " + "a".repeat(100), "X-2: " + "b".repeat(100), "X-3: " + "c".repeat(100));
        assertRejected(RequestParserTest::small, manyLines, 431);
    }

    @Test
    void incompleteHeaderBlockAlreadyTooLargeIs431() {
        String prefix = "GET / HTTP/1.1\r\nHost: a\r\n";
        String incomplete = prefix + "X-Long: " + "a".repeat(SMALL_HEADER);
        int needed = assertRejected(RequestParserTest::small, incomplete, 431);
        // refused as soon as the partial line plus the CRLF it still needs cannot fit (9 = "Host: a\r\n")
        assertThat(needed).as("refused before the line ends").isEqualTo(prefix.length() + SMALL_HEADER - 9 - 2 + 1);
    }

    @Test
    void moreThanMaxHeadersFieldsIs431() {
        String[] fields = new String[SMALL_FIELDS + 1];
        fields[0] = "Host: a";
        for (int i = 1; i < fields.length; i++) {
            fields[i] = "X" + i + ": " + i;
        }
        assertRejected(RequestParserTest::small, get(fields), 431);
    }

    // ---- reuse --------------------------------------------------------------------------------

    @Test
    void resetAllowsAPipelinedRequestAtAnotherOffset() {
        String first = head("POST /one HTTP/1.1", "Host: a", "Content-Length: 5") + "hello";
        String second = head("GET /two?q HTTP/1.0", "Connection: keep-alive");
        byte[] b = bytes(first + second);
        RequestParser p = standard();
        assertThat(p.started()).isFalse();
        assertThat(outcome(() -> p.parse(b, 0, b.length))).isEqualTo("complete");
        assertThat(snapshot(p, b, 0).path()).isEqualTo("/one");
        assertThat(p.contentLength()).isEqualTo(5);
        int secondStart = p.headEnd() + 5;
        assertThat(secondStart).isEqualTo(first.length());

        p.reset();
        assertThat(p.started()).isFalse();
        assertThat(outcome(() -> p.parse(b, secondStart, b.length - 3))).isEqualTo("incomplete");
        assertThat(p.started()).isTrue();
        assertThat(outcome(() -> p.parse(b, secondStart, b.length))).isEqualTo("complete");
        Head h = snapshot(p, b, secondStart);
        assertThat(h.method()).isEqualTo("GET");
        assertThat(h.target()).isEqualTo("/two?q");
        assertThat(h.path()).isEqualTo("/two");
        assertThat(h.offsets().subList(0, 6)).containsExactly(0, 3, 4, 10, 4, 8);
        assertThat(h.headEnd()).isEqualTo(second.length());
        assertThat(h.version()).isEqualTo(RequestParser.HTTP_1_0);
        assertThat(h.keepAlive()).isTrue();
        assertThat(h.contentLength()).as("nothing left from the first request").isEqualTo(-1);
        assertThat(h.hasBody()).isFalse();
        assertThat(h.fields()).isEqualTo(entries("Connection", "keep-alive"));
    }

    @Test
    void resetForgetsAHalfParsedRequest() {
        byte[] junk = bytes("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Le");
        RequestParser p = standard();
        assertThat(outcome(() -> p.parse(junk, 0, junk.length))).isEqualTo("incomplete");
        p.reset();
        byte[] b = bytes(get("Host: b"));
        assertThat(outcome(() -> p.parse(b, 0, b.length))).isEqualTo("complete");
        assertThat(p.chunked()).isFalse();
        assertThat(p.fieldCount()).isEqualTo(1);
        assertThat(snapshot(p, b, 0).fields()).isEqualTo(entries("Host", "b"));
    }

    @Test
    void parsingAgainAfterCompletionChangesNothing() {
        byte[] b = bytes(get("Host: a") + "GET /next HTTP/1.1\r\n");
        RequestParser p = standard();
        assertThat(outcome(() -> p.parse(b, 0, b.length))).isEqualTo("complete");
        Head h = snapshot(p, b, 0);
        assertThat(outcome(() -> p.parse(b, 0, b.length))).isEqualTo("complete");
        assertThat(snapshot(p, b, 0)).isEqualTo(h);
        assertThat(h.headEnd()).isEqualTo(get("Host: a").length());
    }

    @Test
    void bytesMayMoveBetweenCalls() {
        String request = head("PUT /items/9?x=y HTTP/1.1", "Host: a", "Content-Length: 2", "X-Trace: abc");
        byte[] req = bytes(request);
        RequestParser reference = standard();
        assertThat(outcome(() -> reference.parse(req, 0, req.length))).isEqualTo("complete");
        Head expected = snapshot(reference, req, 0);

        for (int k = 0; k < req.length; k++) {
            byte[] first = new byte[100 + req.length];
            System.arraycopy(req, 0, first, 50, k);
            RequestParser p = standard();
            int end = 50 + k;
            assertThat(outcome(() -> p.parse(first, 50, end))).isEqualTo("incomplete");
            byte[] moved = new byte[req.length + 3];
            System.arraycopy(req, 0, moved, 3, req.length);
            assertThat(outcome(() -> p.parse(moved, 3, moved.length))).as("split at %d", k).isEqualTo("complete");
            assertThat(snapshot(p, moved, 3)).as("split at %d", k).isEqualTo(expected);
        }
    }
}
