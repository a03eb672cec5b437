package dev.brisk.internal.files;

import java.util.Arrays;

/**
 * Parses a {@code Range} header (RFC 9110 section 14.2) against a representation's length, into the
 * byte ranges to send, sorted and coalesced (overlapping or adjacent ranges become one). Hostile input
 * costs little: at most {@link #MAX_SPECS} range specs are read, and a set still above the mount's
 * limit after coalescing is ignored (the whole representation is sent, as the RFC allows), so no
 * request can make the server build thousands of parts. Stateless.
 */
public final class ByteRanges {
    /** The most range specs read from one header; more and the header is ignored. */
    static final int MAX_SPECS = 1000;

    /** The outcome when the header is to be ignored: send the whole representation ({@code 200}). */
    public static final long[] IGNORE = new long[0];
    /** The outcome when no range is satisfiable: {@code 416} with {@code Content-Range: bytes *}{@code /length}. */
    public static final long[] UNSATISFIABLE = new long[0];

    private ByteRanges() {
    }

    /**
     * The ranges of {@code header} over {@code length} bytes.
     *
     * @param header the {@code Range} value
     * @param length the representation's length
     * @param maxRanges the most ranges (after coalescing) served as parts; more: {@link #IGNORE}
     * @return {@link #IGNORE} (malformed, another unit, an empty representation, too many ranges),
     *     {@link #UNSATISFIABLE}, or first, last, first, last... (inclusive), ascending and disjoint
     */
    public static long[] parse(String header, long length, int maxRanges) {
        if (header == null || length <= 0) {
            return IGNORE; // an empty representation has no range to send
        }
        int n = header.length();
        int i = skipSpaces(header, 0);
        if (!header.regionMatches(true, i, "bytes", 0, 5)) {
            return IGNORE;
        }
        i = skipSpaces(header, i + 5);
        if (i >= n || header.charAt(i) != '=') {
            return IGNORE;
        }
        i++;
        long[] ranges = new long[8];
        int count = 0;
        int specs = 0;
        while (i <= n) {
            int end = header.indexOf(',', i);
            if (end < 0) {
                end = n;
            }
            int from = skipSpaces(header, i);
            int to = end;
            while (to > from && isSpace(header.charAt(to - 1))) {
                to--;
            }
            if (to > from) { // an empty list element is allowed and means nothing
                if (++specs > MAX_SPECS) {
                    return IGNORE;
                }
                int dash = header.indexOf('-', from);
                if (dash < 0 || dash >= to) {
                    return IGNORE;
                }
                long first;
                long last;
                if (dash == from) { // suffix: the last N bytes
                    long suffix = number(header, dash + 1, to);
                    if (suffix < 0) {
                        return IGNORE;
                    }
                    if (suffix == 0) {
                        first = -1; // unsatisfiable
                        last = -1;
                    } else {
                        first = Math.max(0, length - suffix);
                        last = length - 1;
                    }
                } else {
                    first = number(header, from, dash);
                    if (first < 0) {
                        return IGNORE;
                    }
                    if (dash + 1 == to) {
                        last = length - 1;
                    } else {
                        last = number(header, dash + 1, to);
                        if (last < 0 || last < first
                                || last == Long.MAX_VALUE && first == Long.MAX_VALUE
                                && decimalLess(header, dash + 1, to, from, dash)) {
                            return IGNORE; // invalid (14.1.1), however large the numbers
                        }
                        last = Math.min(last, length - 1);
                    }
                    if (first >= length) {
                        first = -1; // unsatisfiable
                    }
                }
                if (first >= 0) {
                    if (count * 2 == ranges.length) {
                        ranges = Arrays.copyOf(ranges, ranges.length * 2);
                    }
                    ranges[count * 2] = first;
                    ranges[count * 2 + 1] = last;
                    count++;
                }
            }
            i = end + 1;
        }
        if (specs == 0) {
            return IGNORE;
        }
        if (count == 0) {
            return UNSATISFIABLE;
        }
        long[] merged = coalesce(ranges, count);
        return merged.length / 2 > maxRanges ? IGNORE : merged;
    }

    /** Sorts the {@code count} ranges by start and merges those that overlap or touch. */
    private static long[] coalesce(long[] ranges, int count) {
        if (count == 1) {
            return Arrays.copyOf(ranges, 2);
        }
        Integer[] order = new Integer[count];
        for (int k = 0; k < count; k++) {
            order[k] = k;
        }
        long[] r = ranges;
        Arrays.sort(order, (a, b) -> Long.compare(r[a * 2], r[b * 2]));
        long[] out = new long[count * 2];
        int m = 0;
        for (int k = 0; k < count; k++) {
            long first = r[order[k] * 2];
            long last = r[order[k] * 2 + 1];
            if (m > 0 && first <= out[m * 2 - 1] + 1) {
                out[m * 2 - 1] = Math.max(out[m * 2 - 1], last);
            } else {
                out[m * 2] = first;
                out[m * 2 + 1] = last;
                m++;
            }
        }
        return Arrays.copyOf(out, m * 2);
    }

    /** The decimal number in {@code s[from, to)}; -1 when it is not one; a huge one saturates. */
    private static long number(String s, int from, int to) {
        if (from >= to) {
            return -1;
        }
        long v = 0;
        for (int k = from; k < to; k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v > (Long.MAX_VALUE - 9) / 10 ? Long.MAX_VALUE : v * 10 + (c - '0');
        }
        return v;
    }

    /** Whether the decimal digits {@code s[a, aEnd)} are a smaller number than {@code s[b, bEnd)}. */
    private static boolean decimalLess(String s, int a, int aEnd, int b, int bEnd) {
        while (a < aEnd - 1 && s.charAt(a) == '0') {
            a++;
        }
        while (b < bEnd - 1 && s.charAt(b) == '0') {
            b++;
        }
        if (aEnd - a != bEnd - b) {
            return aEnd - a < bEnd - b;
        }
        return s.substring(a, aEnd).compareTo(s.substring(b, bEnd)) < 0;
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && isSpace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }
}
