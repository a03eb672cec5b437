package dev.brisk.internal.transport;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;

/**
 * One connection's byte stream as its {@link Protocol} sees it: the seam between the transport, which
 * moves bytes, and the protocol, which gives them meaning. A protocol knows nothing else of the
 * transport under it: a selector loop ({@code IoLoop}), a thread blocking on one socket
 * ({@code BlockingLoop}), or a test's in-memory wire all look alike from here. The plain wire is the
 * transport's connection itself; a TLS wire will wrap one (it is the {@link Protocol} of the plain
 * wire under it, and the {@code Wire} of the protocol above it), and no protocol changes for it.
 *
 * <p>Threads: every method on the wire's loop thread ({@link #inLoop}), except {@link #execute} and
 * {@link #inLoop}, which any thread may call.
 *
 * <p>Deadlines: the protocol keeps its own and tells the wire the next one; the transport calls
 * {@link Protocol#onTimer} no later than shortly after it (a selector loop scans every connection
 * every 100 ms whatever the deadline; a blocking loop bounds its reads and waits by it).
 */
public interface Wire {
    /** Reads what is available into {@code dst}: bytes read, 0 when none (yet), -1 at end of stream. */
    int read(ByteBuffer dst) throws IOException;

    /** Writes from {@code srcs[0..count)}: bytes written, possibly fewer than offered. */
    long write(ByteBuffer[] srcs, int count) throws IOException;

    /**
     * Whether {@link #transfer} may be used: the wire passes bytes through unchanged (a plain socket), so
     * a file goes from the page cache to the socket without passing through the heap. A wire that must
     * see the bytes (a TLS wire encrypts them) says false; a file body is then read in bounded pieces
     * and given to {@link #write} like any other stream.
     */
    boolean transfersFiles();

    /**
     * Writes up to {@code count} bytes of {@code file} from {@code position} straight to the socket
     * ({@code FileChannel.transferTo}): bytes written, possibly fewer than asked, 0 when the socket is
     * full (then {@link Protocol#onWritable} follows once it has room). Only when {@link #transfersFiles}.
     * The file's own position is neither used nor moved.
     */
    long transfer(FileChannel file, long position, long count) throws IOException;

    /** Whether the protocol wants {@link Protocol#onReadable} when bytes arrive. */
    void readInterest(boolean on);

    /** Whether the protocol wants {@link Protocol#onWritable} when the socket can take more. */
    void writeInterest(boolean on);

    /** The protocol's next deadline, on {@link #clock}'s scale. */
    void deadline(long at);

    /** No deadline until the next {@link #deadline}: the protocol waits on something of its own. */
    void noDeadline();

    /** Half-closes: no more bytes go out; reading goes on. */
    void shutdownOutput() throws IOException;

    /** Closes the socket and tells the transport the connection is gone. Idempotent. */
    void close();

    /**
     * A {@link System#nanoTime()} reading for deadlines: may be as old as the loop's current turn, so a
     * deadline set from it falls due at most one turn early. Never for latencies.
     */
    long clock();

    /** Runs {@code task} on this wire's loop thread, soon. Any thread. */
    void execute(Runnable task);

    /** Whether the caller is this wire's loop thread. Any thread. */
    boolean inLoop();

    /**
     * Whether the loop thread may block: then a handler runs right on it, whatever its route's
     * dispatch says, and {@link #write} writes everything before it returns.
     */
    boolean blocking();

    /**
     * Keeps the loop thread serving this wire until {@code f} completes: for a handler running on the
     * loop thread ({@link #blocking}) that waits for bytes only this thread can read.
     *
     * @throws IllegalStateException on a loop that never runs handlers
     */
    void runUntil(CompletableFuture<?> f);

    /** The peer as {@code host:port}, or {@code unknown}. */
    String remoteAddress();

    /**
     * Hands this wire to another protocol (an upgrade): every event from now on goes to {@code next}.
     * The old protocol must not touch the wire afterwards.
     */
    void protocol(Protocol next);

    /** Buffers for bytes read, owned by the loop thread. */
    BufferPool inPool();

    /** Buffers for bytes written, owned by the loop thread. */
    BufferPool outPool();

    /** The loop's counters (written by the loop thread only). */
    LoopCounters counters();

    /** Which responses the access log keeps; null when it is off. */
    AccessLog.Sampler accessLogSampler();

    /**
     * The connection is about to be cut because the client does not take what is sent to it (a write
     * timeout, a response below the minimum rate): what the kernel still holds for it is dropped when
     * it closes (a reset, {@code SO_LINGER} 0), rather than kept, up to a send buffer's worth, for as long
     * as the client trickles. Any thread; a no-op where the transport cannot do it.
     */
    default void discardUnsent() {
    }

    /**
     * The protocol reads and takes tasks from other threads at once, for as long as the connection
     * lasts (a WebSocket: the peer may send while the app sends): a loop that blocks in a read lets
     * another thread run this wire's tasks meanwhile, so a send need not wait for the peer's next
     * bytes. Then "the loop thread" of every contract here means "the thread holding the wire's turn".
     * Called once, on the loop thread; a selector loop needs nothing for it.
     */
    default void duplex() {
    }

    /**
     * Hands the rest of a lingering close to the transport, when it drains sockets better than the
     * loop would (the blocking engine: on one thread of its own, in turn, instead of on the
     * connection's thread until its socket is empty). The output must be shut already. What arrives is
     * read and dropped for at most {@code maxBytes} and {@code nanos}, then the socket closes and
     * {@code ended} runs (on another thread). On true the wire is closed for its protocol, which must
     * not touch it again; on false (the default) nothing happened and the caller lingers itself.
     *
     * @param maxBytes the most bytes read and dropped
     * @param nanos the longest the drain lasts
     * @param ended runs once the socket is closed
     * @return whether the transport took the drain over
     */
    default boolean lingerElsewhere(long maxBytes, long nanos, Runnable ended) {
        return false;
    }

    /**
     * While on, a {@link #read} takes only bytes that have arrived already and returns 0 rather than
     * wait for more: for a protocol that must see what was received by a given moment (a drain's mark)
     * while its own thread is busy. A selector loop's reads never wait, so it needs nothing for it. Loop
     * thread; turned off again by the caller.
     */
    default void readsOnlyLook(boolean on) {
    }

    /** What the TLS handshake settled when this wire is a TLS wire, else null. */
    default dev.brisk.TlsInfo tls() {
        return null;
    }
}
