package dev.brisk.internal.files;

import dev.brisk.HttpException;
import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a request path under a static mount, checked and cut into segments before any file is
 * looked up. It arrives percent-decoded exactly once (by the router's wildcard), and is never decoded
 * again, so what is checked here is what names the file: {@code %2e%2e} has become {@code ..} and is
 * refused like {@code ..}; {@code %252e} has become the harmless name {@code %2e}; an encoded slash
 * ({@code %2f}) has become a separator and its segments are checked like any other; an overlong or
 * otherwise invalid UTF-8 sequence has become U+FFFD and is refused. Refused with {@code 400}: a
 * {@code .} or {@code ..} segment, a backslash, a control character, U+FFFD (and, on Windows, a colon).
 * A hidden segment (starting with a dot) is not refused but not found ({@code null}), unless hidden
 * files are served. Empty segments ({@code a//b}) are dropped. Stateless.
 */
public final class RequestPath {
    private static final boolean WINDOWS = File.separatorChar == '\\';

    /**
     * @param segments the names from the mount's root down, none empty
     * @param trailingSlash whether the path ended with {@code /} (a directory was asked for)
     */
    public record Parsed(List<String> segments, boolean trailingSlash) {
        /** {@return the last segment, or the empty string for the root} */
        public String last() {
            return segments.isEmpty() ? "" : segments.get(segments.size() - 1);
        }
    }

    private RequestPath() {
    }

    /**
     * Checks and splits {@code decoded}.
     *
     * @param decoded the path below the mount, percent-decoded once
     * @param hidden whether segments starting with a dot may be served
     * @return the segments, or null when the path names a hidden file that is not served
     * @throws HttpException.BadRequest when a segment could step out of the root or is malformed
     */
    public static Parsed parse(String decoded, boolean hidden) {
        List<String> segments = new ArrayList<>(4);
        boolean concealed = false;
        int n = decoded.length();
        int start = 0;
        for (int i = 0; i <= n; i++) {
            if (i < n) {
                char c = decoded.charAt(i);
                if (c == '/') {
                    // fall through to end the segment
                } else if (c < 0x20 || c == 0x7f) {
                    throw new HttpException.BadRequest("Control character in path");
                } else if (c == '\\' || (WINDOWS && c == ':')) {
                    throw new HttpException.BadRequest("Path separator inside a path segment");
                } else if (c == '\uFFFD') {
                    throw new HttpException.BadRequest("Malformed UTF-8 in path");
                } else {
                    continue;
                }
            }
            if (i > start) {
                String s = decoded.substring(start, i);
                if (s.equals(".") || s.equals("..")) {
                    throw new HttpException.BadRequest("Dot segments are not allowed in a static path");
                }
                if (s.charAt(0) == '.' && !hidden) {
                    concealed = true; // every segment is still checked: a later one may be malformed
                }
                segments.add(s);
            }
            start = i + 1;
        }
        if (concealed) {
            return null;
        }
        return new Parsed(List.copyOf(segments), n > 0 && decoded.charAt(n - 1) == '/');
    }

    /** {@return {@code name} percent-encoded as one path segment (for a relative {@code Location})} */
    public static String encodeSegment(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 8);
        for (byte b : name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }
}
