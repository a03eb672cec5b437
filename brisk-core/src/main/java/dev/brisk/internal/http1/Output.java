package dev.brisk.internal.http1;

import dev.brisk.internal.files.FileRegion;
import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A connection's outgoing bytes, in order: the write in progress (a pooled head buffer and an optional
 * body, gathered in one write, or a head and a {@link FileRegion} sent from the file by
 * {@link Wire#transfer}), what waits behind it, and the {@link PipelineBatch}. While a write is in
 * progress nothing else goes out, so a client that does not read makes the server hold one response at
 * most (plus one batch).
 *
 * <p>Loop thread only. Owns the head buffers it is given (they go back to the pool once written) and
 * the file regions (closed once sent, or when the connection closes, also those still waiting behind
 * the write in progress); a body buffer is only read.
 */
final class Output {
    /**
     * The most one loop turn sends from a file before letting the loop serve other connections: a fast
     * reader of a large file would otherwise keep the loop in one connection's transfer.
     */
    static final long MAX_TRANSFER_PER_TURN = 1 << 20;

    private final Wire wire;
    private final Http1Connection conn;
    private final BufferPool pool;
    private final PipelineBatch batch;
    private final long writeNanos;
    private final ByteBuffer[] gather = new ByteBuffer[2];
    /** The continuation of a whole response: only those may join the batch. */
    private final Runnable responseWritten;
    /** The continuation of a batch written alone. */
    private final Runnable batchWritten;
    private ByteBuffer head;
    private ByteBuffer body;
    private FileRegion file;
    /** Bytes of {@link #file} sent so far. */
    private long fileSent;
    private Runnable then;
    /**
     * Files of sends waiting in {@link #then} behind the write in progress: a connection that closes
     * first never runs them, so {@link #close} closes their files (a descriptor and an open-file place
     * each). Null until a file waits.
     */
    private List<FileRegion> waitingFiles;
    private long deadline;
    private boolean closed;

    Output(Wire wire, Http1Connection conn, long writeNanos, Runnable responseWritten, Runnable batchWritten) {
        this.wire = wire;
        this.conn = conn;
        this.pool = wire.outPool();
        this.batch = new PipelineBatch(pool);
        this.writeNanos = writeNanos;
        this.responseWritten = responseWritten;
        this.batchWritten = batchWritten;
    }

    /** A write is in progress (the socket did not take it all yet). */
    boolean writing() {
        return head != null;
    }

    boolean batchHolds() {
        return batch.holds();
    }

    /**
     * Writes {@code head} (and {@code body}) after anything written or batched before, then runs
     * {@code then}. A whole response that is ready while the next request is already buffered may
     * instead join the batch: then {@code then} runs at once.
     */
    void send(ByteBuffer head, ByteBuffer body, Runnable then) {
        send(head, body, null, then);
    }

    /**
     * Writes {@code head}, then {@code file} straight from the file ({@link Wire#transfersFiles} must
     * hold), after anything written or batched before; then closes {@code file} and runs {@code then}.
     */
    void sendFile(ByteBuffer head, FileRegion file, Runnable then) {
        send(head, null, file, then);
    }

    private void send(ByteBuffer head, ByteBuffer body, FileRegion file, Runnable then) {
        if (closed) {
            pool.release(head);
            if (file != null) {
                file.close();
            }
            return;
        }
        if (this.head != null) {
            // a write is in progress (the socket was full): this one follows it
            Runnable before = this.then;
            if (file != null) {
                waitingFiles().add(file);
            }
            this.then = () -> {
                before.run();
                if (file != null) {
                    waitingFiles.remove(file);
                }
                send(head, body, file, then); // closed by then: released above
            };
            return;
        }
        if (body == null && file == null && then == responseWritten && conn.mayBatch() && batch.fits(head)) {
            batch.add(head);
            pool.release(head);
            then.run();
            return;
        }
        if (batch.holds()) {
            ByteBuffer b = batch.take();
            if (body == null && b.remaining() >= head.remaining()) {
                // earlier responses first, in the same write
                b.put(head);
                pool.release(head);
                write(b.flip(), null, file, then);
            } else {
                send(b.flip(), null, null, batchWritten);
                send(head, body, file, then); // follows the batch (chained above if the socket is full)
            }
            return;
        }
        write(head, body, file, then);
    }
    /** Sends prebuilt bytes (copied into a pooled buffer when they fit). */
    void send(byte[] bytes, Runnable then) {
        ByteBuffer out = pool.acquire();
        if (bytes.length <= out.capacity()) {
            send(out.put(bytes).flip(), null, null, then);
        } else {
            pool.release(out);
            send(ByteBuffer.wrap(bytes), null, null, then);
        }
    }

    /** Writes what the batch holds, if anything: the buffered requests ran out or wait for a handler. */
    void flushBatch() {
        if (batch.holds()) {
            send(batch.take().flip(), null, null, batchWritten);
        }
    }

    /** Replaces what runs once the write in progress is done (a handler gave up on its "100 Continue"). */
    void whenWritten(Runnable next) {
        then = next;
    }

    private void write(ByteBuffer head, ByteBuffer body, FileRegion file, Runnable then) {
        this.head = head;
        this.body = body;
        this.file = file;
        this.fileSent = 0;
        this.then = then;
        deadline = wire.clock() + writeNanos;
        flush();
    }

    void onWritable() {
        if (head != null) {
            flush();
        } else {
            wire.writeInterest(false);
        }
    }

    private void flush() {
        long n = 0;
        try {
            if (head.hasRemaining() || (body != null && body.hasRemaining())) {
                gather[0] = head;
                gather[1] = body;
                n = wire.write(gather, body == null ? 1 : 2);
            }
            if (file != null && !head.hasRemaining() && (body == null || !body.hasRemaining())) {
                n += transferFile();
            }
        } catch (IOException e) {
            conn.close();
            return;
        }
        if (closed) {
            return; // the file ended early: the connection is closed
        }
        if (n > 0) {
            wire.counters().bytesOut(n);
        }
        if (head.hasRemaining() || (body != null && body.hasRemaining()) || (file != null && fileSent < file.length())) {
            if (n > 0) {
                deadline = wire.clock() + writeNanos; // a write may take long while it makes progress
            }
            wire.writeInterest(true);
            return;
        }
        wire.writeInterest(false);
        pool.release(head);
        if (file != null) {
            file.close();
        }
        head = null;
        body = null;
        file = null;
        gather[0] = null;
        gather[1] = null;
        Runnable t = then;
        then = null;
        t.run();
    }

    /**
     * Sends what the socket takes of the file now, at most {@link #MAX_TRANSFER_PER_TURN} on a
     * non-blocking wire. A file that has become shorter than its region (it was truncated while being
     * sent) cannot meet its {@code Content-Length}: the connection closes.
     */
    private long transferFile() throws IOException {
        long cap = wire.blocking() ? Long.MAX_VALUE : MAX_TRANSFER_PER_TURN;
        long total = 0;
        while (fileSent < file.length() && total < cap) {
            long n = wire.transfer(file.channel(), file.start() + fileSent, Math.min(file.length() - fileSent, cap - total));
            if (n <= 0) {
                if (file.channel().size() < file.start() + file.length()) {
                    conn.close();
                }
                break; // the socket is full
            }
            fileSent += n;
            total += n;
        }
        return total;
    }

    /** Whether the write in progress has made no progress for the write timeout. */
    boolean stalled(long now) {
        return head != null && now - deadline > 0;
    }

    /** The connection closed: buffers go back, nothing more is written. */
    void close() {
        closed = true;
        if (head != null) {
            pool.release(head);
            head = null;
            body = null;
        }
        if (file != null) {
            file.close();
            file = null;
        }
        if (waitingFiles != null) {
            for (FileRegion f : waitingFiles) {
                f.close();
            }
            waitingFiles.clear();
        }
        then = null;
        batch.discard();
    }

    private List<FileRegion> waitingFiles() {
        if (waitingFiles == null) {
            waitingFiles = new ArrayList<>(2);
        }
        return waitingFiles;
    }
}
