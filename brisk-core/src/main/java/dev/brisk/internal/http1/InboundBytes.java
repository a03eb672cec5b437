package dev.brisk.internal.http1;

import dev.brisk.internal.transport.BufferPool;
import java.nio.ByteBuffer;

/**
 * The bytes read from one connection that no request has consumed yet: a pooled buffer (in write mode,
 * filled up to its position) and where the current request starts in it. The buffer is held only while
 * it holds something, so an idle connection costs no buffer.
 *
 * <p>Loop thread only. The fields are read directly by the connection's collaborators: this is the
 * hot path, and the class owns nothing but these two values and the rules for moving them.
 */
final class InboundBytes {
    private final BufferPool pool;
    /** A head may grow the buffer to this: the request line, the header limit and some slack. */
    private final int headCapacity;
    /** The bytes, or null while none are held. */
    ByteBuffer buf;
    /** Where the current request's unconsumed bytes start in {@link #buf}. */
    int start;

    InboundBytes(BufferPool pool, int headCapacity) {
        this.pool = pool;
        this.headCapacity = headCapacity;
    }

    /** Makes sure a buffer is held (an empty one if none was). */
    void hold() {
        if (buf == null) {
            buf = pool.acquire();
            start = 0;
        }
    }

    /** Gives the buffer back, whatever it holds. */
    void release() {
        if (buf != null) {
            pool.release(buf);
            buf = null;
        }
        start = 0;
    }

    /** Bytes beyond the current request's start, copied out (read mode; empty when none). */
    ByteBuffer unread() {
        if (!hasUnread()) {
            return ByteBuffer.allocate(0);
        }
        return ByteBuffer.wrap(java.util.Arrays.copyOfRange(buf.array(), start, buf.position()));
    }

    /** Takes the buffer away (to be released by its new owner), or null. */
    ByteBuffer take() {
        ByteBuffer b = buf;
        buf = null;
        start = 0;
        return b;
    }

    /** Whether bytes beyond the current request's start are buffered. */
    boolean hasUnread() {
        return buf != null && buf.position() > start;
    }

    /** Bytes read elsewhere ({@code n}, far below a buffer's size) appended. */
    void put(byte[] src, int n) {
        hold();
        buf.put(src, 0, n);
    }

    /**
     * Moves unconsumed bytes to the front, or, while a head is read and nothing is consumed yet, grows
     * the buffer so a large head fits. The buffer may still be full afterwards.
     */
    void makeRoom(boolean readingHead) {
        int end = buf.position();
        if (start > 0) {
            byte[] a = buf.array();
            System.arraycopy(a, start, a, 0, end - start);
            buf.position(end - start);
            start = 0;
        } else if (readingHead && buf.capacity() < headCapacity) {
            ByteBuffer bigger = ByteBuffer.allocate(headCapacity);
            bigger.put(buf.array(), 0, end);
            pool.release(buf);
            buf = bigger;
        }
    }
}
