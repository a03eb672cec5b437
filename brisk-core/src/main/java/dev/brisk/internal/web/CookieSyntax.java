package dev.brisk.internal.web;

/**
 * The RFC 6265 grammar that both sides of cookies share: {@code Cookie.Builder} checks what an app
 * sets against it, {@link Cookies} what a request sends; with the attribute checks and the quoting of
 * refused text in error messages. Stateless; only {@link #quote} allocates.
 */
public final class CookieSyntax {
    private CookieSyntax() {
    }

    /** Whether {@code c} is a tchar (RFC 9110): what RFC 6265's cookie-name token is made of. */
    public static boolean isTokenChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || (c < 128 && "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
    }

    /** Whether {@code c} is a cookie-octet: printable ASCII but space, {@code "}, {@code ,}, {@code ;} and {@code \}. */
    public static boolean isCookieOctet(char c) {
        return c > 0x20 && c < 0x7f && c != '"' && c != ',' && c != ';' && c != '\\';
    }

    /** Whether {@code s[from, to)} is a non-empty token. */
    public static boolean isToken(CharSequence s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!isTokenChar(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code s[from, to)} is a cookie-value: cookie-octets, or cookie-octets in one pair of
     * double quotes (empty allowed).
     */
    public static boolean isCookieValue(CharSequence s, int from, int to) {
        if (to - from >= 2 && s.charAt(from) == '"' && s.charAt(to - 1) == '"') {
            from++;
            to--;
        }
        for (int i = from; i < to; i++) {
            if (!isCookieOctet(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code p} may be a {@code Path} attribute: starting with {@code /}, printable ASCII but
     * {@code ;}, at most {@code max} characters.
     */
    public static boolean isPath(String p, int max) {
        if (!p.startsWith("/") || p.length() > max) {
            return false;
        }
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == ';') {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code d} may be a {@code Domain} attribute: a host name of ASCII letters, digits and
     * {@code -} in labels of 1 to 63 characters, joined by dots (a leading dot allowed), at most
     * {@code max} characters.
     */
    public static boolean isDomain(String d, int max) {
        int from = d.startsWith(".") ? 1 : 0;
        if (d.length() > max || from == d.length()) {
            return false;
        }
        int labelStart = from;
        for (int i = from; i <= d.length(); i++) {
            char c = i < d.length() ? d.charAt(i) : '.';
            if (c == '.') {
                int len = i - labelStart;
                if (len == 0 || len > 63 || d.charAt(labelStart) == '-' || d.charAt(i - 1) == '-') {
                    return false;
                }
                labelStart = i + 1;
            } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** Quotes {@code s} for an error message: control characters escaped, cut at 64 characters. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        int n = Math.min(s.length(), 64);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\x%02x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append(s.length() > n ? "\"..." : "\"").toString();
    }
}
