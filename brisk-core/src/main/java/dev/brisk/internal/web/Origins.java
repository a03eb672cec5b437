package dev.brisk.internal.web;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The origins a CORS policy allows: exact origins and patterns, matched against a request's
 * {@code Origin} header in its serialized form ({@code scheme://host[:port]}, lower case, no default
 * port, no path), as browsers send it.
 *
 * <p>Matching parses the request's origin strictly and compares its parts; it never searches for a
 * substring, so {@code https://example.com.evil.org}, {@code https://evilexample.com},
 * {@code https://a.example.com@evil.org} or {@code https://a.example.com.} match no pattern for
 * {@code https://*.example.com}. The {@code null} origin (sent by sandboxed frames, {@code file:} pages
 * and some redirects, so anyone can send it) can be neither configured nor matched.
 *
 * <p>Patterns: {@code scheme://*.domain} (one or more labels before {@code domain}, which must have a
 * dot or be {@code localhost}: {@code https://*.com} is refused), and/or a port {@code *} (any port,
 * or none): {@code http://localhost:*}. Immutable and thread-safe once built.
 */
public final class Origins {
    private static final int MAX_ORIGIN_LENGTH = 2048;

    /** A pattern: host is the exact host, or the suffix after {@code *.} when {@code anyLabels}. */
    private record Pattern(String scheme, String host, boolean anyLabels, int port, boolean anyPort) {
        boolean matches(Parsed o) {
            if (!scheme.equals(o.scheme) || !(anyPort || port == o.port)) {
                return false;
            }
            if (!anyLabels) {
                return host.equals(o.host);
            }
            // o.host's labels are all well-formed: what precedes ".suffix" is one or more whole labels
            int cut = o.host.length() - host.length() - 1;
            return cut > 0 && o.host.charAt(cut) == '.' && o.host.endsWith(host);
        }
    }

    /** A serialized origin's parts; port -1 when it has none (the scheme's default). */
    private record Parsed(String scheme, String host, int port) {
    }

    private final Set<String> exact;
    private final List<Pattern> patterns;

    private Origins(Set<String> exact, List<Pattern> patterns) {
        this.exact = exact;
        this.patterns = patterns;
    }

    /**
     * The allowed origins.
     *
     * @param exact origins, each checked and normalized by {@link #normalize}
     * @param patterns patterns, each checked by {@link #checkPattern}
     * @return the matcher
     */
    public static Origins of(List<String> exact, List<String> patterns) {
        return new Origins(Set.copyOf(exact.stream().map(Origins::normalize).toList()),
                patterns.stream().map(Origins::pattern).toList());
    }

    /**
     * Whether {@code origin}, a request's {@code Origin} value, is allowed: equal to an exact origin,
     * or a well-formed serialized origin a pattern matches.
     *
     * @param origin the header's value; null or anything malformed is not allowed
     * @return whether it is allowed
     */
    public boolean allows(String origin) {
        if (origin == null) {
            return false;
        }
        if (exact.contains(origin)) {
            return true;
        }
        if (patterns.isEmpty()) {
            return false;
        }
        Parsed p = parse(origin);
        if (p == null) {
            return false;
        }
        for (Pattern pattern : patterns) {
            if (pattern.matches(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * An origin as configured, in the serialized form a browser sends: lower case, no default port.
     *
     * @param origin such as {@code https://example.com} or {@code http://localhost:8080}
     * @return the normalized origin
     * @throws IllegalArgumentException when {@code origin} is not {@code scheme://host[:port]} (a path,
     *     even a lone {@code /}, a query, user info or a wildcard are refused), or is {@code null} or
     *     {@code *}
     */
    public static String normalize(String origin) {
        if (origin == null || origin.equals("*")) {
            throw new IllegalArgumentException("an origin must be scheme://host[:port]; allow every origin with "
                    + "allowAnyOrigin(): " + origin);
        }
        if (origin.equalsIgnoreCase("null")) {
            throw new IllegalArgumentException("the origin \"null\" cannot be allowed: sandboxed frames, file: pages "
                    + "and redirects send it, so any site can");
        }
        Parsed p = parse(dropDefaultPort(origin.toLowerCase(Locale.ROOT)));
        if (p == null) {
            throw new IllegalArgumentException("an origin must be scheme://host[:port], without a path or a "
                    + "trailing '/': " + origin);
        }
        return serialize(p);
    }

    /**
     * Checks a pattern as configured.
     *
     * @param pattern such as {@code https://*.example.com} or {@code http://localhost:*}
     * @throws IllegalArgumentException when it is not a pattern of the forms above
     */
    public static void checkPattern(String pattern) {
        pattern(pattern);
    }

    private static Pattern pattern(String pattern) {
        String p = pattern == null ? "" : pattern.toLowerCase(Locale.ROOT);
        int sep = p.indexOf("://");
        boolean anyLabels = sep > 0 && p.startsWith("*.", sep + 3);
        boolean anyPort = p.endsWith(":*");
        String sample = p;
        if (anyPort) {
            sample = sample.substring(0, sample.length() - 2);
        }
        if (anyLabels) {
            sample = sample.substring(0, sep + 3) + "x." + sample.substring(sep + 5);
        }
        Parsed s = (anyLabels || anyPort) && sample.indexOf('*') < 0 ? parse(dropDefaultPort(sample)) : null;
        if (s == null) {
            throw new IllegalArgumentException("an origin pattern must be scheme://*.domain, scheme://host:* or "
                    + "scheme://*.domain:* (use allowOrigin for an exact origin): " + pattern);
        }
        if (!anyLabels) {
            return new Pattern(s.scheme, s.host, false, s.port, true);
        }
        String suffix = s.host.substring(2);
        if (suffix.indexOf('.') < 0 && !suffix.equals("localhost") || suffix.startsWith("[")) {
            throw new IllegalArgumentException("an origin pattern's domain needs a dot (or is localhost): " + pattern);
        }
        if (suffix.substring(suffix.lastIndexOf('.') + 1).chars().allMatch(c -> c >= '0' && c <= '9')) {
            // *.0.0.1 is the end of IPv4 addresses (127.0.0.1, 10.0.0.1, ...), not a domain: no names end in digits
            throw new IllegalArgumentException("an origin pattern's domain must be a name, not the end of an IP address: "
                    + pattern);
        }
        return new Pattern(s.scheme, suffix, true, s.port, anyPort);
    }

    /** {@code o} without {@code :80} for http/ws or {@code :443} for https/wss. */
    private static String dropDefaultPort(String o) {
        for (String[] d : new String[][] {{"http://", ":80"}, {"ws://", ":80"}, {"https://", ":443"}, {"wss://", ":443"}}) {
            if (o.startsWith(d[0]) && o.endsWith(d[1]) && o.indexOf(':', d[0].length()) == o.length() - d[1].length()) {
                return o.substring(0, o.length() - d[1].length());
            }
        }
        return o;
    }

    private static String serialize(Parsed p) {
        return p.scheme + "://" + p.host + (p.port < 0 ? "" : ":" + p.port);
    }

    /**
     * The parts of {@code s} when it is a serialized origin exactly (lower case; a port only when not
     * the scheme's default, without leading zeros), else null.
     */
    private static Parsed parse(String s) {
        int n = s.length();
        if (n > MAX_ORIGIN_LENGTH) {
            return null;
        }
        int i = 0;
        while (i < n && (isLower(s.charAt(i)) || (i > 0 && (isDigit(s.charAt(i)) || "+-.".indexOf(s.charAt(i)) >= 0)))) {
            i++;
        }
        if (i == 0 || !s.startsWith("://", i)) {
            return null;
        }
        String scheme = s.substring(0, i);
        int hs = i + 3;
        int he = hostEnd(s, hs);
        if (he < 0) {
            return null;
        }
        String host = s.substring(hs, he);
        int port = -1;
        if (he < n) {
            if (s.charAt(he) != ':' || he + 1 == n || n - he - 1 > 5 || s.charAt(he + 1) == '0') {
                return null;
            }
            port = 0;
            for (int k = he + 1; k < n; k++) {
                char c = s.charAt(k);
                if (!isDigit(c)) {
                    return null;
                }
                port = port * 10 + (c - '0');
            }
            boolean isDefault = port == 80 && (scheme.equals("http") || scheme.equals("ws"))
                    || port == 443 && (scheme.equals("https") || scheme.equals("wss"));
            if (port > 65535 || isDefault) {
                return null;
            }
        }
        return new Parsed(scheme, host, port);
    }

    /** Where the host starting at {@code hs} ends: a bracketed IPv6 literal or dot-separated labels; -1 when malformed. */
    private static int hostEnd(String s, int hs) {
        int n = s.length();
        if (hs < n && s.charAt(hs) == '[') {
            int close = s.indexOf(']', hs);
            if (close < hs + 3) {
                return -1;
            }
            for (int k = hs + 1; k < close; k++) {
                char c = s.charAt(k);
                if (!(isDigit(c) || (c >= 'a' && c <= 'f') || c == ':' || c == '.')) {
                    return -1;
                }
            }
            return close + 1;
        }
        int i = hs;
        int labelStart = hs;
        while (i <= n) {
            char c = i < n ? s.charAt(i) : ':';
            if (c == '.' || c == ':') {
                int len = i - labelStart;
                if (len == 0 || len > 63 || s.charAt(labelStart) == '-' || s.charAt(i - 1) == '-') {
                    return -1;
                }
                if (c == ':') {
                    return i;
                }
                labelStart = i + 1;
            } else if (!(isLower(c) || isDigit(c) || c == '-')) {
                return -1;
            }
            i++;
        }
        return -1; // not reached: the loop ends at the virtual ':' past the end
    }

    private static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
