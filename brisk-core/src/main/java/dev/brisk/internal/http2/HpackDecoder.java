package dev.brisk.internal.http2;

import java.util.Arrays;

/**
 * Decodes HPACK header blocks (RFC 7541) of one connection, keeping its dynamic table. The table is
 * bounded by {@code maxTableSize} (the {@code SETTINGS_HEADER_TABLE_SIZE} this side announced): a
 * size update above it is an error, so a peer can never make this table hold more. Every field
 * decoded goes to a {@link Sink}, which bounds the header list (a block that references one large
 * entry many times decodes to far more than it is long: the sink stops keeping fields, the decoder
 * goes on only to keep the table in step). Any decoding error is a connection error
 * ({@code COMPRESSION_ERROR}): the table can no longer be trusted.
 *
 * <p>Loop thread only. The bytes a sink is given are valid only during the call.
 */
final class HpackDecoder {
    /** Where decoded fields go. */
    interface Sink {
        void field(byte[] name, int nameOff, int nameLen, byte[] value, int valueOff, int valueLen);
    }

    private static final int ENTRY_OVERHEAD = 32;

    private final int maxTableSize;
    // the dynamic table: a ring, newest at (first + count - 1) % capacity
    private byte[][] names = new byte[16][];
    private byte[][] values = new byte[16][];
    private int first;
    private int count;
    private int tableSize;
    private int tableLimit;

    // the block being decoded
    private byte[] in;
    private int pos;
    private int end;
    // the last string read: its bytes are strArr[strOff..strOff+strLen)
    private byte[] strArr;
    private int strOff;
    private int strLen;
    private byte[] nameScratch = new byte[64];
    private byte[] valueScratch = new byte[256];

    HpackDecoder(int maxTableSize) {
        this.maxTableSize = maxTableSize;
        this.tableLimit = maxTableSize;
    }

    /** Decodes one whole header block. */
    void decode(byte[] block, int off, int len, Sink sink) throws Http2Exception {
        in = block;
        pos = off;
        end = off + len;
        boolean fieldSeen = false;
        try {
            while (pos < end) {
                int b = in[pos] & 0xff;
                if ((b & 0x80) != 0) {
                    int index = readInt(7);
                    if (index == 0) {
                        throw error("index 0");
                    }
                    emit(index, sink);
                    fieldSeen = true;
                } else if ((b & 0x40) != 0) {
                    literal(6, true, sink);
                    fieldSeen = true;
                } else if ((b & 0x20) != 0) {
                    if (fieldSeen) {
                        throw error("dynamic table size update after a field");
                    }
                    int size = readInt(5);
                    if (size > maxTableSize) {
                        throw error("dynamic table size update above SETTINGS_HEADER_TABLE_SIZE");
                    }
                    tableLimit = size;
                    evict(size); // the oldest go until the rest fit (4.3); those that fit stay
                } else {
                    literal(4, false, sink); // without indexing (0000) or never indexed (0001)
                    fieldSeen = true;
                }
            }
        } finally {
            in = null;
            strArr = null;
        }
    }

    private void emit(int index, Sink sink) throws Http2Exception {
        if (index <= StaticTable.SIZE) {
            sink.field(StaticTable.NAMES[index], 0, StaticTable.NAMES[index].length,
                    StaticTable.VALUES[index], 0, StaticTable.VALUES[index].length);
            return;
        }
        int slot = slot(index);
        sink.field(names[slot], 0, names[slot].length, values[slot], 0, values[slot].length);
    }

    private void literal(int prefix, boolean index, Sink sink) throws Http2Exception {
        int nameIndex = readInt(prefix);
        byte[] nArr;
        int nOff;
        int nLen;
        if (nameIndex == 0) {
            readString(true);
            nArr = strArr;
            nOff = strOff;
            nLen = strLen;
        } else if (nameIndex <= StaticTable.SIZE) {
            nArr = StaticTable.NAMES[nameIndex];
            nOff = 0;
            nLen = nArr.length;
        } else {
            nArr = names[slot(nameIndex)];
            nOff = 0;
            nLen = nArr.length;
        }
        readString(false);
        sink.field(nArr, nOff, nLen, strArr, strOff, strLen);
        if (index) {
            add(Arrays.copyOfRange(nArr, nOff, nOff + nLen), Arrays.copyOfRange(strArr, strOff, strOff + strLen));
        }
    }

