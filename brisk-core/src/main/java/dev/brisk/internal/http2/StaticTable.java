package dev.brisk.internal.http2;

import java.nio.charset.StandardCharsets;

/** HPACK's static table (RFC 7541 Appendix A): entries 1..61, as bytes and as strings. Immutable. */
final class StaticTable {
    private StaticTable() {
    }

    static final int SIZE = 61;

    private static final String[][] ENTRIES = {
        {":authority", ""}, {":method", "GET"}, {":method", "POST"}, {":path", "/"},
        {":path", "/index.html"}, {":scheme", "http"}, {":scheme", "https"}, {":status", "200"},
        {":status", "204"}, {":status", "206"}, {":status", "304"}, {":status", "400"},
        {":status", "404"}, {":status", "500"}, {"accept-charset", ""}, {"accept-encoding", "gzip, deflate"},
        {"accept-language", ""}, {"accept-ranges", ""}, {"accept", ""}, {"access-control-allow-origin", ""},
        {"age", ""}, {"allow", ""}, {"authorization", ""}, {"cache-control", ""},
        {"content-disposition", ""}, {"content-encoding", ""}, {"content-language", ""}, {"content-length", ""},
        {"content-location", ""}, {"content-range", ""}, {"content-type", ""}, {"cookie", ""},
        {"date", ""}, {"etag", ""}, {"expect", ""}, {"expires", ""},
        {"from", ""}, {"host", ""}, {"if-match", ""}, {"if-modified-since", ""},
        {"if-none-match", ""}, {"if-range", ""}, {"if-unmodified-since", ""}, {"last-modified", ""},
        {"link", ""}, {"location", ""}, {"max-forwards", ""}, {"proxy-authenticate", ""},
        {"proxy-authorization", ""}, {"range", ""}, {"referer", ""}, {"refresh", ""},
        {"retry-after", ""}, {"server", ""}, {"set-cookie", ""}, {"strict-transport-security", ""},
        {"transfer-encoding", ""}, {"user-agent", ""}, {"vary", ""}, {"via", ""},
        {"www-authenticate", ""},
    };

    /** Names and values by index (1-based; index 0 unused). */
    static final byte[][] NAMES = new byte[SIZE + 1][];
    static final byte[][] VALUES = new byte[SIZE + 1][];

    static {
        for (int i = 0; i < SIZE; i++) {
            NAMES[i + 1] = ENTRIES[i][0].getBytes(StandardCharsets.US_ASCII);
            VALUES[i + 1] = ENTRIES[i][1].getBytes(StandardCharsets.US_ASCII);
        }
    }

    // static names by a case-insensitive hash: a response header's name is found without lower-casing it
    private static final int[] BY_NAME = new int[256];

    static {
        for (int i = SIZE; i >= 1; i--) { // the first index of a name wins: filled last
            int slot = hashIgnoreCase(ENTRIES[i - 1][0]) & 255;
            while (BY_NAME[slot] != 0 && !ENTRIES[BY_NAME[slot] - 1][0].equals(ENTRIES[i - 1][0])) {
                slot = (slot + 1) & 255;
            }
            BY_NAME[slot] = i;
        }
    }

    private static int hashIgnoreCase(String s) {
        int h = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            h = 31 * h + (c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        return h ^ h >>> 16;
    }

    /** The first index whose name is {@code name} ignoring ASCII case, or 0. */
    static int nameIndex(String name) {
        int slot = hashIgnoreCase(name) & 255;
        for (int i = BY_NAME[slot]; i != 0; i = BY_NAME[slot = (slot + 1) & 255]) {
            if (ENTRIES[i - 1][0].equalsIgnoreCase(name)) {
                return i;
            }
        }
        return 0;
    }
}
