package dev.brisk.internal.compress;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;

/**
 * Reusable {@link Deflater}s of one level and framing: a deflater holds about 256 KiB of native zlib
 * state, too much to make and end per response; and the encoding streams' buffers with them. A bounded pool: what is not free when asked for is
 * made, and what does not fit back is ended, so the pool never holds more than its bound. Thread-safe.
 */
public final class Deflaters {
    private final int level;
    private final boolean raw;
    private final ArrayBlockingQueue<Deflater> free;
    /** Buffer pairs for {@link EncodingStream}s, pooled as the deflaters are (32 KiB each). */
    private final ArrayBlockingQueue<byte[]> freeBuffers;
    /**
     * Direct buffers of {@link #WHOLE} bytes for files encoded whole: a file is read into one with a
     * single positional read and deflated from there, never copied through the heap. Made on demand up
     * to the pool's bound ({@link #directMade}), then none: a caller without one takes the heap path.
     */
    private final ArrayBlockingQueue<ByteBuffer> freeDirect;
    private final AtomicInteger directMade = new AtomicInteger();
    /** The most direct buffers made: as many as {@link #freeDirect} holds, so a release always fits. */
    private final int directBound;
    /** The largest file encoded from a direct buffer (the most a body is encoded whole). */
    public static final int WHOLE = 256 * 1024;

    /**
     * @param level 1 (fastest) to 9 (smallest)
     * @param raw raw deflate data (gzip adds its own header and trailer) or the zlib format ("deflate")
     */
    public Deflaters(int level, boolean raw) {
        this.level = level;
        this.raw = raw;
        this.free = new ArrayBlockingQueue<>(Math.max(2, 2 * Runtime.getRuntime().availableProcessors()));
        this.freeBuffers = new ArrayBlockingQueue<>(free.remainingCapacity());
        this.directBound = free.remainingCapacity();
        this.freeDirect = new ArrayBlockingQueue<>(directBound);
    }

    /**
     * {@return a cleared direct buffer of {@link #WHOLE} bytes, or null when the pool's bound of them
     * is out (so direct memory stays bounded and is never made and dropped per response); give it back
     * with {@link #releaseDirect}}
     */
    ByteBuffer acquireDirect() {
        ByteBuffer b = freeDirect.poll();
        if (b != null) {
            return b.clear();
        }
        int made = directMade.getAndUpdate(n -> n < directBound ? n + 1 : n);
        return made < directBound ? ByteBuffer.allocateDirect(WHOLE) : null;
    }

    /** Takes back a buffer from {@link #acquireDirect}. */
    void releaseDirect(ByteBuffer b) {
        freeDirect.offer(b); // never full: no more are made than it holds
    }

    /** {@return an encoding stream's buffer pair; give it back with {@link #releaseBuffers}} */
    byte[] acquireBuffers() {
        byte[] b = freeBuffers.poll();
        return b != null ? b : new byte[EncodingStream.BUFFERS];
    }

    /** {@return how many buffer pairs are free in the pool} */
    int freeBuffers() {
        return freeBuffers.size();
    }

    /** Takes back a buffer pair from {@link #acquireBuffers}; dropped when the pool is full. */
    void releaseBuffers(byte[] b) {
        freeBuffers.offer(b);
    }

    /** {@return a deflater ready for new input; give it back with {@link #release}} */
    public Deflater acquire() {
        Deflater d = free.poll();
        return d != null ? d : new Deflater(level, raw);
    }

    /** Takes back a deflater from {@link #acquire}, reset for the next user, or ends it when the pool is full. */
    public void release(Deflater d) {
        d.reset();
        if (!free.offer(d)) {
            d.end();
        }
    }
}
