package dev.brisk.internal.http2;

/**
 * The streams this side of a connection reset lately (the last {@value #SIZE}): a client may have
 * sent frames on a stream before it saw the reset, and those are ignored rather than treated as a
 * protocol error. Loop thread only.
 */
final class RecentResets {
    static final int SIZE = 64;
    private final int[] ids = new int[SIZE];
    private int cursor;

    /** Remembers that {@code id} was reset, forgetting the oldest. */
    void add(int id) {
        ids[cursor] = id;
        cursor = (cursor + 1) % SIZE;
    }

    /** Whether {@code id} is among the streams reset lately. */
    boolean contains(int id) {
        for (int r : ids) {
            if (r == id) {
                return true;
            }
        }
        return false;
    }
}
