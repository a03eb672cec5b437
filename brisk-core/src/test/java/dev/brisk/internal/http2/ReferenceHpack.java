package dev.brisk.internal.http2;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain HPACK decoder (RFC 7541) written for the fuzz target, as directly from the RFC as it can be:
 * the dynamic table a list with the newest entry first, every step in the order section 6 gives it, no
 * ring, no scratch buffers, no views into the block, and its own copy of the static table (Appendix A).
 * Strings in Huffman code are decoded with {@link Huffman} (tested on its own in {@code HuffmanTest}). It shares two of the decoder's choices,
 * which the RFC leaves open: an integer takes at most four bytes after its prefix, and a size update is
 * allowed only before the block's first field.
 */
final class ReferenceHpack {
    /** The input is not valid HPACK (the decoder must fail it with {@code COMPRESSION_ERROR}). */
    static final class Invalid extends Exception {
        Invalid(String what) {
            super(what, null, false, false);
        }
    }

    /** RFC 7541 Appendix A: index 1 is {@code STATIC[0]}. */
    private static final String[][] STATIC = {
        {":authority", ""},
        {":method", "GET"},
        {":method", "POST"},
        {":path", "/"},
        {":path", "/index.html"},
        {":scheme", "http"},
        {":scheme", "https"},
        {":status", "200"},
        {":status", "204"},
        {":status", "206"},
        {":status", "304"},
        {":status", "400"},
        {":status", "404"},
        {":status", "500"},
        {"accept-charset", ""},
        {"accept-encoding", "gzip, deflate"},
        {"accept-language", ""},
        {"accept-ranges", ""},
        {"accept", ""},
        {"access-control-allow-origin", ""},
        {"age", ""},
        {"allow", ""},
        {"authorization", ""},
        {"cache-control", ""},
        {"content-disposition", ""},
        {"content-encoding", ""},
        {"content-language", ""},
        {"content-length", ""},
        {"content-location", ""},
        {"content-range", ""},
        {"content-type", ""},
        {"cookie", ""},
        {"date", ""},
        {"etag", ""},
        {"expect", ""},
        {"expires", ""},
        {"from", ""},
        {"host", ""},
        {"if-match", ""},
        {"if-modified-since", ""},
        {"if-none-match", ""},
        {"if-range", ""},
        {"if-unmodified-since", ""},
        {"last-modified", ""},
        {"link", ""},
        {"location", ""},
        {"max-forwards", ""},
        {"proxy-authenticate", ""},
        {"proxy-authorization", ""},
        {"range", ""},
        {"referer", ""},
        {"refresh", ""},
        {"retry-after", ""},
        {"server", ""},
        {"set-cookie", ""},
        {"strict-transport-security", ""},
        {"transfer-encoding", ""},
        {"user-agent", ""},
        {"vary", ""},
        {"via", ""},
        {"www-authenticate", ""}
    };

    private final int maxTableSize;
    private int limit;
    /** Newest first: dynamic index 62 is {@code table.get(0)}. */
    private final List<String[]> table = new ArrayList<>();
    private int size;

    ReferenceHpack(int maxTableSize) {
        this.maxTableSize = maxTableSize;
        this.limit = maxTableSize;
    }

    int size() {
        return size;
    }

    int entries() {
        return table.size();
    }

    /** The block's fields as [name, value] (Latin-1), in order. */
    List<List<String>> decode(byte[] block) throws Invalid {
        List<List<String>> out = new ArrayList<>();
        int[] p = {0};
        boolean fieldSeen = false;
        while (p[0] < block.length) {
            int b = block[p[0]] & 0xff;
            if (b >= 0x80) { // 6.1 indexed
                int index = integer(block, p, 7);
                String[] f = lookup(index);
                out.add(List.of(f[0], f[1]));
                fieldSeen = true;
            } else if (b >= 0x40) { // 6.2.1 with incremental indexing
                String[] f = literal(block, p, 6);
                out.add(List.of(f[0], f[1]));
                insert(f);
                fieldSeen = true;
            } else if (b >= 0x20) { // 6.3 dynamic table size update
                if (fieldSeen) {
                    throw new Invalid("size update after a field");
                }
                int n = integer(block, p, 5);
                if (n > maxTableSize) {
                    throw new Invalid("size update above the maximum");
                }
                limit = n;
                evictTo(limit);
            } else { // 6.2.2 without indexing, 6.2.3 never indexed
                String[] f = literal(block, p, 4);
                out.add(List.of(f[0], f[1]));
                fieldSeen = true;
            }
        }
        return out;
    }

    private String[] lookup(int index) throws Invalid {
        if (index == 0) {
            throw new Invalid("index 0");
        }
        if (index <= STATIC.length) {
            return STATIC[index - 1];
        }
        int d = index - STATIC.length - 1;
        if (d >= table.size()) {
            throw new Invalid("index beyond the table");
        }
        return table.get(d);
    }

    private String[] literal(byte[] block, int[] p, int prefix) throws Invalid {
        int nameIndex = integer(block, p, prefix);
        String name = nameIndex == 0 ? string(block, p) : lookup(nameIndex)[0];
        String value = string(block, p);
        return new String[] {name, value};
    }

    /** 4.4: an entry larger than the table empties it and is not added. */
    private void insert(String[] f) {
        int entry = f[0].length() + f[1].length() + 32;
        if (entry > limit) {
            table.clear();
            size = 0;
            return;
        }
        evictTo(limit - entry);
        table.add(0, f);
        size += entry;
    }

    private void evictTo(int room) {
        while (size > room) {
            String[] oldest = table.remove(table.size() - 1);
            size -= oldest[0].length() + oldest[1].length() + 32;
        }
    }

    /** 5.1, with at most four bytes after the prefix. */
    private static int integer(byte[] block, int[] p, int prefix) throws Invalid {
        int mask = (1 << prefix) - 1;
        long v = block[p[0]++] & mask;
        if (v < mask) {
            return (int) v;
        }
        for (int k = 0; k < 4; k++) {
            if (p[0] >= block.length) {
                throw new Invalid("integer cut off");
            }
            int b = block[p[0]++] & 0xff;
            v += (long) (b & 0x7f) << (7 * k);
            if ((b & 0x80) == 0) {
                return (int) v;
            }
        }
        throw new Invalid("integer longer than four bytes after its prefix");
    }

    /** 5.2. */
    private static String string(byte[] block, int[] p) throws Invalid {
        if (p[0] >= block.length) {
            throw new Invalid("string cut off");
        }
        boolean huffman = (block[p[0]] & 0x80) != 0;
        int len = integer(block, p, 7);
        if (len > block.length - p[0]) {
            throw new Invalid("string longer than its block");
        }
        String s;
        if (huffman) {
            byte[] out = new byte[Huffman.maxDecoded(len)];
            int n = Huffman.decode(block, p[0], len, out, 0);
            if (n < 0) {
                throw new Invalid("bad Huffman code");
            }
            s = new String(out, 0, n, StandardCharsets.ISO_8859_1);
        } else {
            s = new String(block, p[0], len, StandardCharsets.ISO_8859_1);
        }
        p[0] += len;
        return s;
    }
}
