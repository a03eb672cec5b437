package dev.brisk.internal.http;

import static dev.brisk.internal.http.ParserFuzzTest.LIMITS;
import static dev.brisk.internal.http.ParserFuzzTest.PARSER_STATUSES;
import static dev.brisk.internal.http.ParserFuzzTest.bytes;
import static dev.brisk.internal.http.ParserFuzzTest.escape;
import static dev.brisk.internal.http.ParserFuzzTest.str;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.internal.http.ParserFuzzTest.Head;
import dev.brisk.internal.http.ParserFuzzTest.Limits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link RequestParser} with Jazzer: {@code ./brisk fuzz --target request-parser}
 * fuzzes it; the default test run (Jazzer's regression mode) runs it on the seeds of {@link #parse()} and
 * on every input kept in {@code src/test/resources/dev/brisk/internal/http/RequestParserFuzzTestInputs/parse/}.
 *
 * <p>An input is a {@link FuzzInput}: its selector picks one of {@link ParserFuzzTest#LIMITS}, its split
 * points where the request arrives in pieces. Properties, checked for every input:
 * <ul>
 *   <li>the parser returns true or false, or throws {@link HttpParseException} with a status of
 *       {@link ParserFuzzTest#PARSER_STATUSES}; any other throwable is a bug;</li>
 *   <li>it never reads past the end it was given: every call gets an array that ends exactly there (a
 *       read past it throws), at a different offset each time (offsets are relative to the start, and the
 *       caller may move the bytes between calls);</li>
 *   <li>whole, byte by byte and split at the fuzzer's points, the outcome (complete with the same head,
 *       incomplete, or refused with the same status) is the same, and it is decided at the first piece end
 *       at or after the byte that decides it byte by byte; more bytes after completion change nothing;</li>
 *   <li>the same parser after {@link RequestParser#reset} gives the same outcome again;</li>
 *   <li>a complete head is well formed ({@link ParserFuzzTest#checkHead}) and within every limit, and the
 *       parser decides within the limits: it never holds more than the bytes they allow undecided;</li>
 *   <li>a refusal for a limit (413, 414, 431) is only given where that limit is exceeded.</li>
 * </ul>
 */
class RequestParserFuzzTest {
    /** Bytes the parser must never take as part of a request: placed before the start it is given. */
    private static final byte BEFORE = '\n';

    /** Most leading empty lines the parser skips (its MAX_LEADING_EMPTY_LINES). */
    private static final int LEADING_EMPTY_LINES = 8;

    /** Seeds: every valid request of {@link ParserFuzzTest#VALID} under each limit set, whole and split. */
    static Stream<byte[]> parse() {
        List<byte[]> seeds = new ArrayList<>();
        for (String request : ParserFuzzTest.VALID) {
            byte[] b = bytes(request);
            for (int l = 0; l < LIMITS.size(); l++) {
                seeds.add(FuzzInput.encode(l, new int[0], b));
            }
            seeds.add(FuzzInput.encode(0, new int[] {1, b.length / 2, b.length - 1}, b));
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    @DictionaryFile(resourcePath = "request.dict")
    void parse(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        Limits lim = LIMITS.get(in.selector() % LIMITS.size());
        byte[] input = in.payload();
        try {
            check(input, lim, in.ends());
        } catch (AssertionError e) {
            throw new AssertionError("limits=" + lim.name() + " input(" + input.length + ")=" + escape(input)
                    + " split at " + Arrays.toString(in.ends()) + "\n  " + e.getMessage(), e);
        }
    }

    private static void check(byte[] input, Limits lim, int[] ends) {
        int n = input.length;
        RequestParser reused = lim.parser();
        Outcome whole = feed(reused, input, new int[] {n}, "whole");
        Outcome bytewise = feed(lim.parser(), input, FuzzInput.byteByByte(n), "byte by byte");
        if (!whole.sameAs(bytewise)) {
            throw new AssertionError("whole " + whole + " but byte by byte " + bytewise);
        }
        Outcome split = feed(lim.parser(), input, ends, "split");
        int expectedAt = bytewise.kind().equals("incomplete") ? n : firstEndFrom(ends, bytewise.decidedAt());
        if (!split.sameAs(bytewise) || split.decidedAt() != expectedAt) {
            throw new AssertionError("split: " + split + " but byte by byte " + bytewise + " (decided at "
                    + expectedAt + " expected)");
        }
        reused.reset();
        Outcome again = feed(reused, input, new int[] {n}, "again after reset");
        if (!again.sameAs(whole)) {
            throw new AssertionError("again after reset: " + again + " but first " + whole);
        }
        checkDecidedWithinLimits(input, lim, bytewise);
        if (whole.head() != null) {
            ParserFuzzTest.checkHead(input, whole.head(), lim);
            checkHeadWithinLimits(input, whole.head(), lim);
        } else if (whole.kind().startsWith("rejected")) {
            checkLimitStatus(input, lim, Integer.parseInt(whole.kind().substring("rejected ".length())));
        }
    }

    /** How a way of feeding ended: "complete", "incomplete" or "rejected NNN", at which end, with what head. */
    record Outcome(String kind, int decidedAt, Head head) {
        boolean sameAs(Outcome o) {
            return kind.equals(o.kind) && Objects.equals(head, o.head);
        }
    }

    /**
     * Feeds {@code input} arriving up to each of {@code ends}, each time in a new array that ends exactly at
     * the end given and starts the request at another offset, after bytes that must not be read.
     */
    static Outcome feed(RequestParser p, byte[] input, int[] ends, String way) {
        Outcome done = null;
        for (int k = 0; k < ends.length; k++) {
            int end = ends[k];
            int base = k % 5;
            byte[] a = new byte[base + end];
            Arrays.fill(a, 0, base, BEFORE);
            System.arraycopy(input, 0, a, base, end);
            boolean complete;
            try {
                complete = p.parse(a, base, base + end);
            } catch (HttpParseException e) {
                if (!PARSER_STATUSES.contains(e.status())) {
                    throw new AssertionError(way + ": status " + e.status() + " (" + e.getMessage() + ") at " + end, e);
                }
                if (done != null) {
                    throw new AssertionError(way + ": rejected " + e.status() + " at " + end + " after completing", e);
                }
                return new Outcome("rejected " + e.status(), end, null);
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(way + ": " + e + " with " + end + " bytes", e);
            }
            if (done != null) {
                if (!complete) {
                    throw new AssertionError(way + ": incomplete at " + end + " after completing at " + done.decidedAt());
                }
                Head again = snapshot(p, input);
                if (!again.equals(done.head())) {
                    throw new AssertionError(way + ": head changed at " + end + ": " + again + " vs " + done.head());
                }
            } else if (complete) {
                done = new Outcome("complete", end, snapshot(p, input));
            }
        }
        return done != null ? done : new Outcome("incomplete", input.length, null);
    }

    /** Everything the parser reports; field text resolved against the input (offsets are relative to it). */
    static Head snapshot(RequestParser p, byte[] input) {
        List<Integer> offsets = new ArrayList<>(List.of(p.methodStart(), p.methodEnd(), p.targetStart(),
                p.targetEnd(), p.pathStart(), p.pathEnd()));
        List<String> fields = new ArrayList<>();
        int[] f = p.fields();
        for (int i = 0; i < p.fieldCount(); i++) {
            for (int j = 0; j < 4; j++) {
                offsets.add(f[4 * i + j]);
            }
            int ns = f[4 * i];
            int ve = f[4 * i + 3];
            // resolved only when in range: checkHead reports offsets outside it
            if (ns >= 0 && ns <= ve && ve <= Math.min(p.headEnd(), input.length)) {
                fields.add(str(input, ns, ve));
            }
        }
        return new Head(p.headEnd(), offsets, fields, p.contentLength(), p.chunked(), p.hasBody(), p.version(),
                p.keepAlive(), p.expectContinue());
    }

    static int firstEndFrom(int[] ends, int at) {
        for (int e : ends) {
            if (e >= at) {
                return e;
            }
        }
        return -1;
    }

    /**
     * The most bytes the limits let a head take before the parser must decide: the leading empty lines, the
     * request line and its CRLF, the header block, the final CRLF.
     */
    static int decisionBound(Limits lim) {
        return 2 * LEADING_EMPTY_LINES + lim.maxRequestLine() + 2 + lim.maxHeaderSize() + 2;
    }

    private static void checkDecidedWithinLimits(byte[] input, Limits lim, Outcome bytewise) {
        int bound = decisionBound(lim);
        if (bytewise.kind().equals("incomplete") && input.length >= bound) {
            throw new AssertionError("still undecided after " + input.length + " bytes; the limits allow " + bound);
        }
        if (bytewise.decidedAt() > bound) {
            throw new AssertionError(bytewise.kind() + " at byte " + bytewise.decidedAt() + "; the limits allow " + bound);
        }
    }

    /** Where the request line starts (after the leading empty lines) and ends (its LF, or the input's end). */
    private static int[] requestLine(byte[] b) {
        int from = 0;
        while (from + 1 < b.length && b[from] == '\r' && b[from + 1] == '\n') {
            from += 2;
        }
        int lf = from;
        while (lf < b.length && b[lf] != '\n') {
            lf++;
        }
        return new int[] {from, lf};
    }

    private static void checkHeadWithinLimits(byte[] b, Head h, Limits lim) {
        int[] line = requestLine(b);
        int lineLength = line[1] - 1 - line[0]; // without its CR
        if (line[0] > 2 * LEADING_EMPTY_LINES) {
            throw new AssertionError("accepted " + line[0] / 2 + " leading empty lines");
        }
        if (lineLength > lim.maxRequestLine()) {
            throw new AssertionError("accepted a request line of " + lineLength + " bytes");
        }
        int headerBlock = h.headEnd() - 2 - (line[1] + 1);
        if (headerBlock > lim.maxHeaderSize()) {
            throw new AssertionError("accepted a header block of " + headerBlock + " bytes");
        }
    }

    /** A refusal for a limit must come from that limit, seen in the bytes. */
    private static void checkLimitStatus(byte[] b, Limits lim, int status) {
        int[] line = requestLine(b);
        int lineLength = line[1] - line[0];
        if (line[1] > 0 && line[1] < b.length && b[line[1] - 1] == '\r') {
            lineLength--;
        }
        int after = Math.max(0, b.length - (line[1] + 1));
        int lines = 0;
        for (int i = line[1] + 1; i < b.length; i++) {
            if (b[i] == '\n') {
                lines++;
            }
        }
        switch (status) {
            case 414 -> {
                if (lineLength <= lim.maxRequestLine()) {
                    throw new AssertionError("414 for a request line of " + lineLength + " bytes");
                }
            }
            case 431 -> {
                if (after + 2 <= lim.maxHeaderSize() && lines <= lim.maxHeaders()) {
                    throw new AssertionError("431 for " + after + " bytes in " + lines + " lines after the request line");
                }
            }
            case 413 -> {
                if (largestContentLength(b, line[1] + 1) <= lim.maxBody()) {
                    throw new AssertionError("413 without a Content-Length over " + lim.maxBody());
                }
            }
            default -> {
            }
        }
    }

    /** The largest Content-Length value (plain digits, trimmed) among the lines from {@code from}, or -1. */
    private static long largestContentLength(byte[] b, int from) {
        long largest = -1;
        String rest = str(b, Math.min(from, b.length), b.length);
        for (String line : rest.split("\r?\n", -1)) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("content-length")) {
                String value = line.substring(colon + 1).strip();
                if (value.matches("[0-9]{1,18}")) {
                    largest = Math.max(largest, Long.parseLong(value));
                }
            }
        }
        return largest;
    }
}
