package dev.brisk.internal.sse;

import dev.brisk.SseEvent;
import dev.brisk.SseSink;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A Server-Sent Events stream: the {@link SseSink} the app sends to, and the response body stream the
 * connection's pump reads (the same machinery as any streamed body, so every engine and the TLS wire
 * carry it unchanged). One slot between the two: a send puts its event's bytes there and waits; the
 * pump takes them, writes them, and its next read tells the sender they were taken by the socket. While
 * the slot stays empty for the heartbeat interval, a read returns a comment line instead.
 *
 * <pre>
 *   sender:  slot free ──put──▶ waiting ──the pump read again (the bytes were written)──▶ true
 *                                  └── the stream ended first ──▶ false
 *   pump:    read ──slot filled──▶ its bytes (written by the pump) ──read again──▶ ...
 *              ├── nothing for the heartbeat interval ──▶ ":" comment
 *              └── closed by the app, slot empty ──▶ end of stream (the response ends)
 *   ended: the pump closed the stream (the client left, a write failed, the response is over)
 * </pre>
 *
 * <p>The app's handler starts on a virtual thread at the pump's first read: the response head is out
 * by then, so its first send can be written at once. A stream closed before that read runs its handler
 * all the same, with the sink closed, so the handler runs exactly once whatever happens to the client.
 *
 * <p>Threads: {@link #read} and {@link #close} on the pump's thread; the {@link #sink}'s methods on
 * any thread. Everything under one lock.
 */
public final class EventStream extends InputStream implements dev.brisk.internal.web.DrainableBody {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.US_ASCII);

    private final String lastEventId;
    private final Consumer<SseSink> handler;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long heartbeatNanos = SseSink.DEFAULT_HEARTBEAT.toNanos();
    private boolean started;
    /** The bytes of the event being sent, from {@link #slotPos}; null when the slot is free. */
    private byte[] slot;
    private int slotPos;
    private long slotSeq;
    /** Sends so far; the last one the socket took; the one whose bytes the pump is writing (0: none). */
    private long sent;
    private long accepted;
    private long inFlight;
    private boolean closing;
    private boolean ended;
    private final List<Runnable> onClose = new ArrayList<>(1);
    private final Sink sink = new Sink();

    /**
     * @param lastEventId the request's {@code Last-Event-ID}, or null
     * @param handler runs once, on a virtual thread, when the stream starts
     */
    public EventStream(String lastEventId, Consumer<SseSink> handler) {
        this.lastEventId = lastEventId;
        this.handler = handler;
    }

    /** The stream as the app sees it. */
    public SseSink sink() {
        return sink;
    }

    /** The app's side: any thread. */
    private final class Sink implements SseSink {

        @Override
        public boolean send(SseEvent e) {
            if (e == null) {
                throw new IllegalArgumentException("event must not be null");
            }
            return offer(format(e));
        }

        @Override
        public boolean comment(String text) {
            StringBuilder b = new StringBuilder();
            for (String line : lines(text == null ? "" : text)) {
                b.append(':').append(' ').append(line).append('\n');
            }
            return offer(b.toString().getBytes(StandardCharsets.UTF_8));
        }

        private boolean offer(byte[] bytes) {
            lock.lock();
            try {
                if (!closing && !ended && Thread.currentThread() instanceof dev.brisk.internal.transport.LoopThread) {
                    // a send waits until the client took the event, which takes the loop's writes: on a loop's own
                    // thread (an event-loop route) that wait could stop this loop's every connection for good
                    throw new IllegalStateException("an SSE send waits for the client, which an I/O loop's thread must"
                            + " not do (an event-loop route's handler): send from a virtual thread");
                }
                while (slot != null && !closing && !ended) {
                    changed.await();
                }
                if (closing || ended) {
                    return false;
                }
                slot = bytes;
                slotPos = 0;
                long seq = ++sent;
                slotSeq = seq;
                changed.signalAll();
                // the event is on its way now: an interrupt does not make it "not sent"; the wait ends with the
                // socket taking it or the stream (bounded by write-timeout), and the interrupt is kept for the caller
                boolean interrupted = false;
                while (accepted < seq && !ended) {
                    try {
                        changed.await();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return accepted >= seq;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public SseSink heartbeat(Duration interval) {
            if (interval == null || interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("heartbeat interval must be positive: " + interval);
            }
            lock.lock();
            try {
                heartbeatNanos = interval.toNanos();
                changed.signalAll(); // the pump's wait restarts with the new interval
            } finally {
                lock.unlock();
            }
            return this;
        }

        @Override
        public String lastEventId() {
            return lastEventId;
        }

        @Override
        public boolean isClosed() {
            lock.lock();
            try {
                return closing || ended;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public SseSink onClose(Runnable callback) {
            boolean now;
            lock.lock();
            try {
                now = closing || ended;
                if (!now) {
                    onClose.add(callback);
                }
            } finally {
                lock.unlock();
            }
            if (now) {
                callback.run();
            }
            return this;
        }

        @Override
        public void close() {
            end(false);
        }
    }

    /** The event as {@code text/event-stream} lines, ending with the blank line that dispatches it. */
    static byte[] format(SseEvent e) {
        StringBuilder b = new StringBuilder(e.data().length() + 32);
        if (e.event() != null) {
            b.append("event: ").append(e.event()).append('\n');
        }
        if (e.id() != null) {
            b.append("id: ").append(e.id()).append('\n');
        }
        if (e.retry() != null) {
            Duration r = e.retry();
            // rounded up, so a sub-millisecond retry never becomes "retry: 0" (a reconnect loop)
            b.append("retry: ").append(r.toMillis() + (r.toNanosPart() % 1_000_000 == 0 ? 0 : 1)).append('\n');
        }
        for (String line : lines(e.data())) {
            b.append("data: ").append(line).append('\n');
        }
        b.append('\n');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code s} split at CRLF, CR and LF (the three line ends of the format): a lone CR must not pass as data. */
    static List<String> lines(String s) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                out.add(s.substring(start, i));
                if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    // ---- the body (the pump's thread) ---------------------------------------------------------------

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        boolean start = false;
        lock.lock();
        try {
            if (!started) {
                started = true;
                start = true;
            }
            if (inFlight != 0) {
                accepted = inFlight; // the pump reads again only once its last piece was written
                inFlight = 0;
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (start) {
            Thread.ofVirtual().name("brisk-sse").start(this::runHandler);
        }
        lock.lock();
        try {
            long deadline = System.nanoTime() + heartbeatNanos;
            long interval = heartbeatNanos;
            while (slot == null && !closing && !ended) {
                if (interval != heartbeatNanos) {
                    interval = heartbeatNanos;
                    deadline = System.nanoTime() + interval;
                }
                long wait = deadline - System.nanoTime();
                if (wait <= 0) {
                    System.arraycopy(HEARTBEAT, 0, b, off, Math.min(len, HEARTBEAT.length));
                    return Math.min(len, HEARTBEAT.length);
                }
                changed.awaitNanos(wait);
            }
            if (slot == null) {
                return -1; // closed by the app and nothing left to send, or over
            }
            int n = Math.min(len, slot.length - slotPos);
            System.arraycopy(slot, slotPos, b, off, n);
            slotPos += n;
            if (slotPos == slot.length) {
                inFlight = slotSeq;
                slot = null;
                changed.signalAll(); // the next sender may fill the slot while these bytes are written
            }
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("event stream cancelled");
        } finally {
            lock.unlock();
        }
    }

    private void runHandler() {
        try {
            handler.accept(sink);
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "SSE handler failed; the stream is closed", t);
            end(false);
        }
    }

    /** A shutdown began: the stream ends as if the app closed it (what was sent goes out first). */
    @Override
    public void drain() {
        end(false);
    }

    /**
     * The pump is done with the body (it ended, the client left, or a write failed): every waiting
     * sender learns the stream is over. A stream closed before its first read (the client left before it
     * could start; a {@code HEAD}) still runs its handler, once, with the sink closed: its
     * {@link SseSink#onClose} callbacks run at once, so an app's clean-up pairs with every call.
     */
    @Override
    public void close() {
        boolean start;
        lock.lock();
        try {
            start = !started;
            started = true;
        } finally {
            lock.unlock();
        }
        end(true);
        if (start) {
            Thread.ofVirtual().name("brisk-sse").start(this::runHandler);
        }
    }

    /**
     * The stream is over ({@code body}: the pump let go of the body) or closing (the app closed it:
     * what was sent goes out, then the body ends). The close callbacks run once, at the first of the two.
     */
    private void end(boolean body) {
        List<Runnable> callbacks;
        lock.lock();
        try {
            boolean first = !closing && !ended;
            if (body) {
                ended = true;
            } else {
                closing = true;
            }
            changed.signalAll();
            if (!first) {
                return;
            }
            callbacks = new ArrayList<>(onClose);
            onClose.clear();
        } finally {
            lock.unlock();
        }
        callbacks.forEach(EventStream::runSafely);
    }

    private static void runSafely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "SSE onClose callback failed", e);
        }
    }
}
