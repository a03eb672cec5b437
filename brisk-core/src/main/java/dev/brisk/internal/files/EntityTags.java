package dev.brisk.internal.files;

/**
 * Entity-tag lists as {@code If-Match} and {@code If-None-Match} carry them (RFC 9110 section 8.8.3):
 * {@code *}, or tags such as {@code "abc"} and {@code W/"abc"} separated by commas. A malformed member
 * matches nothing. Stateless.
 */
public final class EntityTags {
    private EntityTags() {
    }

    /**
     * Whether {@code list} names {@code etag}.
     *
     * @param list the header's value
     * @param etag the current tag, quoted, maybe {@code W/}; null when the resource has none
     * @param strong strong comparison ({@code If-Match}, {@code If-Range}: weak tags never match) or weak
     *     ({@code If-None-Match}: the opaque parts are compared)
     */
    public static boolean matches(String list, String etag, boolean strong) {
        if (list == null) {
            return false;
        }
        if (list.trim().equals("*")) {
            return true; // the resource exists: it is being served
        }
        if (etag == null) {
            return false;
        }
        boolean currentWeak = etag.startsWith("W/");
        if (strong && currentWeak) {
            return false;
        }
        String opaque = currentWeak ? etag.substring(2) : etag;
        int n = list.length();
        int i = 0;
        while (i < n) {
            char c = list.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
                continue;
            }
            boolean weak = false;
            if (c == 'W' && i + 1 < n && list.charAt(i + 1) == '/') {
                weak = true;
                i += 2;
            }
            if (i >= n || list.charAt(i) != '"') {
                // malformed member: skip to the next comma
                int comma = list.indexOf(',', i);
                i = comma < 0 ? n : comma + 1;
                continue;
            }
            int close = list.indexOf('"', i + 1);
            if (close < 0) {
                return false;
            }
            boolean same = (!strong || !weak) && list.regionMatches(i, opaque, 0, opaque.length())
                    && close + 1 - i == opaque.length();
            i = close + 1;
            while (i < n && (list.charAt(i) == ' ' || list.charAt(i) == '\t')) {
                i++;
            }
            if (i < n && list.charAt(i) != ',') {
                // more after the tag ("tag" junk): a malformed member, whatever its tag
                int comma = list.indexOf(',', i);
                i = comma < 0 ? n : comma + 1;
                continue;
            }
            if (same) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code tag} is one entity tag: {@code "opaque"} or {@code W/"opaque"}, the opaque part of
     * {@code !}, {@code #}-{@code ~} and obs-text (no quote, no control, no space).
     */
    public static boolean isTag(String tag) {
        if (tag == null) {
            return false;
        }
        int start = tag.startsWith("W/") ? 2 : 0;
        int n = tag.length();
        if (n - start < 2 || tag.charAt(start) != '"' || tag.charAt(n - 1) != '"') {
            return false;
        }
        for (int i = start + 1; i < n - 1; i++) {
            char c = tag.charAt(i);
            if (!(c == 0x21 || (c >= 0x23 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF))) {
                return false;
            }
        }
        return true;
    }

    /** {@return the tag of a representation of {@code length} bytes last modified at {@code modifiedMillis}} */
    public static String of(long modifiedMillis, long length, String suffix) {
        return "\"" + Long.toHexString(modifiedMillis) + "-" + Long.toHexString(length) + suffix + "\"";
    }
}
