package dev.brisk.internal.http2;

import java.util.Arrays;

/**
 * Encodes response header blocks (RFC 7541) for one connection. It never inserts into the dynamic
 * table, so the peer's table stays empty and no state can go out of step: each field is a literal
 * without indexing, its name by static index when the static table has it, its strings Huffman-coded
 * when that is shorter; {@code :status} uses a static entry when one exists. When the peer lowers
 * its {@code SETTINGS_HEADER_TABLE_SIZE}, the next block starts with a size update to match, as
 * 4.2 asks of an encoder. Names are written in lower case, as HTTP/2 requires, whatever case the
 * handler used.
 *
 * <p>Loop thread only. The block is built in this encoder's own array; {@link #bytes}/{@link #length}
 * are valid until the next {@link #begin}.
 */
final class HpackEncoder {
    /** Largest block: beyond it a response's headers are refused (as HTTP/1.1 refuses a head over 1 MiB). */
    static final int MAX_BLOCK = 1 << 20;

    private byte[] buf = new byte[256];
    private int len;
    private int pendingSizeUpdate = -1;
    /** The size update the block being built starts with, or -1. */
    private int updateInBlock = -1;
    private int peerTableSize = H2.DEFAULT_HEADER_TABLE_SIZE;

    /** The peer's {@code SETTINGS_HEADER_TABLE_SIZE}: the next block announces a table no larger. */
    void peerTableSize(int size) {
        if (size < peerTableSize) {
            pendingSizeUpdate = size;
        }
        peerTableSize = size;
    }

    /** Starts a block. */
    void begin() {
        len = 0;
        updateInBlock = pendingSizeUpdate;
        if (pendingSizeUpdate >= 0) {
            ensure(6);
            putInt(0x20, 5, pendingSizeUpdate);
            pendingSizeUpdate = -1;
        }
    }

    /**
     * The block being built will not be sent (it is {@link #tooLarge}): a size update it started with
     * goes into the next block instead, or the peer would never learn of it.
     */
    void abandon() {
        if (updateInBlock >= 0 && pendingSizeUpdate < 0) {
            pendingSizeUpdate = updateInBlock;
        }
        updateInBlock = -1;
        len = 0;
    }

    byte[] bytes() {
        return buf;
    }

    int length() {
        return len;
    }

    /** Whether the block grew past {@link #MAX_BLOCK}: it must not be sent. */
    boolean tooLarge() {
        return len > MAX_BLOCK;
    }

    /** {@code :status}. */
    void status(int status) {
        int index = switch (status) {
            case 200 -> 8;
            case 204 -> 9;
            case 206 -> 10;
            case 304 -> 11;
            case 400 -> 12;
            case 404 -> 13;
            case 500 -> 14;
            default -> 0;
        };
        ensure(5);
        if (index != 0) {
            buf[len++] = (byte) (0x80 | index);
            return;
        }
        buf[len++] = 0x08; // literal without indexing, name :status (static 8)
        buf[len++] = 3;
        buf[len++] = (byte) ('0' + status / 100);
        buf[len++] = (byte) ('0' + status / 10 % 10);
        buf[len++] = (byte) ('0' + status % 10);
    }

    /** A field; {@code name} in any case (written lower-case), both Latin-1 and already checked. */
    void field(String name, String value) {
        if (len > MAX_BLOCK) {
            return; // refused anyway: stop growing
        }
        int index = StaticTable.nameIndex(name);
        if (index != 0) {
            ensure(5);
            putInt(0x00, 4, index);
        } else {
            ensure(1);
            buf[len++] = 0;
            string(name, true);
        }
        string(value, false);
    }

    /** A field of the static table's name {@code staticIndex} whose value is the decimal {@code v} (no string made). */
    void field(int staticIndex, long v) {
        ensure(26);
        putInt(0x00, 4, staticIndex);
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        buf[len++] = (byte) digits; // plain: digits gain little from Huffman coding
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        len += digits;
    }

    /** A field whose value is given as bytes (the cached {@code date}). */
    void field(int staticIndex, byte[] value, int off, int n) {
        ensure(5);
        putInt(0x00, 4, staticIndex);
        int h = Huffman.encodedLength(value, off, n);
        if (h < n) {
            ensure(5 + h);
            putInt(0x80, 7, h);
            len = Huffman.encode(value, off, n, buf, len);
        } else {
            ensure(5 + n);
            putInt(0x00, 7, n);
            System.arraycopy(value, off, buf, len, n);
            len += n;
        }
    }

    private void string(String s, boolean lower) {
        int n = s.length();
        int h = Huffman.encodedLength(s, lower);
        if (h < n) {
            ensure(5 + h);
            putInt(0x80, 7, h);
            len = Huffman.encode(s, lower, buf, len);
        } else {
            ensure(5 + n);
            putInt(0x00, 7, n);
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                buf[len++] = (byte) (lower && c >= 'A' && c <= 'Z' ? c + 32 : c);
            }
        }
    }

    private void putInt(int flags, int prefix, int v) {
        int mask = (1 << prefix) - 1;
        if (v < mask) {
            buf[len++] = (byte) (flags | v);
            return;
        }
        buf[len++] = (byte) (flags | mask);
        v -= mask;
        while (v >= 0x80) {
            buf[len++] = (byte) (v & 0x7f | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(len + more, buf.length * 2));
        }
    }
}
