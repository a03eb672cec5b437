package dev.brisk.internal.compress;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Encodings of static files kept for reuse, for the whole server (option {@code compressed-file-cache}):
 * a file body with a content key (a {@code SizedBody}'s, or a small file's read whole, as {@code KeyedBytes}) that one client got compressed is
 * kept in that coding, so the next client that takes the coding gets the same bytes without the file
 * being deflated again (a 100 KiB JSON file at level 6: about 1.4 ms of CPU each time). Bounded by the
 * bytes kept over every mount and coding together, each entry's overhead counted; the least recently
 * used go first; an encoding larger than the bound is not kept. A key changes with the file's size, time or identity, so a changed file is
 * encoded anew and its old encoding ages out.
 *
 * <p>Thread-safe: one lock, held for the map alone, never while anything is encoded. Two clients that
 * miss at once both encode; the second one's result replaces the first's.
 */
public final class EncodedFiles {
    private record Key(Object content, Coding coding) {
    }

    /**
     * What an entry costs beside its bytes (its key with the file's path, the map's entry, the buffer
     * object), counted against the bound so that many tiny encodings cannot hold several times it.
     */
    public static final int ENTRY_OVERHEAD = 512;

    private final long bound;
    private final LinkedHashMap<Key, ByteBuffer> kept = new LinkedHashMap<>(64, 0.75f, true);
    private final LongAdder hits = new LongAdder();
    private long bytes;

    /** @param bound the most bytes kept; 0 keeps nothing */
    public EncodedFiles(long bound) {
        if (bound < 0) {
            throw new IllegalArgumentException("bound must be >= 0: " + bound);
        }
        this.bound = bound;
    }

    /** {@return whether anything can be kept (the bound is above 0)} */
    public boolean enabled() {
        return bound > 0;
    }

    /** {@return the kept encoding of {@code content} in {@code coding}, as a read-only view of its own, or null} */
    public ByteBuffer get(Object content, Coding coding) {
        ByteBuffer b;
        synchronized (kept) {
            b = kept.get(new Key(content, coding));
        }
        if (b == null) {
            return null;
        }
        hits.increment();
        return b.duplicate();
    }

    /**
     * {@return the kept encoding's view as {@link #get} gives it, without counting a hit (a HEAD wants
     * its length only); it counts as a use for the least-recently-used order all the same}
     */
    public ByteBuffer peek(Object content, Coding coding) {
        synchronized (kept) {
            ByteBuffer b = kept.get(new Key(content, coding));
            return b == null ? null : b.duplicate();
        }
    }

    /**
     * Keeps {@code encoded} as the encoding of {@code content} in {@code coding}, when it fits the bound,
     * making room by dropping the least recently used.
     *
     * @return a read-only view of what is kept (a copy of {@code encoded} at its exact size), or
     *     {@code encoded} itself when it is not kept
     */
    public ByteBuffer put(Object content, Coding coding, ByteBuffer encoded) {
        int size = encoded.remaining();
        long cost = size + (long) ENTRY_OVERHEAD;
        if (cost > bound) {
            return encoded;
        }
        ByteBuffer copy = ByteBuffer.allocate(size).put(encoded.duplicate()).flip().asReadOnlyBuffer();
        synchronized (kept) {
            ByteBuffer old = kept.put(new Key(content, coding), copy);
            bytes += cost - (old == null ? 0 : old.capacity() + ENTRY_OVERHEAD);
            Iterator<Map.Entry<Key, ByteBuffer>> eldest = kept.entrySet().iterator();
            while (bytes > bound && eldest.hasNext()) {
                bytes -= eldest.next().getValue().capacity() + ENTRY_OVERHEAD;
                eldest.remove();
            }
        }
        return copy.duplicate();
    }

    /** {@return how many answers were served from a kept encoding} */
    public long hits() {
        return hits.sum();
    }

    /** {@return the bytes kept now, each entry's {@link #ENTRY_OVERHEAD} included} */
    public long bytes() {
        synchronized (kept) {
            return bytes;
        }
    }
}