    /** The ring slot of dynamic {@code index} (62 is the newest). */
    private int slot(int index) throws Http2Exception {
        int d = index - StaticTable.SIZE - 1;
        if (d >= count) {
            throw error("index " + index + " beyond the table");
        }
        return (first + count - 1 - d) & (names.length - 1);
    }

    private void add(byte[] name, byte[] value) {
        int size = name.length + value.length + ENTRY_OVERHEAD;
        if (size > tableLimit) {
            evict(0); // clears the table: an entry larger than it is not added (4.4)
            return;
        }
        evict(tableLimit - size);
        if (count == names.length) {
            grow();
        }
        int slot = (first + count) & (names.length - 1);
        names[slot] = name;
        values[slot] = value;
        count++;
        tableSize += size;
    }

    /** Drops the oldest entries until the table holds at most {@code room} bytes (and at most its limit). */
    private void evict(int room) {
        int target = Math.min(room, tableLimit);
        while (count > 0 && tableSize > target) {
            tableSize -= names[first].length + values[first].length + ENTRY_OVERHEAD;
            names[first] = null;
            values[first] = null;
            first = (first + 1) & (names.length - 1);
            count--;
        }
    }

    private void grow() {
        int n = names.length;
        byte[][] nn = new byte[n * 2][];
        byte[][] nv = new byte[n * 2][];
        for (int i = 0; i < count; i++) {
            nn[i] = names[(first + i) & (n - 1)];
            nv[i] = values[(first + i) & (n - 1)];
        }
        names = nn;
        values = nv;
        first = 0;
    }

    /** Entries in the dynamic table, for tests. */
    int tableEntries() {
        return count;
    }

    /** Bytes the dynamic table holds by HPACK's count (32 per entry plus its name and value). */
    int tableSize() {
        return tableSize;
    }

    /** An integer with an N-bit prefix (5.1); at most 2^28 - 1 beyond the prefix, which no valid field needs. */
    private int readInt(int prefix) throws Http2Exception {
        int mask = (1 << prefix) - 1;
        int v = in[pos++] & mask;
        if (v < mask) {
            return v;
        }
        int shift = 0;
        while (true) {
            if (pos >= end) {
                throw error("integer cut off");
            }
            int b = in[pos++] & 0xff;
            v += (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
            shift += 7;
            if (shift > 21) {
                throw error("integer too large");
            }
        }
    }

    /** A string literal (5.2) into {@link #strArr}: a view of the block, or Huffman-decoded into a scratch. */
    private void readString(boolean name) throws Http2Exception {
        if (pos >= end) {
            throw error("string cut off");
        }
        boolean huffman = (in[pos] & 0x80) != 0;
        int len = readInt(7);
        if (len > end - pos) {
            throw error("string longer than its block");
        }
        if (!huffman) {
            strArr = in;
            strOff = pos;
            strLen = len;
        } else {
            int need = Huffman.maxDecoded(len);
            byte[] scratch = name ? nameScratch : valueScratch;
            if (scratch.length < need) {
                scratch = new byte[Math.max(need, scratch.length * 2)];
                if (name) {
                    nameScratch = scratch;
                } else {
                    valueScratch = scratch;
                }
            }
            int e = Huffman.decode(in, pos, len, scratch, 0);
            if (e < 0) {
                throw error("invalid Huffman code");
            }
            strArr = scratch;
            strOff = 0;
            strLen = e;
        }
        pos += len;
    }

    private static Http2Exception error(String what) {
        return new Http2Exception(H2.COMPRESSION_ERROR, "HPACK: " + what);
    }
}
