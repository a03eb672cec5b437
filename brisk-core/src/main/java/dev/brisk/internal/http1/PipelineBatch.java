package dev.brisk.internal.http1;

import dev.brisk.internal.transport.BufferPool;
import java.nio.ByteBuffer;

/**
 * Pipelined responses not written yet, in one pooled buffer (write mode): answers that were ready at
 * once while the next request's bytes were already buffered. They go out in one write, so sixteen
 * pipelined requests cost one write instead of sixteen. Loop thread only.
 */
final class PipelineBatch {
    private final BufferPool pool;
    private ByteBuffer buf;

    PipelineBatch(BufferPool pool) {
        this.pool = pool;
    }

    boolean holds() {
        return buf != null;
    }

    /** Whether {@code response} fits in what the batch has left (a whole buffer when empty). */
    boolean fits(ByteBuffer response) {
        return response.remaining() <= (buf == null ? pool.bufferSize() : buf.remaining());
    }

    /** Copies {@code response} in (check {@link #fits} first); the caller keeps {@code response}. */
    void add(ByteBuffer response) {
        if (buf == null) {
            buf = pool.acquire();
        }
        buf.put(response);
    }

    /** The batch's buffer, still in write mode; the batch is empty afterwards. */
    ByteBuffer take() {
        ByteBuffer b = buf;
        buf = null;
        return b;
    }

    void discard() {
        if (buf != null) {
            pool.release(buf);
            buf = null;
        }
    }
}
