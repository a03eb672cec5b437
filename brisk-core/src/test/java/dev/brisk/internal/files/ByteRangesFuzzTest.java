package dev.brisk.internal.files;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.internal.http.FuzzInput;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link ByteRanges} with Jazzer: {@code ./brisk fuzz --target ranges} fuzzes
 * it; the default test run (Jazzer's regression mode) runs it on the seeds of {@link #parse()} and on every
 * input kept in {@code src/test/resources/dev/brisk/internal/files/ByteRangesFuzzTestInputs/parse/}.
 *
 * <p>An input is a {@link FuzzInput}: its selector picks the representation's length ({@link #LENGTHS})
 * and the most ranges served ({@link #MAX_RANGES}); the payload is the {@code Range} value (Latin-1). The
 * outcome must be what {@link #reference} finds, reading RFC 9110 14.1–14.2 with regular expressions,
 * exact numbers and the bytes covered marked one by one: the header ignored (malformed, another unit,
 * more than {@link ByteRanges#MAX_SPECS} specs, more ranges than served), unsatisfiable, or exactly the
 * runs of covered bytes, ascending, each one range (so overlapping and adjacent ranges are merged).
 */
class ByteRangesFuzzTest {
    static final long[] LENGTHS = {1, 2, 7, 64, 1000};
    static final int[] MAX_RANGES = {1, 2, 16};

    static Stream<byte[]> parse() {
        List<byte[]> seeds = new ArrayList<>();
        for (String h : List.of("bytes=0-0", "bytes=0-", "bytes=-1", "bytes=1-2,4-5", "bytes=5-3", "bytes=0-1,1-2,3-4",
                " Bytes \t= 0-1 ,, -3", "bytes=999-", "bytes=-0", "items=0-1", "bytes=", "bytes=0-99999999999999999999")) {
            for (int s = 0; s < LENGTHS.length * MAX_RANGES.length; s += 4) {
                seeds.add(FuzzInput.encode(s, new int[0], h.getBytes(StandardCharsets.ISO_8859_1)));
            }
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    void parse(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        long length = LENGTHS[in.selector() % LENGTHS.length];
        int maxRanges = MAX_RANGES[(in.selector() / LENGTHS.length) % MAX_RANGES.length];
        String header = new String(in.payload(), StandardCharsets.ISO_8859_1);
        long[] got = ByteRanges.parse(header, length, maxRanges);
        String expected = reference(header, length, maxRanges);
        String gotText = got == ByteRanges.IGNORE ? "ignore" : got == ByteRanges.UNSATISFIABLE ? "unsatisfiable"
                : Arrays.toString(got);
        if (!gotText.equals(expected)) {
            throw new AssertionError("Range '" + header.replace("\t", "\\t") + "' over " + length + " bytes, at most "
                    + maxRanges + " ranges: " + gotText + " but the reference " + expected);
        }
    }

    private static final Pattern HEADER = Pattern.compile("[ \\t]*bytes[ \\t]*=(.*)", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern SPEC = Pattern.compile("([0-9]+)-([0-9]*)|-([0-9]+)");

    /** "ignore", "unsatisfiable", or the ranges as first, last... in {@link Arrays#toString} form. */
    static String reference(String header, long length, int maxRanges) {
        Matcher h = HEADER.matcher(header);
        if (!h.matches()) {
            return "ignore";
        }
        boolean[] covered = new boolean[(int) length];
        int specs = 0;
        boolean any = false;
        for (String element : h.group(1).split(",", -1)) {
            String e = element.replaceAll("^[ \\t]+|[ \\t]+$", "");
            if (e.isEmpty()) {
                continue; // an empty list element means nothing
            }
            if (++specs > ByteRanges.MAX_SPECS) {
                return "ignore";
            }
            Matcher m = SPEC.matcher(e);
            if (!m.matches()) {
                return "ignore";
            }
            BigInteger len = BigInteger.valueOf(length);
            BigInteger first;
            BigInteger last;
            if (m.group(3) != null) { // the last N bytes
                BigInteger n = new BigInteger(m.group(3));
                if (n.signum() == 0) {
                    continue; // unsatisfiable
                }
                first = len.subtract(n).max(BigInteger.ZERO);
                last = len.subtract(BigInteger.ONE);
            } else {
                first = new BigInteger(m.group(1));
                if (m.group(2).isEmpty()) {
                    last = len.subtract(BigInteger.ONE); // to the end
                } else {
                    last = new BigInteger(m.group(2));
                    if (last.compareTo(first) < 0) {
                        return "ignore"; // an invalid spec (14.1.1)
                    }
                }
                if (first.compareTo(len) >= 0) {
                    continue; // unsatisfiable
                }
                last = last.min(len.subtract(BigInteger.ONE));
            }
            for (int b = first.intValueExact(); b <= last.intValueExact(); b++) {
                covered[b] = true;
            }
            any = true;
        }
        if (specs == 0) {
            return "ignore";
        }
        if (!any) {
            return "unsatisfiable";
        }
        List<Long> runs = new ArrayList<>();
        for (int b = 0; b < covered.length; b++) {
            if (covered[b] && (b == 0 || !covered[b - 1])) {
                runs.add((long) b);
            }
            if (covered[b] && (b == covered.length - 1 || !covered[b + 1])) {
                runs.add((long) b);
            }
        }
        return runs.size() / 2 > maxRanges ? "ignore" : runs.toString();
    }
}
