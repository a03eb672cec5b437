package dev.brisk.internal.routing;

import dev.brisk.StaticResponse;
import dev.brisk.internal.http.HttpDate;
import dev.brisk.internal.http.StatusLines;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Exact {@code GET}/{@code HEAD} paths answered with prebuilt bytes. Lookup hashes the raw path
 * bytes in place (open addressing), so a hit allocates nothing. Read-only after construction.
 */
public final class FastRoutes {
    /** Which connection header a response variant carries. */
    public static final int KEEP_ALIVE = 0;
    public static final int CLOSE = 1;
    public static final int KEEP_ALIVE_1_0 = 2;

    private final PathTable<Entry> table;
    private final int size;

    /** Routes whose answers count in counters of their own (for tests). */
    public FastRoutes(Map<String, StaticResponse> routes) {
        this(routes, Map.of());
    }

    /**
     * @param routes the answers by exact path
     * @param stats the counters each path's answers count in: its normal route's, so a route's counts
     *     are the same whichever path served it (fast here, or through the route on HTTP/2); a path
     *     missing here gets counters of its own
     */
    public FastRoutes(Map<String, StaticResponse> routes, Map<String, RouteStats> stats) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        routes.forEach((path, response) -> entries.put(path,
                new Entry(path, response, stats.getOrDefault(path, new RouteStats()))));
        table = new PathTable<>(entries);
        size = routes.size();
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The entry for the raw path {@code b[from..to)}, or null. */
    public Entry find(byte[] b, int from, int to) {
        return table.get(b, from, to);
    }

    /** One static response, with its wire bytes for each variant rebuilt when the second changes. */
    public static final class Entry {
        private final String path;
        private final StaticResponse response;
        private final int bodyLength;
        private final RouteStats stats;
        private volatile Prebuilt prebuilt;

        Entry(String path, StaticResponse response, RouteStats stats) {
            this.path = path;
            this.stats = stats;
            this.response = response;
            this.bodyLength = response.body().length;
            this.prebuilt = build(response, HttpDate.now());
        }

        /** The counters this entry's answers count in (its route's). */
        public RouteStats stats() {
            return stats;
        }

        /** The exact path this entry answers (also its route template). */
        public String path() {
            return path;
        }

        /** The response's status. */
        public int status() {
            return response.status();
        }

        /** Body bytes sent: none for a HEAD request. */
        public int bodyLength(boolean head) {
            return head ? 0 : bodyLength;
        }

        /**
         * The full response bytes.
         *
         * @param head true for a HEAD request (no body)
         * @param connection {@link #KEEP_ALIVE}, {@link #CLOSE} or {@link #KEEP_ALIVE_1_0}
         */
        public byte[] bytes(boolean head, int connection) {
            return current().variants[connection * 2 + (head ? 1 : 0)];
        }

        /**
         * As {@link #bytes}, with one more header line after the others, in a new array. {@code name}
         * and {@code value} must be valid header text (ASCII, no CR or LF): they are copied as they are.
         */
        public byte[] bytesWith(boolean head, int connection, String name, String value) {
            Prebuilt p = current();
            byte[] full = p.variants[connection * 2];
            int headLen = p.variants[connection * 2 + 1].length; // ends with the blank line
            int bodyLen = head ? 0 : full.length - headLen;
            int at = headLen - 2;
            byte[] out = new byte[at + name.length() + 2 + value.length() + 4 + bodyLen];
            System.arraycopy(full, 0, out, 0, at);
            at = putAscii(out, at, name);
            out[at++] = ':';
            out[at++] = ' ';
            at = putAscii(out, at, value);
            out[at++] = '\r';
            out[at++] = '\n';
            out[at++] = '\r';
            out[at++] = '\n';
            System.arraycopy(full, headLen, out, at, bodyLen);
            return out;
        }

        private static int putAscii(byte[] b, int at, String s) {
            for (int i = 0; i < s.length(); i++) {
                b[at++] = (byte) s.charAt(i);
            }
            return at;
        }

        private Prebuilt current() {
            HttpDate.Line date = HttpDate.now();
            Prebuilt p = prebuilt;
            if (p.second != date.second()) {
                p = build(response, date);
                prebuilt = p;
            }
            return p;
        }

        private static Prebuilt build(StaticResponse r, HttpDate.Line date) {
            byte[][] v = new byte[6][];
            String[] conn = {"", "Connection: close\r\n", "Connection: keep-alive\r\n"};
            byte[] body = r.body();
            for (int c = 0; c < 3; c++) {
                StringBuilder sb = new StringBuilder(128);
                sb.append("HTTP/1.1 ").append(r.status()).append(' ').append(StatusLines.reason(r.status())).append("\r\n");
                if (r.status() != 204 && r.status() != 304) {
                    sb.append("Content-Type: ").append(r.contentType()).append("\r\n");
                    sb.append("Content-Length: ").append(body.length).append("\r\n");
                }
                for (int i = 0; i < r.headers().size(); i += 2) {
                    sb.append(r.headers().get(i)).append(": ").append(r.headers().get(i + 1)).append("\r\n");
                }
                sb.append(conn[c]);
                ByteArrayOutputStream out = new ByteArrayOutputStream(sb.length() + 40 + body.length);
                out.writeBytes(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes(date.bytes());
                out.writeBytes(new byte[] {'\r', '\n'});
                v[c * 2 + 1] = out.toByteArray();
                out.writeBytes(body);
                v[c * 2] = out.toByteArray();
            }
            return new Prebuilt(date.second(), v);
        }
    }

    private record Prebuilt(long second, byte[][] variants) {
    }
}
