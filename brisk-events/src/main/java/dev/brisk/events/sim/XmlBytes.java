package dev.brisk.events.sim;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Arrays;

/**
 * A growable UTF-8 byte buffer with the few writes a feed needs: markup constants, integers, prices,
 * dates and escaped attribute values. Writing digits straight into the array (no String per value)
 * is what renders a million zones in well under a second.
 */
final class XmlBytes {
    private byte[] buf;
    private int len;

    XmlBytes(int initialCapacity) {
        buf = new byte[Math.max(64, initialCapacity)];
    }

    /** Bytes of an ASCII constant, for the renderers' tables. */
    static byte[] constant(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A copy of the bytes written. */
    byte[] toByteArray() {
        return buf.length == len ? buf : Arrays.copyOf(buf, len);
    }

    /** Makes room for {@code n} more bytes. */
    void reserve(int n) {
        if (len + n > buf.length) {
            long want = Math.max((long) buf.length * 3 / 2, (long) len + n);
            if (want > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("feed larger than 2 GiB");
            }
            buf = Arrays.copyOf(buf, (int) want);
        }
    }

    XmlBytes raw(byte[] b) {
        reserve(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    /** Writes an ASCII string as is (no escaping). */
    XmlBytes ascii(CharSequence s) {
        reserve(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    XmlBytes integer(long v) {
        reserve(20);
        if (v < 0) {
            buf[len++] = '-';
            v = -v; // ids and capacities are far from Long.MIN_VALUE
        }
        int start = len;
        do {
            buf[len++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v > 0);
        reverse(start, len - 1);
        return this;
    }

    /** {@code cents} as a decimal with two places: 2000 is {@code 20.00}. */
    XmlBytes price(int cents) {
        integer(cents / 100);
        reserve(3);
        int c = cents % 100;
        buf[len++] = '.';
        buf[len++] = (byte) ('0' + c / 10);
        buf[len++] = (byte) ('0' + c % 10);
        return this;
    }

    /** {@code yyyy-MM-ddTHH:mm:ss} for years 0 to 9999. */
    XmlBytes dateTime(LocalDateTime t) {
        reserve(19);
        digits(t.getYear(), 4);
        buf[len++] = '-';
        digits(t.getMonthValue(), 2);
        buf[len++] = '-';
        digits(t.getDayOfMonth(), 2);
        buf[len++] = 'T';
        digits(t.getHour(), 2);
        buf[len++] = ':';
        digits(t.getMinute(), 2);
        buf[len++] = ':';
        digits(t.getSecond(), 2);
        return this;
    }

    XmlBytes bool(boolean b) {
        return ascii(b ? "true" : "false");
    }

    /** Writes {@code s} escaped for a double-quoted attribute value. */
    XmlBytes escaped(String s) {
        return raw(escape(s));
    }

    /**
     * {@code s} as UTF-8 for a double-quoted attribute value: {@code & < > "} become entities, tab,
     * CR and LF character references (attribute normalisation would turn them into spaces), other
     * characters XML 1.0 forbids become U+FFFD.
     */
    static byte[] escape(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\t' -> "&#9;";
                case '\n' -> "&#10;";
                case '\r' -> "&#13;";
                default -> forbidden(s, i) ? "\uFFFD" : null;
            };
            if (rep != null && sb == null) {
                sb = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (sb != null) {
                if (rep != null) {
                    sb.append(rep);
                } else {
                    sb.append(c);
                }
            }
        }
        return (sb == null ? s : sb.toString()).getBytes(StandardCharsets.UTF_8);
    }

    /** Control characters and unpaired surrogates are not allowed in XML 1.0. */
    private static boolean forbidden(String s, int i) {
        char c = s.charAt(i);
        if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }

    private void digits(int v, int width) {
        for (int i = len + width - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        len += width;
    }

    private void reverse(int i, int j) {
        while (i < j) {
            byte t = buf[i];
            buf[i++] = buf[j];
            buf[j--] = t;
        }
    }
}
