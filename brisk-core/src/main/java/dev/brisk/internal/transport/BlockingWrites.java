package dev.brisk.internal.transport;

import dev.brisk.internal.ops.LoopCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * The write side of a {@link BlockingLoop}: write calls that finish only when everything is written, and
 * what the engine's watchdog needs to bound them — when the call in progress last made progress
 * ({@code write-timeout}) and what the client has taken while it was waited on ({@code min-response-rate}).
 *
 * <p>The response rate is measured by the watchdog ({@link #checkRate}), as a blocked write cannot
 * measure itself: it reads what the write calls have sent while the client was waited on (a call after
 * one that found the socket full, or one that blocked: what a socket takes at once is not the client's
 * doing, as on the selector loops). On a virtual thread a write call returns as soon as the socket
 * takes some bytes (the JDK parks it on a non-blocking socket), so progress is seen as it comes; calls
 * offer at most 64 KiB, so that one that blocked counts little that the socket took at once. On a
 * platform thread a blocking socket returns only when all is written, so once a call of a write has
 * blocked, the rest goes out in smaller slices (a quarter of what the rate asks per window, 2 to 64 KiB),
 * and the call in progress is credited as if moving at the minimum rate, up to its slice: a client at
 * the rate or above is never cut for bytes it has not been seen to take yet; one that stalls is cut
 * once that credit is spent (a slice at the rate: 8.5 s at the defaults). Until a call has blocked,
 * calls offer 16 KiB: a stall within such a call is credited up to 16 KiB at the rate (68 s at the
 * defaults), so there {@code write-timeout} (30 s, from the call's start) comes first.
 *
 * <p>Threads: {@link #write} and {@link #transfer} on the connection's thread (one at a time);
 * {@link #checkWrite} and {@link #checkRate} on the watchdog's. A failed check closes the channel, so
 * the blocked call fails and the connection's thread closes the connection.
 */
final class BlockingWrites {
    private static final long MILLI = 1_000_000L;
    /** With a minimum response rate, the least one write call offers on a platform thread (see the class). */
    static final int MIN_SLICE = 2 * 1024;
    /** With a minimum response rate, the most one write call offers. */
    static final int MAX_SLICE = 64 * 1024;
    /** With a minimum response rate, the most one write call offers on a platform thread until one has blocked. */
    static final int PLATFORM_SLICE = 16 * 1024;
    /** A write call that took this long waited for the client (copying into a socket buffer takes far less). */
    static final long BLOCKED_NANOS = 20 * MILLI;

    /** When the write in progress last made progress (0: not writing); the engine's watchdog reads it. */
    private volatile long writingSince;
    private volatile boolean writeTimedOut;
    /**
     * Response bytes the socket has taken while the client was waited on: by a write call after one that
     * wrote less than it offered (the socket was full), or by one that blocked ({@link #BLOCKED_NANOS}).
     * What a socket takes at once is not the client's doing (as on the selector loops, where the meter
     * starts when a write leaves bytes behind). Written by this connection's thread, read by the watchdog.
     */
    private volatile long sent;
    /** The write call in progress follows one that wrote less than it offered: the client is waited on. */
    private volatile boolean waiting;
    /** What the write call in progress offers (see {@link #writingSince}). */
    private volatile long offered;
    /** The watchdog found the client below {@code min-response-rate} and closed the channel. */
    private volatile boolean writeTooSlow;
    /** The most one write call offers: 0 (no limit) unless the response rate is measured. */
    private final int slice;
    /** The most once a call of the same write has blocked: {@link #slice}, or less on a platform thread. */
    private final int slowSlice;
    /** {@code min-response-rate}, or null. */
    private final DataRate.Limit rateLimit;
    /** The response rate's meter, made when the watchdog first finds the client waited on. Watchdog thread only. */
    private DataRate sendRate;
    private final double ratePerNano;
    /** What the watchdog has told the meter so far: bytes sent plus the credit of a call in progress. */
    private long credited;
    /** The byte that waits for room in {@link #transfer}. */
    private final ByteBuffer oneByte = ByteBuffer.allocate(1);

    private final SocketChannel ch;
    private final LoopCounters counters;

    /**
     * @param rate     {@code min-response-rate}, or null
     * @param platform whether the connection's thread is a platform thread (its writes block whole)
     */
    BlockingWrites(SocketChannel ch, LoopCounters counters, DataRate.Limit rate, boolean platform) {
        this.ch = ch;
        this.counters = counters;
        this.rateLimit = rate;
        // a virtual thread's write calls show their progress: no credit, and slices only so that a call
        // that blocked counts few bytes the socket took at once
        this.ratePerNano = rate == null || !platform ? 0 : rate.bytesPerSecond() / 1e9;
        this.slice = rate == null ? 0 : platform ? PLATFORM_SLICE : MAX_SLICE;
        this.slowSlice = rate == null ? 0 : !platform ? MAX_SLICE
                : (int) Math.max(MIN_SLICE, Math.min(MAX_SLICE, rate.bytesPerSecond() * (rate.windowNanos() / 1e9) / 4));
    }

    /** Writes everything (a blocking channel may write only part per call); the watchdog bounds stalls. */
    long write(ByteBuffer[] srcs, int n) throws IOException {
        long total = 0;
        boolean full = false;
        int most = slice;
        try {
            do {
                long start = System.nanoTime();
                writingSince = start;
                waiting = full; // the last call did not write all it offered: the socket waits on the client
                long k = writeSome(srcs, n, most);
                total += k;
                boolean blocked = System.nanoTime() - start >= BLOCKED_NANOS;
                if (full || blocked) {
                    sent += k; // only this thread writes it
                }
                full = k < offered;
                if (blocked) {
                    most = slowSlice; // the client is the bottleneck: smaller calls show its progress
                }
            } while (anyRemaining(srcs, n));
        } catch (IOException e) {
            throw countWriteFailure(e);
        } finally {
            writingSince = 0;
            waiting = false;
        }
        return total;
    }

    private static boolean anyRemaining(ByteBuffer[] srcs, int n) {
        for (int i = 0; i < n; i++) {
            if (srcs[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /** One write call: everything at once, or, past {@code slice} bytes, at most a slice of one buffer. */
    private long writeSome(ByteBuffer[] srcs, int n, int slice) throws IOException {
        long remaining = 0;
        ByteBuffer first = null;
        for (int i = 0; i < n; i++) {
            remaining += srcs[i].remaining();
            if (first == null && srcs[i].hasRemaining()) {
                first = srcs[i];
            }
        }
        if (slice == 0 || remaining <= slice || first == null) {
            offered = remaining;
            return n == 1 ? ch.write(srcs[0]) : ch.write(srcs, 0, n);
        }
        ByteBuffer b = first;
        int limit = b.limit();
        int k = Math.min(b.remaining(), slice);
        b.limit(b.position() + k);
        offered = k;
        try {
            return ch.write(b);
        } finally {
            b.limit(limit);
        }
    }

    /**
     * Counts why the watchdog failed a write (once), if it did, and says so: {@code e} as a
     * {@link PeerTooSlowException} then, else as it is.
     */
    private IOException countWriteFailure(IOException e) {
        if (writeTooSlow) {
            writeTooSlow = false;
            counters.slowResponse();
            return new PeerTooSlowException("the client took its bytes below min-response-rate", e);
        } else if (writeTimedOut) {
            writeTimedOut = false;
            counters.timedOut();
            return new PeerTooSlowException("the client took nothing for write-timeout", e);
        }
        return e;
    }

    /**
     * Transfers all {@code count} bytes; the watchdog bounds a stall as for {@link #write}. sendfile does
     * not wait for room on a virtual thread's socket (the JDK makes it non-blocking underneath, and
     * {@code transferTo} then answers 0 when the socket is full): one byte through a write, which does
     * wait, bridges each such gap, and the transfer goes on from the file.
     */
    long transfer(FileChannel file, long position, long count) throws IOException {
        long total = 0;
        boolean full = false;
        int most = slice;
        try {
            while (total < count) {
                long start = System.nanoTime();
                writingSince = start;
                waiting = full;
                long piece = most == 0 ? count - total : Math.min(count - total, most);
                offered = piece;
                long n = file.transferTo(position + total, piece, ch);
                if (n > 0) {
                    total += n;
                    boolean blocked = System.nanoTime() - start >= BLOCKED_NANOS;
                    if (full || blocked) {
                        sent += n;
                    }
                    full = n < piece;
                    if (blocked) {
                        most = slowSlice;
                    }
                    continue;
                }
                full = true;
                waiting = true; // the socket is full
                ByteBuffer one = oneByte.clear();
                if (file.read(one, position + total) <= 0) {
                    break; // the file is shorter than it was: the caller sees a short transfer
                }
                offered = 1;
                ch.write(one.flip()); // parks (or blocks) until the socket takes it
                total += 1;
                sent += 1;
            }
        } catch (IOException e) {
            throw countWriteFailure(e);
        } finally {
            writingSince = 0;
            waiting = false;
        }
        return total;
    }

    /** Closes the channel when a write has made no progress for {@code timeoutNanos}. Watchdog thread. */
    void checkWrite(long now, long timeoutNanos) {
        long since = writingSince;
        if (since != 0 && now - since > timeoutNanos) {
            writeTimedOut = true;
            closeChannel(); // the blocked write fails, and the connection's thread closes it
        }
    }

    /**
     * Feeds the response rate's meter with what the write calls have sent, plus, on a platform thread,
     * the credit of the call in progress (as if it moved at the minimum rate since it began, up to what
     * it offers; a credit the call does not earn holds the meter back until real bytes pass it), and
     * closes the channel when the client is below the rate. The meter runs only while the client is waited on: a write
     * call after one that found the socket full, or one that has blocked, is in progress (as on the
     * selector loops, where it starts when a write leaves bytes behind).
     * Watchdog thread.
     */
    void checkRate(long now) {
        if (rateLimit == null) {
            return;
        }
        long since = writingSince;
        boolean waited = since != 0 && (waiting || now - since >= BLOCKED_NANOS);
        long moved = sent;
        if (waited && sendRate == null) {
            credited = moved; // the first wait on this client: what it took before is not judged
            sendRate = rateLimit.meter();
        }
        if (sendRate == null) {
            return; // never waited on yet
        }
        if (waited) {
            moved += Math.min(offered, (long) (ratePerNano * Math.max(0, now - since)));
            sendRate.resume(now);
        }
        if (moved > credited) {
            sendRate.add(moved - credited, now);
            credited = moved;
        }
        if (!waited) {
            sendRate.pause(now);
        } else if (sendRate.tooSlow(now)) {
            writeTooSlow = true;
            closeChannel(); // the blocked write fails, and the connection's thread closes it
        }
    }

    private void closeChannel() {
        Linger.zero(ch); // the client does not take its bytes: drop them, do not keep them queued
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
