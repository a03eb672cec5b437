package dev.brisk.internal.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bytes {@code [start, start + length)} of an open file, as a response body. A plain wire sends it
 * with {@code FileChannel.transferTo} from the channel itself (page cache to socket, no heap copy); any
 * other reader (a TLS wire's bounded pump, the compressor) reads it as a stream with positional reads,
 * so the channel's own position is never used.
 *
 * <p>Owns the channel and one {@link OpenFiles} permit: {@link #close} (idempotent, any thread) closes
 * the one and returns the other. The stream reads are for one thread at a time.
 */
public final class FileRegion extends SizedBody {
    private final FileChannel channel;
    private final long start;
    private final long length;
    private final Runnable release;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Bytes already read through the stream methods. */
    private long read;

    /**
     * @param channel the open file, owned from now on
     * @param start the first byte
     * @param length how many bytes
     * @param release called once, on close (returns the open-file permit)
     */
    public FileRegion(FileChannel channel, long start, long length, Runnable release) {
        this.channel = channel;
        this.start = start;
        this.length = length;
        this.release = release;
    }

    /** {@return the open file} */
    public FileChannel channel() {
        return channel;
    }

    /** {@return the file position of the region's first byte} */
    public long start() {
        return start;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        long left = length - read;
        if (left <= 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, left)), start + read);
        if (n < 0) {
            return -1; // the file shrank: the reader sees a short body and ends the connection
        }
        read += n;
        return n;
    }

    /**
     * Reads the region's next bytes straight into {@code dst} (up to its remaining room) with positional
     * reads: into a direct buffer, the file's bytes land where the reader wants them, without the copy
     * through a temporary buffer that {@link #read(byte[], int, int)} costs. As the stream reads, it
     * moves the region's read position.
     *
     * @return the bytes read, or -1 when the region is all read (or the file ended short of it)
     */
    public int read(ByteBuffer dst) throws IOException {
        long left = length - read;
        if (left <= 0) {
            return -1;
        }
        int room = (int) Math.min(dst.remaining(), left);
        if (room == 0) {
            return 0;
        }
        int limit = dst.limit();
        dst.limit(dst.position() + room);
        int n;
        try {
            n = channel.read(dst, start + read);
        } finally {
            dst.limit(limit);
        }
        if (n < 0) {
            return -1;
        }
        read += n;
        return n;
    }

    @Override
    public long skip(long n) {
        long s = Math.max(0, Math.min(n, length - read));
        read += s;
        return s;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, length - read);
    }

    /** Whether {@link #close} ran. */
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // a read-only file: nothing to lose
            } finally {
                release.run();
            }
        }
    }
}
