package dev.brisk.internal.http;

import static dev.brisk.internal.http.ParserFuzzTest.DECODER_LIMITS;
import static dev.brisk.internal.http.ParserFuzzTest.DECODER_STATUSES;
import static dev.brisk.internal.http.ParserFuzzTest.bytes;
import static dev.brisk.internal.http.ParserFuzzTest.escape;
import static dev.brisk.internal.http.ParserFuzzTest.str;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.internal.http.ParserFuzzTest.DecoderLimits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link ChunkedDecoder} with Jazzer: {@code ./brisk fuzz --target chunked-decoder}
 * fuzzes it; the default test run (Jazzer's regression mode) runs it on the seeds of {@link #decode()} and on
 * every input kept in {@code src/test/resources/dev/brisk/internal/http/ChunkedDecoderFuzzTestInputs/decode/}.
 *
 * <p>An input is a {@link FuzzInput}: its selector picks one of {@link ParserFuzzTest#DECODER_LIMITS}, its
 * split points where the body arrives in pieces. Properties, checked for every input:
 * <ul>
 *   <li>without limits, the decoder agrees with {@link ReferenceChunkedDecoder}: done at the same end of the
 *       body with the same data, incomplete with the same data so far, or refused (400) where the reference
 *       finds the input invalid, with the same data before the fault;</li>
 *   <li>it throws nothing but {@link HttpParseException} with a status of
 *       {@link ParserFuzzTest#DECODER_STATUSES}, never reads past the end it is given (every call gets the
 *       new bytes alone, in an array that ends exactly there) and never takes a byte after the body;</li>
 *   <li>whole, byte by byte and split at the fuzzer's points, with the limits, the outcome, the body's end and
 *       the data are the same, decided at the first piece end at or after the byte that decides it byte by
 *       byte;</li>
 *   <li>the limits change the outcome only by a refusal whose limit the body exceeds (413: the chunk sizes,
 *       431: the trailer section, 400: a chunk extension), decided no later than without them; a body
 *       within every limit decodes as without them; the data never exceeds the body limit.</li>
 * </ul>
 */
class ChunkedDecoderFuzzTest {
    /** No limit the input could reach. */
    static final DecoderLimits UNLIMITED = new DecoderLimits("unlimited", Integer.MAX_VALUE, Integer.MAX_VALUE,
            Long.MAX_VALUE);

    /** Seeds: valid bodies (some followed by the next request), and a few of their edges. */
    static Stream<byte[]> decode() {
        List<byte[]> seeds = new ArrayList<>();
        for (String body : List.of("0\r\n\r\n", "5\r\nhello\r\n0\r\n\r\n", "5;a=b\r\nhello\r\n0\r\nX-Sum: abc\r\n\r\n",
                "3 ;x\r\nabc\r\n000\r\nT:\r\n\r\nGET / HTTP/1.1\r\n", "A\r\n0123456789\r\n0\r\n\r\n")) {
            for (int l = 0; l < DECODER_LIMITS.size(); l++) {
                seeds.add(FuzzInput.encode(l, new int[0], bytes(body)));
            }
        }
        Random r = new Random(0xC4C4);
        for (int i = 0; i < 8; i++) {
            byte[] data = new byte[r.nextInt(40)];
            r.nextBytes(data);
            DecoderLimits lim = DECODER_LIMITS.get(i % DECODER_LIMITS.size());
            byte[] body = ParserFuzzTest.encodeChunked(r, data, lim);
            seeds.add(FuzzInput.encode(i, new int[] {1, body.length / 2}, body));
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    @DictionaryFile(resourcePath = "chunked.dict")
    void decode(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        DecoderLimits lim = DECODER_LIMITS.get(in.selector() % DECODER_LIMITS.size());
        byte[] input = in.payload();
        try {
            check(input, lim, in.ends());
        } catch (AssertionError e) {
            throw new AssertionError("limits=" + lim.name() + " input(" + input.length + ")=" + escape(input)
                    + " split at " + Arrays.toString(in.ends()) + "\n  " + e.getMessage(), e);
        }
    }

    private static void check(byte[] input, DecoderLimits lim, int[] ends) {
        int n = input.length;
        ReferenceChunkedDecoder.Result ref = ReferenceChunkedDecoder.decode(input);
        Decoded free = decode(input, UNLIMITED, new int[] {n}, "unlimited");
        Decoded expected = switch (ref.kind()) {
            case DONE -> new Decoded("done", ref.consumed(), n, ref.data());
            case INCOMPLETE -> new Decoded("incomplete", -1, n, ref.data());
            case INVALID -> new Decoded("rejected 400", -1, n, ref.data());
        };
        if (!free.equals(expected)) {
            throw new AssertionError("unlimited " + free + " but the reference " + ref);
        }
        Decoded freeBytewise = decode(input, UNLIMITED, FuzzInput.byteByByte(n), "unlimited byte by byte");

        Decoded whole = decode(input, lim, new int[] {n}, "whole");
        Decoded bytewise = decode(input, lim, FuzzInput.byteByByte(n), "byte by byte");
        if (!bytewise.sameAs(whole)) {
            throw new AssertionError("whole " + whole + " but byte by byte " + bytewise);
        }
        Decoded split = decode(input, lim, ends, "split");
        int expectedAt = bytewise.kind().equals("incomplete") ? n : firstEndFrom(ends, bytewise.decidedAt());
        if (!split.sameAs(bytewise) || split.decidedAt() != expectedAt) {
            throw new AssertionError("split: " + split + " but byte by byte " + bytewise + " (decided at " + expectedAt
                    + " expected)");
        }

        boolean withinLimits = ref.longestExt() <= lim.maxExtension() && ref.trailerBytes() <= lim.maxTrailer()
                && ref.declaredSize() <= lim.bodyLimit();
        if (!whole.sameAs(free)) {
            if (withinLimits) {
                throw new AssertionError("within the limits " + whole + " but without them " + free + "; reference " + ref);
            }
            String why = switch (whole.kind()) {
                case "rejected 413" -> ref.declaredSize() > lim.bodyLimit() ? null : "chunk sizes " + ref.declaredSize();
                case "rejected 431" -> ref.trailerBytes() > lim.maxTrailer() ? null : "trailer bytes " + ref.trailerBytes();
                case "rejected 400" -> ref.longestExt() > lim.maxExtension() ? null : "longest extension " + ref.longestExt();
                default -> "not a refusal";
            };
            if (why != null) {
                throw new AssertionError("with the limits " + whole + " but without them " + free + ": " + why
                        + " within the limit; reference " + ref);
            }
            if (bytewise.decidedAt() > freeBytewise.decidedAt()) {
                throw new AssertionError("refused at " + bytewise.decidedAt() + ", later than without the limits "
                        + freeBytewise);
            }
        }
    }

    /** A decoded result: "done", "incomplete" or "rejected NNN", the body's end (done), where decided, the data. */
    record Decoded(String kind, int consumed, int decidedAt, String data) {
        boolean sameAs(Decoded o) {
            return kind.equals(o.kind) && consumed == o.consumed && data.equals(o.data);
        }
    }

    /**
     * Feeds {@code input} arriving up to each of {@code ends}: each call gets only the bytes not yet consumed,
     * in a new array that ends exactly at the end given, at another offset each time.
     */
    static Decoded decode(byte[] input, DecoderLimits lim, int[] ends, String way) {
        ChunkedDecoder d = new ChunkedDecoder(lim.maxExtension(), lim.maxTrailer());
        BodyBuffer out = new BodyBuffer(lim.bodyLimit(), 16);
        int pos = 0;
        int doneAt = -1;
        for (int k = 0; k < ends.length; k++) {
            int end = ends[k];
            int base = k % 5;
            byte[] a = new byte[base + end - pos];
            Arrays.fill(a, 0, base, (byte) '\n');
            System.arraycopy(input, pos, a, base, end - pos);
            int ret;
            try {
                ret = d.decode(a, base, a.length, out) - base + pos;
            } catch (HttpParseException e) {
                if (!DECODER_STATUSES.contains(e.status())) {
                    throw new AssertionError(way + ": status " + e.status() + " (" + e.getMessage() + ") at " + end, e);
                }
                if (doneAt >= 0) {
                    throw new AssertionError(way + ": rejected after done", e);
                }
                checkSize(out, lim, way);
                return new Decoded("rejected " + e.status(), -1, end, str(out.toArray(), 0, out.size()));
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(way + ": " + e + " with " + end + " bytes", e);
            }
            if (ret < pos || ret > end) {
                throw new AssertionError(way + ": returned " + ret + " for [" + pos + ", " + end + ")");
            }
            if (ret < end && !d.done()) {
                throw new AssertionError(way + ": stopped at " + ret + " of " + end + " without being done");
            }
            if (doneAt >= 0 && ret != pos) {
                throw new AssertionError(way + ": consumed " + (ret - pos) + " bytes after done");
            }
            pos = ret;
            if (d.done() && doneAt < 0) {
                doneAt = end;
            }
            checkSize(out, lim, way);
        }
        String data = str(out.toArray(), 0, out.size());
        return doneAt >= 0 ? new Decoded("done", pos, doneAt, data) : new Decoded("incomplete", -1, input.length, data);
    }

    private static void checkSize(BodyBuffer out, DecoderLimits lim, String way) {
        if (out.size() > lim.bodyLimit()) {
            throw new AssertionError(way + ": " + out.size() + " bytes of data over the limit " + lim.bodyLimit());
        }
    }

    static int firstEndFrom(int[] ends, int at) {
        for (int e : ends) {
            if (e >= at) {
                return e;
            }
        }
        return -1;
    }
}
