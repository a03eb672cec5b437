package dev.brisk.internal.transport;

/**
 * A minimum data rate, measured on one connection in one direction: the bytes moved while the server
 * waits on the client (a body being read, response bytes the socket has not taken) must average at
 * least {@code bytesPerSecond} over the last {@code window} of that waiting time, once {@code grace}
 * of it has passed. Time the server does not wait on the client (its handler is busy, nothing is left
 * to write) is not counted: {@link #pause} stops the clock, {@link #resume} restarts it.
 *
 * <pre>
 *   (new) ──start/resume──▶ RUNNING ◀──resume── PAUSED
 *                             │ └────pause───────▲
 *                             └─ tooSlow(now), RUNNING only: waited ≥ grace, and since the anchor
 *                                fewer than rate × (time since the anchor) bytes moved
 * </pre>
 *
 * <p>The anchor is the newest progress (an {@link #add}) at least a window old, or the start while
 * less than a window has been waited: the average is over the last window, stretched back to the
 * progress before it. Stretched, because bytes are seen in bursts, not as they flow: a socket is
 * reported writable again only once a good part of its send buffer has drained, and a blocking write
 * returns only when done, so a client that reads at exactly the rate is seen to move a burst, then
 * nothing for a while. Averaged from a burst, such a client is never below the rate; one that stalls
 * after a burst of {@code n} bytes is cut once {@code n / rate} (and a window) has passed.
 *
 * <p>Why a window and not the average since the start (Kestrel's, Jetty's): a client that sends a burst
 * and then one byte a second would keep that average above any rate for hours; here only its last
 * window (and the burst before it) counts.
 *
 * <p>Cost: progress is kept per eighth of a window, the last of each, in a ring of eleven (so one at
 * least a window old is kept once the ring is full); the anchor is then the last progress of the newest
 * such eighth, at most an eighth of a window's progress before the exact one. {@link #add} is a few
 * arithmetic operations, {@link #tooSlow} a scan of the ring. Not thread-safe: one thread owns a meter
 * (a loop thread, or the blocking engine's watchdog).
 */
public final class DataRate {
    /** Slots per window: the progress is kept per slot (its last one). */
    private static final int PER_WINDOW = 8;
    /** Enough slots that one whose last progress is at least a window old is kept once the ring is full. */
    private static final int SLOTS = PER_WINDOW + 3;

    /**
     * A rate and its timing, from the options; {@link #meter} makes a meter per connection.
     *
     * @param bytesPerSecond the least average, bytes per second (positive)
     * @param graceNanos waiting time before the rate is first judged
     * @param windowNanos the waiting time the average is taken over (positive)
     */
    public record Limit(long bytesPerSecond, long graceNanos, long windowNanos) {
        /**
         * The limit, or null when {@code bytesPerSecond} is 0 (no minimum).
         *
         * @param bytesPerSecond the least average (0: none)
         * @param graceNanos waiting time before the rate is first judged
         * @param windowNanos the waiting time the average is taken over
         * @return the limit, or null
         */
        public static Limit of(long bytesPerSecond, long graceNanos, long windowNanos) {
            return bytesPerSecond <= 0 ? null : new Limit(bytesPerSecond, graceNanos, windowNanos);
        }

        /** {@return a new meter for this limit, not started} */
        public DataRate meter() {
            return new DataRate(this);
        }
    }

    private final double bytesPerNano;
    private final long grace;
    private final long window;
    private final long slotNanos;
    /** Per slot: its number (waited time / slot length; -1: unused), its last progress's waited time, and the bytes moved before it. */
    private final long[] slot = new long[SLOTS];
    private final long[] lastAt = new long[SLOTS];
    private final long[] lastBefore = new long[SLOTS];
    private int newest;
    private long total;
    /** Waiting time before the current run. */
    private long before;
    /** When the current run began (clock), if running. */
    private long runSince;
    private boolean running;
    private boolean started;

    private DataRate(Limit limit) {
        java.util.Arrays.fill(slot, -1);
        this.bytesPerNano = limit.bytesPerSecond / 1e9;
        this.grace = limit.graceNanos;
        this.window = limit.windowNanos;
        this.slotNanos = Math.max(1, limit.windowNanos / PER_WINDOW);
    }

    /** Starts measuring afresh at {@code now}, running: nothing moved, nothing waited. */
    public void start(long now) {
        started = true;
        running = true;
        runSince = now;
        before = 0;
        total = 0;
        newest = 0;
        java.util.Arrays.fill(slot, -1);
    }

    /** The server waits on the client again (starts the meter if it never was). */
    public void resume(long now) {
        if (!started) {
            start(now);
        } else if (!running) {
            running = true;
            runSince = now;
        }
    }

    /** The server no longer waits on the client: this time does not count. */
    public void pause(long now) {
        if (running) {
            before = waited(now);
            running = false;
        }
    }

    /** {@code n} bytes moved at {@code now} (paused or not). */
    public void add(long n, long now) {
        if (started) {
            long t = waited(now);
            long s = t / slotNanos;
            if (slot[newest] != s) {
                newest = (newest + 1) % SLOTS;
                slot[newest] = s;
            }
            lastAt[newest] = t;
            lastBefore[newest] = total;
            total += n;
        }
    }

    /**
     * Whether the client is below the rate at {@code now}: it has been waited on for the grace at least,
     * and since the anchor (see the class) it moved fewer bytes than the rate times the time since.
     * Always false while paused: the client is not waited on.
     */
    public boolean tooSlow(long now) {
        if (!running) {
            return false;
        }
        long t = waited(now);
        if (t < grace) {
            return false;
        }
        long edge = t - window;
        // the start, unless a later progress at least a window old is kept (there is one once the ring is full)
        long fromAt = 0;
        long fromBytes = 0;
        for (int i = 0; i < SLOTS; i++) {
            if (slot[i] >= 0 && lastAt[i] <= edge && lastAt[i] > fromAt) {
                fromAt = lastAt[i];
                fromBytes = lastBefore[i];
            }
        }
        return total - fromBytes < bytesPerNano * (t - fromAt);
    }

    /**
     * When {@link #tooSlow} next needs asking, on the clock: at the end of the grace, then every eighth of
     * a window. For a loop that sleeps to its deadline (the blocking engine); a scanning loop asks anyway.
     */
    public long nextCheck(long now) {
        long t = waited(now);
        return now + (t < grace ? grace - t : slotNanos);
    }

    /** Waiting time so far. */
    private long waited(long now) {
        return running ? before + Math.max(0, now - runSince) : before;
    }
}
