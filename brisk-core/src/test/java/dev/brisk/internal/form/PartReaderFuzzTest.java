package dev.brisk.internal.form;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.FormOptions;
import dev.brisk.HttpException;
import dev.brisk.internal.http.FuzzInput;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of the multipart reader ({@link PartReader} with {@link PartHead}) with Jazzer:
 * {@code ./brisk fuzz --target multipart} fuzzes it; the default test run (Jazzer's regression mode) runs
 * it on the seeds of {@link #read()} and on every input kept in
 * {@code src/test/resources/dev/brisk/internal/form/PartReaderFuzzTestInputs/read/}.
 *
 * <p>An input is a {@link FuzzInput}: the payload is a body with the boundary {@value #BOUNDARY}; the
 * selector picks the limits ({@link #LIMITS}) and the size of the handler's reads ({@link #READ_SIZES});
 * the split points are where the body arrives in pieces. Properties, checked for every input:
 * <ul>
 *   <li>without limits, the reader finds what {@link #reference} finds, framing the body naively from
 *       RFC 2046 5.1 (each delimiter by a search of the whole body): the same parts with the same heads
 *       and contents, or a 400 where the reference finds the body malformed;</li>
 *   <li>it throws nothing but {@link HttpException} (400 or 413);</li>
 *   <li>whole, byte by byte and split at the fuzzer's points, with any read size, the outcome is the same
 *       (the same parts, or the same status and message), except that a body over a limit may be refused
 *       for one fault or another, as the bytes arrive;</li>
 *   <li>the limits change the outcome only by a 413 whose own limit the body exceeds (parts, a part's
 *       size, a head's size, the body's size: told apart by the message); a body within every limit
 *       reads as without them.</li>
 * </ul>
 */
class PartReaderFuzzTest {
    static final String BOUNDARY = "zz";
    private static final FormOptions UNLIMITED = new FormOptions(10_000_000, Long.MAX_VALUE, Long.MAX_VALUE,
            1 << 20, 0);
    static final List<FormOptions> LIMITS = List.of(UNLIMITED, new FormOptions(2, 8, 64, 64, 0),
            new FormOptions(4, 3, 1 << 20, 80, 0), new FormOptions(1000, 1 << 20, 120, 8192, 0));
    static final int[] READ_SIZES = {8192, 1, 7};

    /** Seeds: well-formed bodies and a few of their faults. */
    static Stream<byte[]> read() {
        List<byte[]> seeds = new ArrayList<>();
        String ok = "pre\r\n--zz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n"
                + "--zz \t\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n\r\n--z\r\n-zz\r\n--zz--\r\nepilogue";
        for (String body : List.of(ok, "--zz\r\nContent-Disposition: form-data; name=e\r\n\r\n\r\n--zz--",
                "--zz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end", "--zz-x",
                "--zz\r\nX: y\r\n\r\n\r\n--zz--", "--zz\r\ncontent-disposition: form-data; name=\"a\"\n\r\n\r\n--zz--")) {
            byte[] b = body.getBytes(StandardCharsets.ISO_8859_1);
            for (int s = 0; s < LIMITS.size() * READ_SIZES.length; s++) {
                seeds.add(FuzzInput.encode(s, new int[] {b.length / 3, b.length / 2}, b));
            }
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    void read(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        FormOptions limits = LIMITS.get(in.selector() % LIMITS.size());
        int readSize = READ_SIZES[(in.selector() / LIMITS.size()) % READ_SIZES.length];
        byte[] body = in.payload();
        String at = "limits " + limits + ", reads of " + readSize + ", body " + HexFormat.of().formatHex(body)
                + " (" + new String(body, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n")
                + ") split at " + Arrays.toString(in.ends()) + ": ";

        Reference ref = reference(body);
        String free = run(body, new int[] {body.length}, 8192, UNLIMITED, at);
        String expected = ref.outcome == null ? ref.parts.toString() : "400";
        if (!(ref.outcome == null ? free.equals(expected) : free.startsWith("400 "))) {
            throw new AssertionError(at + "read " + free + " but the reference " + expected
                    + (ref.outcome == null ? "" : " (" + ref.outcome + ")"));
        }

        String whole = run(body, new int[] {body.length}, readSize, limits, at);
        String bytewise = run(body, byteByByte(body.length), readSize, limits, at);
        String split = run(body, in.ends(), readSize, limits, at);
        boolean exceeded = Stream.of(whole, bytewise, split).anyMatch(o -> justified(o, ref, limits, body.length));
        if (!bytewise.equals(whole) || !split.equals(whole)) {
            // a body over a limit (and perhaps malformed too) may meet one fault or another first, as the
            // bytes arrive (the size limit counts what was read, ahead of what was parsed): refusals all
            boolean refusals = Stream.of(whole, bytewise, split).allMatch(o -> o.startsWith("400 ") || o.startsWith("413 "));
            if (!refusals || !exceeded) {
                throw new AssertionError(at + "whole " + whole + ", byte by byte " + bytewise + ", split " + split);
            }
        }
        for (String o : List.of(whole, bytewise, split)) {
            if (!o.equals(free) && !justified(o, ref, limits, body.length)) {
                throw new AssertionError(at + "with the limits " + o + " but without them " + free
                        + ", a refusal for no limit the body exceeds");
            }
        }
    }

    /** Whether {@code outcome} is a 413 for a limit the body exceeds (by the reference's figures). */
    private static boolean justified(String outcome, Reference ref, FormOptions limits, int bodyLength) {
        if (!outcome.startsWith("413 ")) {
            return false;
        }
        if (outcome.startsWith("413 Multipart body has more than")) {
            return ref.parts.size() + ref.partsAfter > limits.maxParts();
        }
        if (outcome.startsWith("413 Part headers")) {
            return ref.largestHead > limits.maxPartHeaderSize();
        }
        if (outcome.startsWith("413 Part ")) {
            return ref.largestPart > limits.maxPartSize();
        }
        if (outcome.startsWith("413 Multipart body is larger")) {
            return bodyLength > limits.maxSize();
        }
        throw new AssertionError("a 413 for no known limit: " + outcome);
    }

    /** Reads every part ("name|filename|type|content in hex"), or says how it failed ("400 message"). */
    private static String run(byte[] body, int[] ends, int readSize, FormOptions limits, String at) {
        PartReader r = new PartReader(pieces(body, ends), BOUNDARY, limits);
        List<String> parts = new ArrayList<>();
        try {
            PartHead h;
            byte[] buf = new byte[readSize];
            while ((h = r.next()) != null) {
                ByteArrayOutputStream content = new ByteArrayOutputStream();
                int n;
                while ((n = r.read(buf, 0, buf.length)) >= 0) {
                    if (n == 0 || n > buf.length) {
                        throw new AssertionError(at + "a read of " + buf.length + " gave " + n);
                    }
                    content.write(buf, 0, n);
                }
                parts.add(h.name() + "|" + h.filename() + "|" + h.contentType() + "|"
                        + HexFormat.of().formatHex(content.toByteArray()));
            }
        } catch (HttpException e) {
            if (e.status() != 400 && e.status() != 413) {
                throw new AssertionError(at + "status " + e.status() + ": " + e.getMessage(), e);
            }
            return e.status() + " " + e.getMessage();
        } catch (RuntimeException e) {
            throw new AssertionError(at + "the reader threw " + e, e);
        }
        return parts.toString();
    }

    /** What a naive framing finds: the parts, or why the body is malformed; and the sizes the limits see. */
    static final class Reference {
        final List<String> parts = new ArrayList<>();
        /** 1 when a part's head was begun but not finished (it counts against max-parts). */
        int partsAfter;
        long largestPart;
        int largestHead;
        String outcome; // null: well formed
    }

    static Reference reference(byte[] body) {
        Reference ref = new Reference();
        byte[] data = new byte[body.length + 2];
        data[0] = '\r';
        data[1] = '\n';
        System.arraycopy(body, 0, data, 2, body.length);
        byte[] delim = ("\r\n--" + BOUNDARY).getBytes(StandardCharsets.ISO_8859_1);
        int d = indexOf(data, delim, 0);
        if (d < 0) {
            ref.outcome = "no delimiter";
            return ref;
        }
        int p = d + delim.length;
        while (true) {
            if (p < data.length && data[p] == '-') {
                if (p + 1 >= data.length || data[p + 1] != '-') {
                    ref.outcome = "'-' after a delimiter";
                    return ref;
                }
                p += 2; // the close delimiter: padding, then the end or a CRLF before the epilogue
                while (p < data.length && (data[p] == ' ' || data[p] == '\t')) {
                    p++;
                }
                ref.outcome = p == data.length || (p + 1 < data.length && data[p] == '\r' && data[p + 1] == '\n')
                        ? null : "more than padding after the close delimiter";
                return ref;
            }
            while (p < data.length && (data[p] == ' ' || data[p] == '\t')) {
                p++;
            }
            if (p + 1 >= data.length || data[p] != '\r' || data[p + 1] != '\n') {
                ref.outcome = "no CRLF after a delimiter";
                return ref;
            }
            p += 2;
            ref.partsAfter = 1;
            int headStart = p;
            while (true) { // header lines: up to a CR, which must be followed by LF; an empty one ends the head
                int lineStart = p;
                while (p < data.length && data[p] != '\r' && data[p] != '\n') {
                    p++;
                }
                ref.largestHead = Math.max(ref.largestHead, Math.min(p + 2, data.length) - headStart);
                if (p + 1 >= data.length || data[p] != '\r' || data[p + 1] != '\n') {
                    ref.outcome = "a head's line does not end in CRLF";
                    return ref;
                }
                p += 2;
                if (p - 2 == lineStart) {
                    break;
                }
            }
            PartHead head;
            int[] q = {headStart};
            byte[] headBytes = data;
            int headEnd = p;
            try {
                head = PartHead.parse(() -> q[0] < headEnd ? headBytes[q[0]++] & 0xff : -1, Integer.MAX_VALUE);
            } catch (HttpException e) {
                ref.outcome = "head: " + e.getMessage();
                return ref;
            }
            int next = indexOf(data, delim, p);
            if (next < 0) {
                ref.largestPart = Math.max(ref.largestPart, data.length - p);
                ref.outcome = "no delimiter after a part";
                return ref;
            }
            ref.largestPart = Math.max(ref.largestPart, next - p);
            ref.partsAfter = 0;
            ref.parts.add(head.name() + "|" + head.filename() + "|" + head.contentType() + "|"
                    + HexFormat.of().formatHex(Arrays.copyOfRange(data, p, next)));
            p = next + delim.length;
        }
    }

    private static int indexOf(byte[] a, byte[] b, int from) {
        outer:
        for (int i = from; i <= a.length - b.length; i++) {
            for (int k = 0; k < b.length; k++) {
                if (a[i + k] != b[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The body as a stream that hands it out in the pieces ending at {@code ends}. */
    private static InputStream pieces(byte[] body, int[] ends) {
        return new InputStream() {
            private int pos;
            private int piece;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= body.length) {
                    return -1;
                }
                while (piece < ends.length - 1 && ends[piece] <= pos) {
                    piece++;
                }
                int n = Math.min(len, Math.max(1, ends[piece] - pos));
                System.arraycopy(body, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    private static int[] byteByByte(int n) {
        int[] ends = new int[Math.max(1, n)];
        for (int i = 0; i < n; i++) {
            ends[i] = i + 1;
        }
        return ends;
    }
}
