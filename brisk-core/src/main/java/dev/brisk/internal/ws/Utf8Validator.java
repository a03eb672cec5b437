package dev.brisk.internal.ws;

/**
 * Checks that bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF) as they arrive, piece by piece: a message's text may be split across frames and reads
 * anywhere, even inside a character, and an invalid byte is reported in the piece that holds it, so a
 * connection can fail at once rather than after the whole message.
 *
 * <p>State: the continuation bytes the current character still needs, and the range the next one
 * must fall in (narrower than 80..BF right after E0, ED, F0 and F4). One per connection; one thread.
 */
final class Utf8Validator {
    private int need;
    private int lo = 0x80;
    private int hi = 0xBF;

    /** Feeds {@code a[off..off+len)}; false at the first byte that cannot be part of valid UTF-8. */
    boolean feed(byte[] a, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            if (need == 0) {
                // the common case: a run of ASCII
                while (i < end && a[i] >= 0) {
                    i++;
                }
                if (i == end) {
                    return true;
                }
                int b = a[i++] & 0xFF;
                if (b < 0xC2) {
                    return false; // a stray continuation byte, or the start of an overlong 2-byte form
                } else if (b < 0xE0) {
                    need = 1;
                } else if (b < 0xF0) {
                    need = 2;
                    lo = b == 0xE0 ? 0xA0 : 0x80; // E0 80..9F would be overlong
                    hi = b == 0xED ? 0x9F : 0xBF; // ED A0..BF would be a surrogate
                } else if (b < 0xF5) {
                    need = 3;
                    lo = b == 0xF0 ? 0x90 : 0x80; // F0 80..8F would be overlong
                    hi = b == 0xF4 ? 0x8F : 0xBF; // F4 90.. would be above U+10FFFF
                } else {
                    return false;
                }
            } else {
                int b = a[i++] & 0xFF;
                if (b < lo || b > hi) {
                    return false;
                }
                need--;
                lo = 0x80;
                hi = 0xBF;
            }
        }
        return true;
    }

    /** Whether the bytes fed so far end on a character boundary. */
    boolean complete() {
        return need == 0;
    }

    void reset() {
        need = 0;
        lo = 0x80;
        hi = 0xBF;
    }

    /** Whether {@code a[off..off+len)} alone is valid UTF-8. */
    static boolean valid(byte[] a, int off, int len) {
        Utf8Validator v = new Utf8Validator();
        return v.feed(a, off, len) && v.complete();
    }
}
