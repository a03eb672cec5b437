package dev.brisk.events.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where wide {@code /search} answers are made and sent, away from the event loop: a few render threads
 * of their own, and a bound on the wide answers in flight across the whole server, cached or not.
 *
 * <p>A wide answer is admitted on the request's thread without blocking: one still to be made
 * ({@link #submit}) is queued for a render thread, one made already ({@link #send}) is not; either way
 * the request gets back an {@link InputStream} to hand to {@code Context.stream}. The server pumps
 * that stream on a virtual thread, a piece at a time (a read waits for the render), and the event loop
 * writes each piece between its other work. The answer holds its slot from admission until the stream
 * is closed (sent, failed, or the connection gone), so at most {@code maxInFlight} wide answers are
 * being made or written at once, however slowly clients read; one more is refused ({@code null}), and
 * the caller answers 503.
 *
 * <p>Thread-safe. {@link #close()} stops the render threads; a stream still waiting then fails.
 */
public final class WideAnswers implements AutoCloseable {
    private final ExecutorService threads;
    private final Semaphore slots;
    private final int maxInFlight;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder refused = new LongAdder();

    /**
     * @param threads     render threads (platform threads: a render is CPU work, never a wait)
     * @param maxInFlight wide answers admitted and not yet sent, at most
     */
    public WideAnswers(int threads, int maxInFlight) {
        if (threads < 1 || maxInFlight < 1) {
            throw new IllegalArgumentException("threads " + threads + " and maxInFlight " + maxInFlight + " must be 1 or more");
        }
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "events-wide-render-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.slots = new Semaphore(maxInFlight);
        this.maxInFlight = maxInFlight;
    }

    /**
     * Admits a wide answer and queues {@code render}, which returns the bytes to send (a buffer the
     * stream reads through its own position); never blocks.
     *
     * @return the body stream, to be closed by whoever takes it; null when {@code maxInFlight} answers
     *         are already in flight
     */
    public InputStream submit(Callable<ByteBuffer> render) {
        if (!slots.tryAcquire()) {
            refused.increment();
            return null;
        }
        try {
            Future<ByteBuffer> f = threads.submit(render);
            admitted.increment();
            return new PendingBody(f, slots);
        } catch (RejectedExecutionException e) { // closed
            slots.release();
            refused.increment();
            return null;
        }
    }

    /**
     * Admits a wide answer whose body is made already (a cached page): no render, only the bound on
     * answers in flight; never blocks.
     *
     * @param body the bytes to send (read through the stream's own position)
     * @return the body stream, to be closed by whoever takes it; null when {@code maxInFlight} answers
     *         are already in flight
     */
    public InputStream send(ByteBuffer body) {
        if (!slots.tryAcquire()) {
            refused.increment();
            return null;
        }
        admitted.increment();
        return new PendingBody(java.util.concurrent.CompletableFuture.completedFuture(body), slots);
    }

    /** Wide answers admitted so far. */
    public long admitted() {
        return admitted.sum();
    }

    /** Wide answers refused so far because {@code maxInFlight} were in flight. */
    public long refused() {
        return refused.sum();
    }

    /** Wide answers admitted and not yet sent. */
    public int inFlight() {
        return maxInFlight - slots.availablePermits();
    }

    @Override
    public void close() {
        for (Runnable queued : threads.shutdownNow()) {
            if (queued instanceof Future<?> f) {
                f.cancel(false); // a stream still waiting for it fails instead of waiting forever
            }
        }
    }

    /**
     * A wide answer's body: the first read waits for its render, later reads copy from the result.
     * Read by one thread (the server's stream pump); {@link #close} may come from any thread, once or
     * more: it gives the slot back exactly once and cancels a render not yet done.
     */
    private static final class PendingBody extends InputStream {
        private final Future<ByteBuffer> render;
        private final Semaphore slots;
        private final AtomicBoolean closed = new AtomicBoolean();
        private ByteBuffer data;

        PendingBody(Future<ByteBuffer> render, Semaphore slots) {
            this.render = render;
            this.slots = slots;
        }

        @Override
        public int read() throws IOException {
            ByteBuffer d = data();
            return d.hasRemaining() ? d.get() & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            ByteBuffer d = data();
            if (!d.hasRemaining()) {
                return -1;
            }
            int n = Math.min(len, d.remaining());
            d.get(b, off, n);
            return n;
        }

        private ByteBuffer data() throws IOException {
            ByteBuffer d = data;
            if (d != null) {
                return d;
            }
            if (closed.get()) {
                throw new IOException("stream closed");
            }
            try {
                d = render.get().duplicate();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for the render");
            } catch (ExecutionException e) {
                throw new IOException("the render failed", e.getCause());
            } catch (java.util.concurrent.CancellationException e) {
                throw new IOException("the render was cancelled", e);
            }
            data = d;
            return d;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                render.cancel(true);
                data = null;
                slots.release();
            }
        }
    }
}
