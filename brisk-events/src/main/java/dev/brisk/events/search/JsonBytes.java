package dev.brisk.events.search;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte buffer with the few JSON writers the search responses need; no reflection. */
final class JsonBytes {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf;
    private int len;

    JsonBytes(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    JsonBytes raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
        return this;
    }

    /** ASCII text known not to need escaping (field names, numbers, dates, UUIDs). */
    JsonBytes ascii(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    JsonBytes ch(char c) {
        ensure(1);
        buf[len++] = (byte) c;
        return this;
    }

    /** Two digits, zero-padded. */
    JsonBytes two(int v) {
        ensure(2);
        buf[len++] = (byte) ('0' + v / 10);
        buf[len++] = (byte) ('0' + v % 10);
        return this;
    }

    /** A JSON string: quotes, escapes for {@code "}, {@code \} and control characters, UTF-8. */
    JsonBytes string(String s) {
        ensure(s.length() * 3 + 2);
        buf[len++] = '"';
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                ensure(2 + (s.length() - i) * 3);
                buf[len++] = '\\';
                buf[len++] = (byte) c;
            } else if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                // control characters must be escaped; U+2028/9 too, so the JSON is also valid JavaScript
                ensure(6 + (s.length() - i) * 3);
                buf[len++] = '\\';
                buf[len++] = 'u';
                buf[len++] = HEX[(c >> 12) & 0xF];
                buf[len++] = HEX[(c >> 8) & 0xF];
                buf[len++] = HEX[(c >> 4) & 0xF];
                buf[len++] = HEX[c & 0xF];
            } else if (c < 0x80) {
                buf[len++] = (byte) c;
            } else if (c < 0x800) {
                buf[len++] = (byte) (0xC0 | (c >> 6));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buf[len++] = (byte) (0xF0 | (cp >> 18));
                buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                // a lone surrogate cannot be encoded in UTF-8: the replacement character stands in
                buf[len++] = (byte) 0xEF;
                buf[len++] = (byte) 0xBF;
                buf[len++] = (byte) 0xBD;
            } else {
                buf[len++] = (byte) (0xE0 | (c >> 12));
                buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        buf[len++] = '"';
        return this;
    }

    int length() {
        return len;
    }

    /** The bytes written; the buffer itself when exactly full (a presized page is not copied twice). */
    byte[] toBytes() {
        return len == buf.length ? buf : Arrays.copyOf(buf, len);
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
