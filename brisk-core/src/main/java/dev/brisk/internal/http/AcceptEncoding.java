package dev.brisk.internal.http;

/**
 * Reads {@code Accept-Encoding} (RFC 9110 section 12.5.3): which content codings a client takes and
 * how much it prefers each, by q-value. A coding the header names gets its own q; one it does not name
 * gets the q of {@code *}, else none. No header at all means "no preference": the server then sends no
 * coding (what clients without the header expect). Parsed in place, without allocating. Stateless.
 */
public final class AcceptEncoding {
    private AcceptEncoding() {
    }

    /**
     * The q-value, in thousandths, that {@code header} gives {@code coding}: 0 when not acceptable.
     * {@code identity} is acceptable unless excluded ({@code identity;q=0}, or {@code *;q=0} without an
     * entry of its own). A malformed q counts as 0 for its entry.
     *
     * @param header the header's value, or null
     * @param coding a coding name in lower case, such as {@code gzip}
     */
    public static int q(String header, String coding) {
        boolean identity = coding.equals("identity");
        if (header == null) {
            return identity ? 1000 : 0;
        }
        int own = -1;
        int star = -1;
        int n = header.length();
        int i = 0;
        while (i < n) {
            int end = header.indexOf(',', i);
            if (end < 0) {
                end = n;
            }
            int from = skipSpaces(header, i, end);
            int semi = header.indexOf(';', from);
            int nameEnd = semi < 0 || semi > end ? end : semi;
            int to = nameEnd;
            while (to > from && (header.charAt(to - 1) == ' ' || header.charAt(to - 1) == '\t')) {
                to--;
            }
            int len = to - from;
            boolean isOwn = len == coding.length() && header.regionMatches(true, from, coding, 0, len);
            boolean isStar = len == 1 && header.charAt(from) == '*';
            // "x-gzip" is gzip (RFC 9110 section 8.4.1.3)
            boolean isAlias = !isOwn && coding.equals("gzip") && len == 6 && header.regionMatches(true, from, "x-gzip", 0, 6);
            if (isOwn || isStar || isAlias) {
                int q = nameEnd < end ? qParam(header, nameEnd + 1, end) : 1000;
                if (isOwn || isAlias) {
                    own = Math.max(own, q);
                } else {
                    star = Math.max(star, q);
                }
            }
            i = end + 1;
        }
        if (own >= 0) {
            return own;
        }
        if (star >= 0) {
            return star;
        }
        return identity ? 1000 : 0;
    }

    /**
     * The acceptable coding the client prefers most among {@code offered} (earlier ones win ties: list
     * the server's preference first), or null when none is acceptable or the header is absent.
     */
    public static String choose(String header, String... offered) {
        if (header == null) {
            return null;
        }
        String best = null;
        int bestQ = 0;
        for (String c : offered) {
            int q = q(header, c);
            if (q > bestQ) {
                best = c;
                bestQ = q;
            }
        }
        return best;
    }

    /** The q parameter among the parameters in {@code s[from, end)}: thousandths; 1000 when absent; 0 when malformed. */
    private static int qParam(String s, int from, int end) {
        int i = from;
        while (i < end) {
            int semi = s.indexOf(';', i);
            int pEnd = semi < 0 || semi > end ? end : semi;
            int p = skipSpaces(s, i, pEnd);
            if (p + 1 < pEnd && (s.charAt(p) == 'q' || s.charAt(p) == 'Q') && s.charAt(p + 1) == '=') {
                return qValue(s, p + 2, pEnd);
            }
            i = pEnd + 1;
        }
        return 1000;
    }

    /** {@code qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )} in thousandths; 0 when malformed. */
    private static int qValue(String s, int from, int end) {
        int to = end;
        while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
            to--;
        }
        if (from >= to) {
            return 0;
        }
        char first = s.charAt(from);
        if (first != '0' && first != '1') {
            return 0;
        }
        int v = (first - '0') * 1000;
        if (from + 1 == to) {
            return v;
        }
        if (s.charAt(from + 1) != '.' || to - (from + 2) > 3) {
            return 0;
        }
        int scale = 100;
        for (int k = from + 2; k < to; k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '9') {
                return 0;
            }
            v += (c - '0') * scale;
            scale /= 10;
        }
        return Math.min(v, 1000) == v ? v : 0; // "1.5" is no q-value
    }

    private static int skipSpaces(String s, int i, int end) {
        while (i < end && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
