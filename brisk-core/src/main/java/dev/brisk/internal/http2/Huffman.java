package dev.brisk.internal.http2;

/**
 * The static Huffman code of HPACK (RFC 7541 Appendix B). The code is canonical, so it is made here
 * from the code lengths alone: symbols sorted by (length, value) take consecutive codes. Decoding
 * walks a table of four bits at a time built from the same tree; a string's end must fall on a
 * symbol boundary or inside at most seven bits of the end-of-string code (all ones), and the
 * end-of-string symbol itself must never appear (5.2).
 *
 * <p>Stateless and immutable after class initialisation; any thread.
 */
final class Huffman {
    private Huffman() {
    }

    /** Code lengths in bits of the symbols 0..255 (RFC 7541 Appendix B); end-of-string is 30 ones. */
    private static final byte[] LENGTHS = {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
    };
    private static final int EOS = 256;
    private static final int EOS_LENGTH = 30;

    /** The code of each symbol, right-aligned (index 256: end-of-string). */
    static final int[] CODES = new int[257];

    // decoding: state = an internal node of the code tree (0 is the root); per state and nibble an entry
    private static final int NO_SYMBOL = 0x1ff;
    private static final int FAIL = 1 << 17;
    private static final int[] STEP = new int[256 * 16];
    /** Whether a string may end in this state: the bits since the last symbol are at most 7 ones. */
    private static final boolean[] MAY_END = new boolean[256];

    static {
        Integer[] order = new Integer[257];
        for (int i = 0; i < 257; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> length(a) != length(b) ? length(a) - length(b) : a - b);
        int code = 0;
        int prev = length(order[0]);
        for (int i = 0; i < 257; i++) {
            int s = order[i];
            if (i > 0) {
                code = (code + 1) << (length(s) - prev);
            }
            prev = length(s);
            CODES[s] = code;
        }
        buildDecoder();
    }

    private static int length(int symbol) {
        return symbol == EOS ? EOS_LENGTH : LENGTHS[symbol];
    }

    private static void buildDecoder() {
        // the tree: child[node][bit] = internal node index, or -(symbol + 1) for a leaf
        int[][] child = new int[256][2];
        for (int[] c : child) {
            c[0] = Integer.MIN_VALUE;
            c[1] = Integer.MIN_VALUE;
        }
        int[] depth = new int[256];
        boolean[] ones = new boolean[256];
        ones[0] = true;
        int nodes = 1;
        for (int s = 0; s <= EOS; s++) {
            int len = length(s);
            int node = 0;
            for (int i = len - 1; i >= 0; i--) {
                int bit = (CODES[s] >>> i) & 1;
                if (i == 0) {
                    child[node][bit] = -(s + 1);
                } else {
                    if (child[node][bit] == Integer.MIN_VALUE) {
                        child[node][bit] = nodes;
                        depth[nodes] = depth[node] + 1;
                        ones[nodes] = ones[node] && bit == 1;
                        nodes++;
                    }
                    node = child[node][bit];
                }
            }
        }
        for (int n = 0; n < nodes; n++) {
            MAY_END[n] = ones[n] && depth[n] <= 7;
            for (int nibble = 0; nibble < 16; nibble++) {
                int node = n;
                int symbol = NO_SYMBOL;
                boolean fail = false;
                for (int i = 3; i >= 0; i--) {
                    int next = child[node][(nibble >>> i) & 1];
                    if (next < 0) {
                        int s = -next - 1;
                        if (s == EOS) {
                            fail = true;
                            break;
                        }
                        symbol = s; // codes are at least 5 bits long: one symbol per nibble at most
                        node = 0;
                    } else {
                        node = next;
                    }
                }
                STEP[n * 16 + nibble] = fail ? FAIL : node | symbol << 8;
            }
        }
    }

    /**
     * Decodes {@code src[off..off+len)} into {@code dst} from {@code dstOff}.
     *
     * @return the end of the decoded bytes in {@code dst}, or -1 when the input is not a valid string:
     *     end-of-string inside, or padding longer than 7 bits or not all ones
     * @throws ArrayIndexOutOfBoundsException never when {@code dst} has {@code len * 8 / 5} bytes free
     */
    static int decode(byte[] src, int off, int len, byte[] dst, int dstOff) {
        int state = 0;
        int d = dstOff;
        for (int i = off, end = off + len; i < end; i++) {
            int b = src[i] & 0xff;
            int e = STEP[state << 4 | b >>> 4];
            if ((e & FAIL) != 0) {
                return -1;
            }
            int sym = (e >>> 8) & NO_SYMBOL;
            if (sym != NO_SYMBOL) {
                dst[d++] = (byte) sym;
            }
            e = STEP[(e & 0xff) << 4 | b & 0xf];
            if ((e & FAIL) != 0) {
                return -1;
            }
            sym = (e >>> 8) & NO_SYMBOL;
            if (sym != NO_SYMBOL) {
                dst[d++] = (byte) sym;
            }
            state = e & 0xff;
        }
        return MAY_END[state] ? d : -1;
    }

    /** The most bytes {@link #decode} can make of {@code len} encoded ones (the shortest code is 5 bits). */
    static int maxDecoded(int len) {
        return (int) ((len * 8L) / 5);
    }

    /** Encoded length in bytes of the Latin-1 string {@code s}, lower-cased first when {@code lower}. */
    static int encodedLength(String s, boolean lower) {
        long bits = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            bits += LENGTHS[lower ? lower(s.charAt(i)) : s.charAt(i) & 0xff];
        }
        return (int) ((bits + 7) >>> 3);
    }

    /** Encoded length in bytes of {@code a[off..off+len)}. */
    static int encodedLength(byte[] a, int off, int len) {
        long bits = 0;
        for (int i = off, end = off + len; i < end; i++) {
            bits += LENGTHS[a[i] & 0xff];
        }
        return (int) ((bits + 7) >>> 3);
    }

    private static int lower(char c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c & 0xff;
    }

    /**
     * Encodes the Latin-1 string {@code s} (lower-cased first when {@code lower}) into {@code dst} at
     * {@code d}; returns the end.
     */
    static int encode(String s, boolean lower, byte[] dst, int d) {
        long acc = 0;
        int bits = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            int c = lower ? lower(s.charAt(i)) : s.charAt(i) & 0xff;
            int len = LENGTHS[c];
            acc = acc << len | CODES[c];
            bits += len;
            while (bits >= 8) {
                bits -= 8;
                dst[d++] = (byte) (acc >>> bits);
            }
        }
        if (bits > 0) {
            // padded with the most significant bits of end-of-string: ones
            dst[d++] = (byte) (acc << (8 - bits) | 0xff >>> bits);
        }
        return d;
    }

    /** Encodes {@code a[off..off+len)} into {@code dst} at {@code d}; returns the end. */
    static int encode(byte[] a, int off, int len, byte[] dst, int d) {
        long acc = 0;
        int bits = 0;
        for (int i = off, end = off + len; i < end; i++) {
            int c = a[i] & 0xff;
            int l = LENGTHS[c];
            acc = acc << l | CODES[c];
            bits += l;
            while (bits >= 8) {
                bits -= 8;
                dst[d++] = (byte) (acc >>> bits);
            }
        }
        if (bits > 0) {
            dst[d++] = (byte) (acc << (8 - bits) | 0xff >>> bits);
        }
        return d;
    }
}
