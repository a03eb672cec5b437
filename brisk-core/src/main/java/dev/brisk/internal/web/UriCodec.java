package dev.brisk.internal.web;

import dev.brisk.HttpException;
import dev.brisk.internal.http.Ascii;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Percent-decoding of paths and {@code application/x-www-form-urlencoded} query strings (UTF-8). */
public final class UriCodec {
    private UriCodec() {
    }

    static final int DOT_SEGMENT = 1;
    static final int NUL = 2;
    static final int MALFORMED_ESCAPE = 3;
    static final int MALFORMED_UTF8 = 4;

    /**
     * A raw path {@code b[from, to)} a handler must never see: one with a {@code .} or
     * {@code ..} segment (a dot written as itself or {@code %2E}, segments split at {@code /} or an encoded
     * {@code %2F}, since a path parameter is decoded and may name a file), or an encoded NUL ({@code %00}).
     * Browsers and curl resolve dot segments before they send a path, so only a crafted request has one:
     * it is refused, as Jetty refuses ambiguous ones, rather than resolved to a path the client did not send.
     * A backslash (raw or {@code %5C}) splits segments too, as it does on Windows. A path that cannot
     * be decoded (a {@code %} not followed by two hex digits, escapes that are not UTF-8) is refused here
     * too, so that no handler, error handler or log line meets it later as an exception.
     *
     * @return 0 for a path a handler may see, else {@link #DOT_SEGMENT}, {@link #NUL},
     *     {@link #MALFORMED_ESCAPE} or {@link #MALFORMED_UTF8}
     */
    static int unsafePath(byte[] b, int from, int to) {
        int dots = 0;
        boolean other = false;
        boolean high = false;
        for (int i = from; i <= to; i++) {
            int c = i < to ? b[i] : '/';
            boolean escape = c == '%' && i + 2 < to && Ascii.isHexDigit(b[i + 1]) && Ascii.isHexDigit(b[i + 2]);
            if (c == '%' && !escape) {
                return MALFORMED_ESCAPE;
            }
            high |= escape && b[i + 1] >= '8';
            if (c == '/' || c == '\\' || escape && (b[i + 1] == '2' && (b[i + 2] | 0x20) == 'f'
                    || b[i + 1] == '5' && (b[i + 2] | 0x20) == 'c')) {
                if (!other && (dots == 1 || dots == 2)) {
                    return DOT_SEGMENT;
                }
                dots = 0;
                other = false;
                i += c == '%' ? 2 : 0;
            } else if (c == '.') {
                dots++;
            } else if (escape && b[i + 1] == '2' && (b[i + 2] | 0x20) == 'e') {
                dots++;
                i += 2;
            } else if (escape && b[i + 1] == '0' && b[i + 2] == '0') {
                return NUL;
            } else {
                other = true;
            }
        }
        return high && !utf8(b, from, to) ? MALFORMED_UTF8 : 0;
    }

    /**
     * Whether the bytes {@code b[from, to)} stand for, once their (well-formed) escapes are decoded, are
     * UTF-8 as the JDK's strict decoder takes it: no overlong form, no surrogate, nothing past U+10FFFF.
     * Allocates nothing: a path with non-ASCII escapes pays for it on every request.
     */
    private static boolean utf8(byte[] b, int from, int to) {
        int need = 0;
        int cp = 0;
        int min = 0;
        for (int i = from; i < to; i++) {
            int c = b[i] & 0xff;
            if (c == '%') {
                c = Character.digit(b[i + 1], 16) << 4 | Character.digit(b[i + 2], 16);
                i += 2;
            }
            if (need == 0) {
                if (c < 0x80) {
                    continue;
                } else if (c >= 0xC2 && c <= 0xDF) {
                    need = 1;
                    cp = c & 0x1F;
                    min = 0x80;
                } else if (c >= 0xE0 && c <= 0xEF) {
                    need = 2;
                    cp = c & 0x0F;
                    min = 0x800;
                } else if (c >= 0xF0 && c <= 0xF4) {
                    need = 3;
                    cp = c & 0x07;
                    min = 0x10000;
                } else {
                    return false;
                }
            } else {
                if ((c & 0xC0) != 0x80) {
                    return false;
                }
                cp = cp << 6 | (c & 0x3F);
                if (--need == 0 && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) {
                    return false;
                }
            }
        }
        return need == 0;
    }

    /**
     * Decodes {@code %XX} escapes (and {@code +} as space when {@code plusIsSpace}, a query's rule) as
     * UTF-8, strictly: bytes that are not UTF-8 are a 400, never a replacement character (as a form's).
     *
     * @throws HttpException.BadRequest on a malformed escape or bytes that are not valid UTF-8
     */
    public static String decode(String s, boolean plusIsSpace) {
        int first = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' || (plusIsSpace && c == '+')) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < first; i++) {
            out.write(s.charAt(i));
        }
        for (int i = first; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw new HttpException.BadRequest("Malformed percent-encoding");
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new HttpException.BadRequest("Malformed percent-encoding");
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else if (plusIsSpace && c == '+') {
                out.write(' ');
            } else {
                out.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new HttpException.BadRequest(plusIsSpace ? "Malformed UTF-8 in query" : "Malformed UTF-8 in path");
        }
    }

    /** Parses a query string into decoded names and values, in order. */
    public static Map<String, List<String>> parseQuery(String query) {
        if (query.isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> map = new LinkedHashMap<>();
        int from = 0;
        int n = query.length();
        while (from <= n) {
            int amp = query.indexOf('&', from);
            int end = amp < 0 ? n : amp;
            if (end > from) {
                int eq = query.indexOf('=', from);
                String name;
                String value;
                if (eq < 0 || eq > end) {
                    name = decode(query.substring(from, end), true);
                    value = "";
                } else {
                    name = decode(query.substring(from, eq), true);
                    value = decode(query.substring(eq + 1, end), true);
                }
                map.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            if (amp < 0) {
                break;
            }
            from = amp + 1;
        }
        map.replaceAll((k, v) -> Collections.unmodifiableList(v));
        return Collections.unmodifiableMap(map);
    }
}
