package dev.brisk.internal.web;

import dev.brisk.internal.http.Ascii;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request ids: which incoming {@code X-Request-Id} values are kept, and cheap new ones.
 *
 * <p>An incoming id is kept only when it is 1 to {@value #MAX_LENGTH} characters, each a letter, a
 * digit or one of {@code - _ . : / + = @}; anything else (spaces, quotes, control characters, non-ASCII,
 * too long) is replaced, never echoed or logged, so a client cannot inject headers or log fields.
 *
 * <p>A generated id is a random per-process prefix and a per-process counter, both in hex
 * ({@code 5f0c2a9e1b7d-2a}): unique within the process, and unlikely to repeat another process's ids
 * (48 random bits each). Generating one costs a counter increment and a short string; no
 * {@code SecureRandom} or UUID per request. Thread-safe.
 */
public final class RequestIds {
    /** The header carrying a request id, in both directions. */
    public static final String HEADER = "X-Request-Id";
    public static final int MAX_LENGTH = 128;

    private static final String HEADER_LOWER = "x-request-id";
    private static final boolean[] SAFE = new boolean[128];
    private static final String PREFIX;
    private static final AtomicLong COUNTER = new AtomicLong();

    static {
        for (int c = '0'; c <= '9'; c++) {
            SAFE[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            SAFE[c] = true;
            SAFE[c - 32] = true;
        }
        for (char c : "-_.:/+=@".toCharArray()) {
            SAFE[c] = true;
        }
        // once per process: 48 bits are plenty to tell restarts and replicas apart
        long random = new SecureRandom().nextLong() & 0xffff_ffff_ffffL;
        PREFIX = String.format("%012x-", random);
    }

    private RequestIds() {
    }

    /** A new id. Any thread. */
    public static String generate() {
        return PREFIX + Long.toHexString(COUNTER.incrementAndGet());
    }

    /** Whether {@code id} may be kept as this request's id (and so echoed and logged as it is). */
    public static boolean isValid(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c >= 128 || !SAFE[c]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first {@code X-Request-Id} of a request head when it is valid, else null (no string is made
     * for an invalid one).
     *
     * @param head the bytes the parser read
     * @param base where the request starts in {@code head}: the field offsets are relative to it
     * @param fields the parser's field offsets, four per field (name start, name end, value start, value end)
     */
    public static String incoming(byte[] head, int base, int[] fields, int fieldCount) {
        for (int i = 0; i < fieldCount; i++) {
            int ns = base + fields[i * 4];
            int ne = base + fields[i * 4 + 1];
            if (Ascii.equalsIgnoreCase(head, ns, ne - ns, HEADER_LOWER)) {
                int vs = base + fields[i * 4 + 2];
                int ve = base + fields[i * 4 + 3];
                return validBytes(head, vs, ve) ? Ascii.latin1(head, vs, ve) : null;
            }
        }
        return null;
    }

    /** The request's valid incoming id, else a new one. */
    public static String incomingOrNew(byte[] head, int base, int[] fields, int fieldCount) {
        String id = incoming(head, base, fields, fieldCount);
        return id != null ? id : generate();
    }

    private static boolean validBytes(byte[] b, int from, int to) {
        if (to <= from || to - from > MAX_LENGTH) {
            return false;
        }
        for (int i = from; i < to; i++) {
            int c = b[i];
            if (c < 0 || !SAFE[c]) { // negative: a byte of 0x80 or above, not ASCII
                return false;
            }
        }
        return true;
    }
}
