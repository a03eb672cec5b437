package dev.brisk.internal.body;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.HttpException;
import dev.brisk.internal.http.BodySink;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request body streamed to its handler as it arrives: the connection copies decoded body bytes into
 * a fixed window ({@link #WINDOW} bytes, reserved against the memory budget by whoever makes the
 * stream) and the handler reads them out. When the window is full the connection stops reading the
 * socket, so a client sends no faster than the handler reads (TCP's own flow control does the rest);
 * once the handler has emptied half of it, the connection is asked for more.
 *
 * <pre>
 *   OPEN ──(connection) end──▶ ENDED: the rest of the window is read, then -1
 *     └──(connection) fail: bad framing, over the limit, timeout, client gone──▶ FAILED: read throws
 * </pre>
 *
 * <p>Reads throw unchecked: {@link HttpException} (413 over the route's limit, 400 bad chunk framing,
 * 408 the client stopped sending) or {@link ClientDisconnectedException}, which a handler lets
 * propagate to be answered as usual.
 *
 * <p>Threads: the {@link BodySink} methods, {@link #room}, {@link #end} and {@link #fail} on the
 * connection's loop; the {@code read} methods on one handler thread; {@link RequestBody} as its
 * contract says.
 */
public final class BodyStream extends InputStream implements BodySink, RequestBody {
    /** Bytes of body held for the handler at most, per stream. */
    public static final int WINDOW = 32 * 1024;

    /** How the stream reaches its connection. */
    public interface Feed {
        /**
         * The handler made room in {@code stream}'s window, which the connection found full, or waits
         * for its first bytes: the connection reads on (first sending {@code 100 Continue} if the client
         * waits for it). Any thread; returns at once.
         */
        void more(BodyStream stream);

        /**
         * Waits until {@code f} completes (bytes arrived in {@code stream}, or it ended or failed), on
         * the handler's thread: a blocking loop's own thread serves the connection meanwhile.
         *
         * @throws IOException when the wait was interrupted
         */
        void awaitBytes(BodyStream stream, CompletableFuture<Void> f) throws IOException;
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final ByteBudget budget;
    private final Feed feed;
    private final long limit;
    private final int window;
    private final AtomicInteger holders = new AtomicInteger(1);
    // guarded by lock
    private byte[] ring;
    private int head;
    private int count;
    private boolean ended;
    private RuntimeException failure;
    /** The connection found the window full and stopped reading: the reader must ask for more. */
    private boolean starved;
    /** The reader asked for bytes at least once. */
    private boolean started;
    private CompletableFuture<Void> waiter;
    // the loop's only
    private long received;

    /**
     * @param budget the memory budget its {@link #WINDOW} was reserved from; given back when released
     * @param limit the most body bytes it may carry (413 beyond)
     */
    public BodyStream(ByteBudget budget, Feed feed, long limit) {
        this(budget, feed, limit, WINDOW);
    }

    /**
     * @param budget the memory budget its {@code window} was reserved from; given back when released
     * @param limit the most body bytes it may carry (413 beyond)
     * @param window the bytes it holds for the handler at most (HTTP/2: the stream's flow-control window)
     */
    public BodyStream(ByteBudget budget, Feed feed, long limit, int window) {
        this.budget = budget;
        this.feed = feed;
        this.limit = limit;
        this.window = window;
        this.ring = new byte[window];
    }

    /**
     * The reader is to ask the connection for more ({@link Feed#more}) once it has read the window down
     * to half, whether or not it was ever full: for a connection that lets the client send only as far as
     * it has room (HTTP/2's window), which never finds it full. Loop thread.
     */
    public void askWhenHalfRead() {
        lock.lock();
        try {
            starved = true;
        } finally {
            lock.unlock();
        }
    }

    // ---- the connection's side --------------------------------------------------------------

    /** {@return the most bytes it holds for the handler} */
    public int capacity() {
        return window;
    }

    /** Free bytes in the window; at 0 the reader is told to ask for more once it has read. Loop thread. */
    public int room() {
        lock.lock();
        try {
            int r = ring == null ? 0 : ring.length - count;
            if (r == 0) {
                starved = true;
            }
            return r;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void ensureRoom(long more) throws HttpParseException {
        if (more > limit - received) {
            throw new HttpParseException(413, "Request body is larger than " + limit + " bytes");
        }
    }

    /** Copies body bytes into the window; {@code len} is at most {@link #room}. Loop thread. */
    @Override
    public void append(byte[] b, int off, int len) throws HttpParseException {
        ensureRoom(len);
        received += len;
        CompletableFuture<Void> w;
        lock.lock();
        try {
            if (ring == null || failure != null) {
                return; // nobody will read it
            }
            if (len > ring.length - count) {
                // a caller past the room it was given would overwrite unread bytes: fail, never corrupt
                throw new IllegalStateException("body bytes beyond the stream's window: " + len + " > "
                        + (ring.length - count));
            }
            int tail = (head + count) % ring.length;
            int first = Math.min(len, ring.length - tail);
            System.arraycopy(b, off, ring, tail, first);
            System.arraycopy(b, off + first, ring, 0, len - first);
            count += len;
            w = takeWaiter();
        } finally {
            lock.unlock();
        }
        complete(w);
    }

    /** Every byte of the body is in: the reader gets what the window holds, then the end. Loop thread. */
    public void end() {
        CompletableFuture<Void> w;
        lock.lock();
        try {
            ended = true;
            w = takeWaiter();
        } finally {
            lock.unlock();
        }
        complete(w);
    }

    /** Whether every byte of the body arrived. */
    public boolean ended() {
        lock.lock();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }

    /** The body cannot be read to its end: the reader's next read throws {@code e}. No-op once ended. */
    public void fail(RuntimeException e) {
        CompletableFuture<Void> w;
        lock.lock();
        try {
            if (ended || failure != null) {
                return;
            }
            failure = e;
            w = takeWaiter();
        } finally {
            lock.unlock();
        }
        complete(w);
    }

    private CompletableFuture<Void> takeWaiter() {
        CompletableFuture<Void> w = waiter;
        waiter = null;
        return w;
    }

    private static void complete(CompletableFuture<Void> w) {
        if (w != null) {
            w.complete(null);
        }
    }

    // ---- the handler's side -----------------------------------------------------------------

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        boolean wake;
        int n;
        lock.lock();
        try {
            while (count == 0) {
                if (failure != null) {
                    throw failure;
                }
                if (ended) {
                    return -1;
                }
                if (ring == null) {
                    throw new ClientDisconnectedException("the request is over: its body can no longer be read");
                }
                CompletableFuture<Void> f = new CompletableFuture<>();
                waiter = f;
                boolean ask = !started || starved;
                started = true;
                starved = false;
                lock.unlock();
                try {
                    if (ask) {
                        feed.more(this);
                    }
                    feed.awaitBytes(this, f);
                } finally {
                    lock.lock();
                }
            }
            n = Math.min(len, count);
            int first = Math.min(n, ring.length - head);
            System.arraycopy(ring, head, b, off, first);
            System.arraycopy(ring, 0, b, off + first, n - first);
            head = (head + n) % ring.length;
            count -= n;
            // ask for more once half the window is free: fewer, larger reads than at every byte taken
            wake = starved && count <= ring.length / 2;
            if (wake) {
                starved = false;
            }
        } finally {
            lock.unlock();
        }
        if (wake) {
            feed.more(this);
        }
        return n;
    }

    @Override
    public int available() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    // ---- RequestBody --------------------------------------------------------------------------

    @Override
    public long length() {
        return -1;
    }

    @Override
    public byte[] bytes() {
        throw new IllegalStateException(
                "this route streams its request body (Route.streamBody): read it with bodyAsStream()");
    }

    @Override
    public InputStream stream() {
        return this;
    }

    @Override
    public boolean retain() {
        return holders.getAndUpdate(h -> h == 0 ? 0 : h + 1) != 0;
    }

    @Override
    public void release() {
        if (holders.getAndUpdate(h -> h == 0 ? 0 : h - 1) == 1) {
            lock.lock();
            try {
                ring = null;
                count = 0;
            } finally {
                lock.unlock();
            }
            budget.release(window);
        }
    }
}
