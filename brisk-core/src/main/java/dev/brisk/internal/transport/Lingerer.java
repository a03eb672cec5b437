package dev.brisk.internal.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The blocking engine's lingering closes, all on one thread of their own: a connection whose answer is
 * written and whose output is shut hands its socket here, and its own thread ends. Each socket is read
 * and dropped one buffer per readiness, in turn with the others, until its client's end, its byte bound
 * or its deadline, then closed. On a connection's own (virtual) thread a refused upload would drain
 * until its socket is empty before the next thread runs: hundreds of them at once kept the one carrier
 * of a small machine busy for hundreds of milliseconds while a plain request waited in its queue.
 *
 * <pre>
 *   add ──▶ (registered, non-blocking) ──read* ──▶ end of stream / bound / deadline / stop ──▶ closed, ended.run()
 * </pre>
 *
 * <p>Threads: {@link #add} and {@link #stop} from any thread; the rest on the lingerer's own thread.
 */
final class Lingerer {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final int BUFFER = 16 * 1024;
    /** How often deadlines are looked at when nothing is ready. */
    private static final long SCAN_MILLIS = 50;

    private final Selector selector;
    private final ConcurrentLinkedQueue<Drain> incoming = new ConcurrentLinkedQueue<>();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(BUFFER);
    private final Thread thread;
    private volatile boolean running = true;

    /** One socket being drained; {@link #end} at most once, whoever gets there first. */
    private static final class Drain {
        final SocketChannel ch;
        final long deadline;
        final Runnable ended;
        final AtomicBoolean over = new AtomicBoolean();
        long left;

        Drain(SocketChannel ch, long maxBytes, long deadline, Runnable ended) {
            this.ch = ch;
            this.left = maxBytes;
            this.deadline = deadline;
            this.ended = ended;
        }

        void end() {
            if (!over.compareAndSet(false, true)) {
                return;
            }
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            ended.run();
        }
    }

    Lingerer() throws IOException {
        selector = Selector.open();
        thread = Thread.ofPlatform().name("brisk-linger").daemon(true).start(this::run);
    }

    /**
     * Drains {@code ch} (its output shut) for at most {@code maxBytes} and until {@code deadline} (the
     * {@link System#nanoTime} clock), then closes it and runs {@code ended}. Any thread; the caller
     * must not use {@code ch} again.
     */
    void add(SocketChannel ch, long maxBytes, long deadline, Runnable ended) {
        Drain d = new Drain(ch, maxBytes, deadline, ended);
        incoming.add(d);
        if (!running) {
            d.end(); // stopped meanwhile: nobody would drain it
            incoming.remove(d);
            return;
        }
        selector.wakeup();
    }

    /** Ends every drain (their sockets closed) and the thread; waits for the thread a second at most. */
    void stop() {
        running = false;
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        endAll();
    }

    private void run() {
        long nextScan = System.nanoTime();
        try {
            while (running) {
                register();
                selector.select(SCAN_MILLIS);
                for (SelectionKey k : selector.selectedKeys()) {
                    readOnce((Drain) k.attachment(), k);
                }
                selector.selectedKeys().clear();
                long now = System.nanoTime();
                if (now - nextScan >= 0) {
                    nextScan = now + TimeUnit.MILLISECONDS.toNanos(SCAN_MILLIS);
                    for (SelectionKey k : selector.keys()) {
                        Drain d = (Drain) k.attachment();
                        if (!k.isValid() || !d.ch.isOpen() || now - d.deadline > 0) {
                            k.cancel();
                            d.end();
                        }
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            LOG.log(System.Logger.Level.WARNING, "lingering closes stopped", e);
        } finally {
            endAll();
        }
    }

    private void register() {
        Drain d;
        while ((d = incoming.poll()) != null) {
            try {
                d.ch.configureBlocking(false);
                d.ch.register(selector, SelectionKey.OP_READ, d);
            } catch (IOException | RuntimeException e) {
                d.end(); // closed meanwhile (a stop, a forced close): nothing to drain
            }
        }
    }

    /** One buffer, as a connection reading a request takes one per readiness. */
    private void readOnce(Drain d, SelectionKey k) {
        try {
            scratch.clear();
            int n = d.ch.read(scratch);
            if (n < 0 || (d.left -= n) < 0) {
                k.cancel();
                d.end();
            }
        } catch (IOException e) {
            k.cancel();
            d.end();
        }
    }

    private void endAll() {
        List<Drain> left = new ArrayList<>();
        Drain d;
        while ((d = incoming.poll()) != null) {
            left.add(d);
        }
        try {
            for (SelectionKey k : selector.keys()) {
                left.add((Drain) k.attachment());
            }
        } catch (ClosedSelectorException ignored) {
            // already closed: its drains ended then
        }
        for (Drain x : left) {
            x.end();
        }
        if (!running) {
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
