package dev.brisk.internal.web;

import dev.brisk.internal.http.Ascii;
import java.nio.charset.StandardCharsets;

/**
 * A redirect's target made a valid {@code Location} value (a URI reference, RFC 9110 section 10.2.2).
 * A handler usually builds it from text ({@code "/search?q=" + term}), so what a URI may not hold is
 * percent-encoded as UTF-8: any non-ASCII character, a space, and {@code " < > \ ^ ` { | }}; a
 * {@code %} that does not start an escape becomes {@code %25}. What is already encoded stays as it is,
 * and so do the URI's delimiters ({@code / ? # & = :} ...), so a target that is a valid URI comes out
 * unchanged. A control character (CR, LF, NUL, ...) or an unpaired surrogate is refused: no encoding
 * can say what it was meant to be, and it is the mark of a header-injection attempt.
 */
final class RedirectLocation {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private RedirectLocation() {
    }

    /**
     * {@return {@code target} as a {@code Location} value}
     *
     * @throws IllegalArgumentException when it is null or holds a control character or an unpaired surrogate
     */
    static String of(String target) {
        if (target == null) {
            throw new IllegalArgumentException("redirect location must not be null");
        }
        int n = target.length();
        int i = 0;
        while (i < n && plain(target, i)) {
            i++;
        }
        if (i == n) {
            return target; // the usual case: nothing to encode, nothing copied
        }
        StringBuilder sb = new StringBuilder(n + 16).append(target, 0, i);
        while (i < n) {
            char c = target.charAt(i);
            if (plain(target, i)) {
                sb.append(c);
                i++;
                continue;
            }
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("redirect location contains a control character (CR, LF, ...)");
            }
            int end = i + 1;
            if (Character.isHighSurrogate(c) && end < n && Character.isLowSurrogate(target.charAt(end))) {
                end++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("redirect location contains an unpaired surrogate");
            }
            for (byte b : target.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                sb.append('%').append(HEX[(b >> 4) & 15]).append(HEX[b & 15]);
            }
            i = end;
        }
        return sb.toString();
    }

    /** Whether the char at {@code i} goes into the value as it is. */
    private static boolean plain(String s, int i) {
        char c = s.charAt(i);
        if (c == '%') {
            return i + 2 < s.length() && Ascii.isHexDigit(s.charAt(i + 1)) && Ascii.isHexDigit(s.charAt(i + 2));
        }
        return c > 0x20 && c < 0x7f && "\"<>\\^`{|}".indexOf(c) < 0;
    }
}
