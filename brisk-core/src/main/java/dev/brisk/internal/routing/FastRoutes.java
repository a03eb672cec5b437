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

    private final byte[][] keys;
    private final Entry[] entries;
    private final int mask;
    private final int size;

    public FastRoutes(Map<String, StaticResponse> routes) {
        int cap = Integer.highestOneBit(Math.max(4, routes.size() * 4) - 1) << 1;
        keys = new byte[cap][];
        entries = new Entry[cap];
        mask = cap - 1;
        size = routes.size();
        for (Map.Entry<String, StaticResponse> e : new LinkedHashMap<>(routes).entrySet()) {
            byte[] k = e.getKey().getBytes(StandardCharsets.US_ASCII);
            int i = hash(k, 0, k.length) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = k;
            entries[i] = new Entry(e.getValue());
        }
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The entry for the raw path {@code b[from..to)}, or null. */
    public Entry find(byte[] b, int from, int to) {
        int i = hash(b, from, to) & mask;
        byte[] k;
        while ((k = keys[i]) != null) {
            if (k.length == to - from && java.util.Arrays.equals(k, 0, k.length, b, from, to)) {
                return entries[i];
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    private static int hash(byte[] b, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        return h ^ (h >>> 16);
    }

    /** One static response, with its wire bytes for each variant rebuilt when the second changes. */
    public static final class Entry {
        private final StaticResponse response;
        private volatile Prebuilt prebuilt;

        Entry(StaticResponse response) {
            this.response = response;
            this.prebuilt = build(response, HttpDate.now());
        }

        /**
         * The full response bytes.
         *
         * @param head true for a HEAD request (no body)
         * @param connection {@link #KEEP_ALIVE}, {@link #CLOSE} or {@link #KEEP_ALIVE_1_0}
         */
        /** The response's status. */
        public int status() {
            return response.status();
        }

        public byte[] bytes(boolean head, int connection) {
            HttpDate.Line date = HttpDate.now();
            Prebuilt p = prebuilt;
            if (p.second != date.second()) {
                p = build(response, date);
                prebuilt = p;
            }
            return p.variants[connection * 2 + (head ? 1 : 0)];
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
