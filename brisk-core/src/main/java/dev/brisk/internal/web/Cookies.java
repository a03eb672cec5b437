package dev.brisk.internal.web;

import dev.brisk.HttpException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses request {@code Cookie} header values (RFC 6265 section 4.2) into name/value pairs. Stateless.
 *
 * <p>Strict about each pair, lenient only about whitespace: pairs are separated by {@code ;} with
 * optional spaces or tabs around a pair (RFC 6265 asks for {@code "; "}, but clients such as curl send
 * {@code ;} alone); a pair is a token name, {@code =}, and a cookie-value (cookie-octets, optionally in
 * one pair of double quotes, which are removed). A malformed pair is skipped and the others kept: no
 * {@code =}, an empty or non-token name, whitespace around {@code =}, or a value with a space, a tab,
 * a comma, a backslash, a stray quote or a non-ASCII byte. So {@code a=1, b=2} (the old comma
 * separator) yields nothing rather than a misread {@code a}. The attributes of the obsolete RFC 2965
 * syntax ({@code $Version}, {@code $Path}, {@code $Domain}, {@code $Port}), which the JDK's
 * {@code CookieManager} still sends, are skipped too: they are not cookies. Control characters other
 * than tab never get this far: the request parser refuses them in any header value with {@code 400}.
 *
 * <p>More than {@value #MAX_COOKIES} well-formed pairs (over all {@code Cookie} headers of the request)
 * is a {@code 400}: browsers send fewer than that (Chrome keeps at most 180 per domain), and the bound
 * keeps the map a request can make small whatever {@code max-header-size} is. A malformed pair costs
 * no allocation, so skipping many of them is bounded by the header's size alone.
 */
final class Cookies {
    /** The most well-formed pairs a request may send. */
    static final int MAX_COOKIES = 200;

    private Cookies() {
    }

    /**
     * The cookies in {@code headerValues}, in order, the first of a repeated name winning.
     *
     * @throws HttpException.BadRequest when there are more than {@value #MAX_COOKIES} well-formed pairs
     */
    static Map<String, String> parse(List<String> headerValues) {
        if (headerValues.isEmpty()) {
            return Map.of();
        }
        Map<String, String> m = new LinkedHashMap<>();
        int count = 0;
        for (String h : headerValues) {
            int n = h.length();
            int i = 0;
            while (i < n) {
                while (i < n && isWhitespace(h.charAt(i))) {
                    i++;
                }
                int semi = h.indexOf(';', i);
                int end = semi < 0 ? n : semi;
                int to = end;
                while (to > i && isWhitespace(h.charAt(to - 1))) {
                    to--;
                }
                int eq = h.indexOf('=', i);
                if (eq > i && eq < to && CookieSyntax.isToken(h, i, eq) && CookieSyntax.isCookieValue(h, eq + 1, to)
                        && !isRfc2965Attribute(h, i, eq)) {
                    if (++count > MAX_COOKIES) {
                        throw new HttpException.BadRequest("Too many cookies: more than " + MAX_COOKIES);
                    }
                    int vs = eq + 1;
                    int ve = to;
                    if (ve - vs >= 2 && h.charAt(vs) == '"') {
                        vs++; // isCookieValue saw both quotes
                        ve--;
                    }
                    m.putIfAbsent(h.substring(i, eq), h.substring(vs, ve));
                }
                i = end + 1;
            }
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * Whether {@code h[from, to)} is {@code $Version}, {@code $Path}, {@code $Domain} or {@code $Port}
     * (any case): attributes of the obsolete RFC 2965 syntax, which some clients still send (the JDK's
     * {@code CookieManager} for any cookie set with {@code Max-Age}), not cookies.
     */
    private static boolean isRfc2965Attribute(String h, int from, int to) {
        if (h.charAt(from) != '$') {
            return false;
        }
        int n = to - from;
        return n == 8 && h.regionMatches(true, from, "$Version", 0, 8)
                || n == 5 && (h.regionMatches(true, from, "$Path", 0, 5) || h.regionMatches(true, from, "$Port", 0, 5))
                || n == 7 && h.regionMatches(true, from, "$Domain", 0, 7);
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t';
    }
}
