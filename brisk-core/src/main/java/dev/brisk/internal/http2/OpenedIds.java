package dev.brisk.internal.http2;

/**
 * Which of the client's latest stream ids it opened, to tell a stream it closed from one it skipped.
 * RFC 9113 5.1.1: a client opens streams in increasing order, and opening one closes every lower id it
 * skipped; a header block on such a never-opened id is an unexpected stream identifier (a connection
 * error of type {@code PROTOCOL_ERROR}), where one on a stream that was opened and is closed now is
 * {@code STREAM_CLOSED}. Remembers the highest id opened and the {@value #WINDOW} - 1 odd ids below it,
 * in a bit set of fixed size however far the client jumps; older ids are taken as opened (the lenient
 * answer). Odd ids only: an even one is the caller's protocol error before it gets here.
 *
 * <p>Loop thread only.
 */
final class OpenedIds {
    /** How many odd ids are remembered: the highest and those just below it. */
    static final int WINDOW = 1024;

    private final long[] bits = new long[WINDOW / 64];
    /** The highest id opened; 0 before the first. */
    private int highest;

    /** The client opened {@code id}, an odd id above every one before it. */
    void open(int id) {
        int skipped = (id - highest) / 2 - 1; // the odd ids strictly between, each now closed unopened
        if (skipped >= WINDOW) {
            java.util.Arrays.fill(bits, 0L);
        } else {
            for (int s = highest + 2; s < id; s += 2) {
                set(s, false);
            }
        }
        set(id, true);
        highest = id;
    }

    /**
     * Whether {@code id} (odd, at most the highest opened) is one the client skipped: never opened. False
     * for an id too old to be remembered.
     */
    boolean skipped(int id) {
        if ((highest - id) / 2 >= WINDOW) {
            return false;
        }
        int slot = (id >>> 1) % WINDOW;
        return (bits[slot >>> 6] & (1L << slot)) == 0;
    }

    private void set(int id, boolean opened) {
        int slot = (id >>> 1) % WINDOW;
        if (opened) {
            bits[slot >>> 6] |= 1L << slot;
        } else {
            bits[slot >>> 6] &= ~(1L << slot);
        }
    }
}
