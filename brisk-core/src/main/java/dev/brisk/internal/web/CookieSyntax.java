package dev.brisk.internal.web;

/**
 * The RFC 6265 grammar that both sides of cookies share: {@code Cookie.Builder} checks what an app
 * sets against it, {@link Cookies} what a request sends. Stateless; never allocates.
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
}
