package dev.brisk.internal.body;

import dev.brisk.HttpException;
import dev.brisk.internal.web.BodyUnavailableException;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A buffered request body in a temporary file (readable by its owner only), its size counted against
 * the spool disk budget: a declared length reserves it all before the body is read, a chunked body in
 * steps of 1 MiB as it grows. The file is deleted when the last holder lets go, with the streams
 * opened on it; {@link #bytes} reads it into one array once, reserved against the memory budget.
 *
 * <p>Threads: {@link #append} and {@link #finish} on the connection's loop before the body is handed
 * over (disk writes there are short: they go to the page cache); then the {@link RequestBody} contract.
 */
final class SpooledBody implements RequestBody {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final long DISK_STEP = 1 << 20;

    private final BodyStore store;
    private final Path file;
    private final AtomicInteger holders = new AtomicInteger(1);
    private FileChannel out;
    private long size;
    private long diskReserved;
    private long memoryReserved;
    private byte[] whole;
    /** Streams opened on the file; closed when it is deleted. Handler thread. */
    private List<InputStream> readers;

    private SpooledBody(BodyStore store, Path file, FileChannel out, long diskReserved) {
        this.store = store;
        this.file = file;
        this.out = out;
        this.diskReserved = diskReserved;
    }

    /**
     * A new, empty file in the store's directory.
     *
     * @param reserved disk already reserved for it (a declared length); it is given back with the file
     */
    static SpooledBody create(BodyStore store, long reserved) throws IOException {
        Path f = store.spool().newFile();
        try {
            return new SpooledBody(store, f, FileChannel.open(f, StandardOpenOption.WRITE), reserved);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(f);
            throw e;
        }
    }

    /** Appends {@code b[off..off+len)}; false when the disk budget cannot take them. */
    boolean append(byte[] b, int off, int len) throws IOException {
        return append(ByteBuffer.wrap(b, off, len));
    }

    /** Appends what {@code src} has remaining (consuming it); false when the disk budget cannot take it. */
    boolean append(ByteBuffer src) throws IOException {
        int len = src.remaining();
        long need = size + len - diskReserved;
        if (need > 0) {
            long step = Math.max(need, DISK_STEP);
            if (!store.disk().tryReserve(step)) {
                if (!store.disk().tryReserve(need)) {
                    return false;
                }
                step = need;
            }
            diskReserved += step;
        }
        while (src.hasRemaining()) {
            out.write(src);
        }
        size += len;
        return true;
    }

    /** The body is whole: the file is closed for writing and the disk reserved beyond its size given back. */
    void finish() throws IOException {
        out.close();
        out = null;
        store.disk().release(diskReserved - size);
        diskReserved = size;
    }

    /** The temporary file (for tests: it is gone once the body is released). */
    Path file() {
        return file;
    }

    @Override
    public long length() {
        return size;
    }

    @Override
    public byte[] bytes() {
        byte[] w = whole;
        if (w != null) {
            return w;
        }
        if (size > BodyStore.MAX_ARRAY) {
            throw new HttpException(413, "Request body is too large to read whole: read it as a stream");
        }
        long cost = store.arrayCost(size);
        if (!store.memory().tryReserve(cost)) {
            throw new BodyUnavailableException("Service Unavailable: no request-body memory free to read the "
                    + "body, retry shortly");
        }
        w = BodyStore.newArray(size);
        if (w == null) {
            store.memory().release(cost);
            throw new BodyUnavailableException("Service Unavailable: no request-body memory free to read the "
                    + "body, retry shortly");
        }
        memoryReserved = cost;
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(w, 0, w.length) != w.length) {
                throw new IOException("the spooled body's file is shorter than the body");
            }
        } catch (IOException e) {
            // given back now: a caller that asks again reserves again, and would leave this one behind
            store.memory().release(cost);
            memoryReserved = 0;
            throw new UncheckedIOException("reading a spooled request body failed", e);
        }
        whole = w;
        return w;
    }

    @Override
    public InputStream stream() {
        try {
            InputStream in = Files.newInputStream(file);
            if (readers == null) {
                readers = new ArrayList<>(1);
            }
            readers.add(in);
            return in;
        } catch (IOException e) {
            throw new UncheckedIOException("opening a spooled request body failed", e);
        }
    }

    @Override
    public boolean retain() {
        return holders.getAndUpdate(h -> h == 0 ? 0 : h + 1) != 0;
    }

    @Override
    public void release() {
        if (holders.getAndUpdate(h -> h == 0 ? 0 : h - 1) == 1) {
            free();
        }
    }

    private void free() {
        if (out != null) {
            closeQuietly(out); // the body never became whole (refused, or its client left)
            out = null;
        }
        if (readers != null) {
            readers.forEach(SpooledBody::closeQuietly);
            readers = null;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete the spooled request body " + file, e);
        }
        store.disk().release(diskReserved);
        diskReserved = 0;
        store.memory().release(memoryReserved);
        memoryReserved = 0;
        whole = null;
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing a spooled request body failed", e);
        }
    }
}
