package dev.brisk.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChunkedDecoderTest {
    private static final int MAX_EXTENSION = 16;
    private static final int MAX_TRAILER = 64;
    private static final long LIMIT = 1000;
    /** The body starts at this offset of a larger array. */
    private static final int BASE = 5;
    private static final byte POISON = '\r';

    private static ChunkedDecoder decoder() {
        return new ChunkedDecoder(MAX_EXTENSION, MAX_TRAILER);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] place(String encoded) {
        byte[] e = bytes(encoded);
        byte[] a = new byte[BASE + e.length + 4];
        Arrays.fill(a, POISON);
        System.arraycopy(e, 0, a, BASE, e.length);
        return a;
    }

    /**
     * A copy of the placed body that holds its bytes only up to a moving end, poison after it, so the
     * decoder cannot read past the end it is given. Ends only grow, one byte to restore per step.
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

        byte[] upTo(int newEnd) {
            if (newEnd < end) {
                throw new IllegalArgumentException("ends only grow");
            }
            System.arraycopy(placed, end, bytes, end, newEnd - end);
            end = newEnd;
            return bytes;
        }
    }

    @FunctionalInterface
    interface Call {
        int run() throws HttpParseException;
    }

    /** "returned N" (N relative to BASE) or "rejected NNN". */
    private static String outcome(Call c) {
        try {
            return "returned " + (c.run() - BASE);
        } catch (HttpParseException e) {
            return "rejected " + e.status();
        }
    }

    private static void check(Object actual, Object expected, String description, Object... args) {
        if (!actual.equals(expected)) {
            assertThat(actual).as(description, args).isEqualTo(expected);
        }
    }

    private static String str(BodyBuffer out) {
        return new String(out.toArray(), StandardCharsets.ISO_8859_1);
    }

    /**
     * Decodes {@code input} (a chunked body, maybe followed by other bytes) whole, split at every offset
     * and byte by byte; asserts each way consumes exactly {@code consumed} bytes and yields the same body.
     */
    private static String decodeAllWays(String input, int consumed, long limit) {
        byte[] a = place(input);
        int n = input.length();

        ChunkedDecoder whole = decoder();
        BodyBuffer wholeOut = new BodyBuffer(limit, 16);
        assertThat(outcome(() -> whole.decode(a, BASE, BASE + n, wholeOut))).as("whole")
                .isEqualTo("returned " + consumed);
        assertThat(whole.done()).isTrue();
        String body = str(wholeOut);

        Cut splits = new Cut(a);
        for (int k = 0; k <= n; k++) {
            ChunkedDecoder d = decoder();
            BodyBuffer out = new BodyBuffer(limit, 16);
            byte[] part = splits.upTo(BASE + k);
            int end = BASE + k;
            int firstEnd = Math.min(k, consumed);
            check(outcome(() -> d.decode(part, BASE, end, out)), "returned " + firstEnd,
                    "first call with %d of %d bytes", k, n);
            check(d.done(), k >= consumed, "done after first call with %d bytes", k);
            check(outcome(() -> d.decode(a, BASE + firstEnd, BASE + n, out)), "returned " + consumed,
                    "second call after split at %d", k);
            check(d.done(), true, "done after split at %d", k);
            check(str(out), body, "body after split at %d", k);
        }

        ChunkedDecoder d = decoder();
        BodyBuffer out = new BodyBuffer(limit, 16);
        Cut growing = new Cut(a);
        for (int e = 0; e < n; e++) {
            byte[] part = growing.upTo(BASE + e + 1);
            int from = BASE + e;
            String expected = "returned " + (e < consumed ? e + 1 : e);
            check(outcome(() -> d.decode(part, from, from + 1, out)), expected, "byte %d of %d", e, n);
            check(d.done(), e + 1 >= consumed, "done after byte %d", e);
        }
        assertThat(str(out)).as("body byte by byte").isEqualTo(body);
        return body;
    }

    private static String decodeAllWays(String encoded) {
        return decodeAllWays(encoded, encoded.length(), LIMIT);
    }

    /**
     * Asserts {@code encoded} is refused with {@code status} whole, byte by byte and at every split.
     *
     * @return how many bytes it took to refuse it byte by byte
     */
    private static int assertRejected(String encoded, long limit, int status) {
        String rejected = "rejected " + status;
        byte[] a = place(encoded);
        int n = encoded.length();
        assertThat(outcome(() -> decoder().decode(a, BASE, BASE + n, new BodyBuffer(limit, 16)))).as("whole")
                .isEqualTo(rejected);

        ChunkedDecoder d = decoder();
        BodyBuffer out = new BodyBuffer(limit, 16);
        Cut growing = new Cut(a);
        int needed = -1;
        for (int e = 0; e < n && needed < 0; e++) {
            byte[] part = growing.upTo(BASE + e + 1);
            int from = BASE + e;
            String o = outcome(() -> d.decode(part, from, from + 1, out));
            if (o.startsWith("rejected")) {
                assertThat(o).as("byte by byte, byte %d of %d", e, n).isEqualTo(rejected);
                needed = e + 1;
            } else {
                check(o, "returned " + (e + 1), "byte %d of %d", e, n);
                check(d.done(), false, "done after byte %d of a refused body", e);
            }
        }
        assertThat(needed).as("refused byte by byte").isPositive();

        Cut splits = new Cut(a);
        for (int k = 0; k <= n; k++) {
            ChunkedDecoder q = decoder();
            BodyBuffer qOut = new BodyBuffer(limit, 16);
            byte[] part = splits.upTo(BASE + k);
            int end = BASE + k;
            if (k < needed) {
                check(outcome(() -> q.decode(part, BASE, end, qOut)), "returned " + k,
                        "first call with %d of %d bytes", k, n);
                check(outcome(() -> q.decode(a, end, BASE + n, qOut)), rejected, "second call after split at %d", k);
            } else {
                check(outcome(() -> q.decode(part, BASE, end, qOut)), rejected, "first call with %d of %d bytes", k, n);
            }
        }
        return needed;
    }

    private static int assertRejected(String encoded, int status) {
        return assertRejected(encoded, LIMIT, status);
    }

    // ---- accepted bodies ----------------------------------------------------------------------

    @Test
    void severalChunks() {
        assertThat(decodeAllWays("5\r\nhello\r\n1\r\n,\r\n6\r\n world\r\n0\r\n\r\n")).isEqualTo("hello, world");
    }

    @Test
    void emptyBody() {
        assertThat(decodeAllWays("0\r\n\r\n")).isEmpty();
    }

    @Test
    void upperAndLowerCaseHex() {
        String a26 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".substring(0, 26);
        String s31 = "0123456789012345678901234567890";
        String s171 = "x".repeat(0xAB);
        String body = decodeAllWays("1A\r\n" + a26 + "\r\n1f\r\n" + s31 + "\r\naB\r\n" + s171 + "\r\n0\r\n\r\n");
        assertThat(body).isEqualTo(a26 + s31 + s171);
    }

    @Test
    void leadingZerosCountNotTheValue() {
        assertThat(decodeAllWays("000000000000005\r\nhello\r\n000000000000000\r\n\r\n")).isEqualTo("hello");
        // the grammar allows any number of leading zeros (1*HEXDIG); the line stays bounded at 64 digits
        assertThat(decodeAllWays("0000000000000005\r\nhello\r\n0000000000000000\r\n\r\n")).isEqualTo("hello");
        assertThat(decodeAllWays("0".repeat(63) + "5\r\nhello\r\n" + "0".repeat(64) + "\r\n\r\n")).isEqualTo("hello");
        assertThat(decodeAllWays("0" + "fffffffffffffff".replace('f', '0') + "1\r\nx\r\n0\r\n\r\n")).isEqualTo("x");
    }

    @Test
    void dataMayContainCrlf() {
        assertThat(decodeAllWays("4\r\n\r\n\r\n\r\n2\r\n0\r\r\n0\r\n\r\n")).isEqualTo("\r\n\r\n0\r");
    }

    @Test
    void chunkExtensionsAreIgnored() {
        String body = decodeAllWays("5;name=value\r\nhello\r\n3 ;a=\"q r\"\r\nabc\r\n2\t; x\r\nde\r\n0;last\r\n\r\n");
        assertThat(body).isEqualTo("helloabcde");
    }

    @Test
    void extensionOfExactlyTheLimitIsAccepted() {
        assertThat(decodeAllWays("1;" + "e".repeat(MAX_EXTENSION) + "\r\nx\r\n0;" + "f".repeat(MAX_EXTENSION) + "\r\n\r\n"))
                .isEqualTo("x");
    }

    @Test
    void trailersAreDropped() {
        String body = decodeAllWays("5\r\nhello\r\n0\r\nX-Checksum: abc123\r\nX-Other:  v w \r\nEmpty:\r\n\r\n");
        assertThat(body).isEqualTo("hello");
    }

    @Test
    void pipelinedBytesAfterTheBodyAreLeftAlone() {
        String encoded = "3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n";
        String next = "GET /next HTTP/1.1\r\nHost: a\r\n\r\n";
        assertThat(decodeAllWays(encoded + next, encoded.length(), LIMIT)).isEqualTo("abc");
        // even a next "body" that looks chunked is not consumed
        assertThat(decodeAllWays("0\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 5, LIMIT)).isEmpty();
    }

    @Test
    void decodeAfterDoneConsumesNothing() throws HttpParseException {
        byte[] b = bytes("0\r\n\r\nrest");
        ChunkedDecoder d = decoder();
        BodyBuffer out = new BodyBuffer(LIMIT, 16);
        assertThat(d.done()).isFalse();
        assertThat(d.decode(b, 0, 5, out)).isEqualTo(5);
        assertThat(d.done()).isTrue();
        assertThat(d.decode(b, 5, b.length, out)).isEqualTo(5);
        assertThat(out.size()).isZero();
    }

    @Test
    void emptyRangeConsumesNothing() throws HttpParseException {
        ChunkedDecoder d = decoder();
        BodyBuffer out = new BodyBuffer(LIMIT, 16);
        assertThat(d.decode(new byte[4], 2, 2, out)).isEqualTo(2);
        assertThat(d.done()).isFalse();
    }

    @Test
    void totalOfExactlyTheLimitIsAccepted() {
        String encoded = "5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n";
        assertThat(decodeAllWays(encoded, encoded.length(), 10)).isEqualTo("helloworld");
    }

    // ---- refused bodies -----------------------------------------------------------------------

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("non-hex size", "g\r\nabc\r\n0\r\n\r\n", 400),
                Arguments.of("non-hex after a digit", "5g\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("negative size", "-5\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("plus sign", "+5\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("empty size", "\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("extension without size", ";x\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("leading space", " 5\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("0x prefix", "0x10\r\n0123456789abcdef\r\n0\r\n\r\n", 400),
                Arguments.of("16 hex digits", "1000000000000000\r\n", 400),
                Arguments.of("16 significant digits after zeros", "01000000000000000\r\n", 400),
                Arguments.of("65 digits", "0".repeat(64) + "5\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("20 hex digits", "FFFFFFFFFFFFFFFFFFFF\r\n", 400),
                Arguments.of("whitespace before CRLF", "5 \r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("data longer than size", "5\r\nhelloX\r\n0\r\n\r\n", 400),
                Arguments.of("data shorter than size", "5\r\nhell\r\n0\r\n\r\n", 400),
                Arguments.of("LF only after data", "5\r\nhello\n0\r\n\r\n", 400),
                Arguments.of("CR without LF after data", "5\r\nhello\rX0\r\n\r\n", 400),
                Arguments.of("bare CR after size", "5\rhello\r\n0\r\n\r\n", 400),
                Arguments.of("bare LF after size", "5\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("bare CR after extension", "5;x\rhello\r\n0\r\n\r\n", 400),
                Arguments.of("bare CR after trailer", "0\r\nX: y\rZ\r\n\r\n", 400),
                Arguments.of("bare CR as the last line", "0\r\n\rX", 400),
                Arguments.of("bare LF as the last line", "0\r\n\n", 400),
                Arguments.of("extension longer than the limit", "5;" + "e".repeat(MAX_EXTENSION + 1) + "\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("long extension on the last chunk", "0;" + "e".repeat(MAX_EXTENSION + 1) + "\r\n\r\n", 400),
                Arguments.of("NUL in extension", "5;a\0b\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("SOH in extension", "5;a\u0001\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("LF in extension", "5;a\nb\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("DEL in extension", "5;a\u007f\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("trailer without colon", "0\r\nX-NoColon\r\n\r\n", 400),
                Arguments.of("trailer with empty name", "0\r\n: v\r\n\r\n", 400),
                Arguments.of("folded trailer", "0\r\nX: a\r\n  b\r\n\r\n", 400),
                Arguments.of("space before trailer colon", "0\r\nX : v\r\n\r\n", 400),
                Arguments.of("control char in trailer value", "0\r\nX: a\u0001\r\n\r\n", 400),
                Arguments.of("NUL in trailer name", "0\r\nX\0: v\r\n\r\n", 400),
                Arguments.of("bare LF in trailer", "0\r\nX: v\n\r\n", 400),
                Arguments.of("trailer section larger than the limit", "0\r\nX-Big: " + "a".repeat(MAX_TRAILER) + "\r\n\r\n", 431),
                Arguments.of("many trailers over the limit", "0\r\n" + "T: 1234567890\r\n".repeat(6) + "\r\n", 431));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("refused")
    void refused(String description, String encoded, int status) {
        assertRejected(encoded, status);
    }

    @Test
    void chunkSizeAboveTheLimitIs413BeforeTheDataArrives() {
        assertThat(assertRejected("65\r\n", 100, 413)).as("refused at the LF of the size line").isEqualTo(4);
        assertThat(assertRejected("65;ext\r\n" + "x".repeat(101), 100, 413)).isEqualTo(8);
        assertThat(assertRejected("FFFFFFFFFFFFFFF\r\n", 100, 413)).isEqualTo(17);
    }

    @Test
    void totalOverTheLimitAcrossChunksIs413() {
        String encoded = "5\r\nhello\r\n6\r\nworld!\r\n0\r\n\r\n";
        assertThat(assertRejected(encoded, 10, 413)).as("refused at the second size line").isEqualTo(13);
    }

    @Test
    void oversizedTrailerIsRefusedBeforeItsLineEnds() {
        int needed = assertRejected("0\r\nX-Big: " + "a".repeat(10 * MAX_TRAILER), 431);
        assertThat(needed).isEqualTo(3 + MAX_TRAILER + 1);
    }
}
