package dev.brisk.internal.ops;

import dev.brisk.AccessLogMode;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The access log: one line per logged response, written at INFO through the {@code System.Logger}
 * named {@value #LOGGER_NAME} by one daemon thread, {@value #THREAD_NAME}. A line is logfmt:
 *
 * <pre>
 * method=GET route=/users/{id} path=/users/42 status=200 bytes=12 duration_us=153 remote=127.0.0.1:53422 request_id=5f0c2a9e1b7d-2a protocol=h2
 * </pre>
 *
 * {@code route} is the route template ({@code -} when none matched), {@code path} the raw path without
 * the query string (cut at {@value #MAX_PATH} characters), {@code bytes} the body bytes sent ({@code -}
 * for a streamed body), {@code duration_us} from the parsed head to the response handed to the socket
 * ({@code -} for a request refused before its head was whole), {@code protocol} what carried the
 * request: {@code http/1.1}, {@code http/1.0}, {@code h2} (HTTP/2 over TLS) or {@code h2c} (HTTP/2
 * in the clear). A value is quoted, with {@code \"},
 * {@code \\} and control characters escaped, when it holds anything but visible ASCII other than
 * {@code "}, {@code =} and {@code \}; an absent value is {@code -}.
 *
 * <p>Threads: {@link #offer} is called by I/O threads and never blocks: the queue is bounded
 * ({@value #DEFAULT_CAPACITY} lines) and lock-free, and a line that does not fit is dropped and counted
 * ({@link #dropped()}). Formatting and writing happen on the log's own thread. {@link #close} drains
 * what is queued, waiting at most {@value #DRAIN_MILLIS} ms for a slow logger.
 */
public final class AccessLog {
    public static final String LOGGER_NAME = "brisk.access";
    public static final String THREAD_NAME = "brisk-access-log";
    public static final int DEFAULT_CAPACITY = 8192;
    static final int MAX_PATH = 256;
    static final long DRAIN_MILLIS = 5_000;
    // after the queue runs dry, lines are left to gather this long, so a busy server wakes the writer
    // about once per batch instead of once per line
    private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * One response to log; null strings are written {@code -}.
     *
     * @param bytes body bytes sent, or -1 when unknown (streamed)
     * @param nanos head parsed to response handed to the socket, or -1 when unknown
     * @param protocol {@code http/1.1}, {@code http/1.0}, {@code h2} or {@code h2c}
     */
    public record Line(String method, String route, String path, int status, long bytes, long nanos, String remote,
                       String requestId, String protocol) {
    }

    /**
     * Which responses one I/O loop logs: every one, or one in {@code rate} (the first, then every
     * rate-th) plus every {@code 5xx}. A plain counter: use it from one thread only.
     */
    public static final class Sampler {
        private final int rate;
        private final AtomicLong shared; // null: used by one thread only
        private int count;

        Sampler(int rate, boolean shared) {
            this.rate = rate;
            this.shared = shared ? new AtomicLong() : null;
        }

        /**
         * Whether to log a response with {@code status}: every server failure, one in {@code rate} of
         * the rest. 501 and 505 answer what the client asked for (a method, a version the server does not
         * have): sampled like client errors, or any client could have every line of its junk logged.
         */
        public boolean take(int status) {
            if (rate == 1 || (status >= 500 && status != 501 && status != 505)) {
                return true;
            }
            if (shared != null) {
                return shared.getAndIncrement() % rate == 0;
            }
            boolean take = count == 0;
            if (++count == rate) {
                count = 0;
            }
            return take;
        }
    }

    private final System.Logger logger;
    private final int rate;
    private final int capacity;
    private final long drainMillis;
    private final ConcurrentLinkedQueue<Line> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    private final Thread thread;
    private volatile boolean idle;
    private volatile boolean stopping;
    private volatile boolean abandoned;

    /**
     * @param rate log one response in this many (1: every one)
     * @param capacity lines queued at most
     * @param drainMillis how long {@link #close} waits for the queued lines to be written
     */
    AccessLog(int rate, int capacity, System.Logger logger, long drainMillis) {
        this.rate = rate;
        this.capacity = capacity;
        this.drainMillis = drainMillis;
        this.logger = logger;
        this.thread = Thread.ofPlatform().name(THREAD_NAME).daemon(true).unstarted(this::run);
    }

    /** The access log the options ask for, not started yet; null when it is off. */
    public static AccessLog create(AccessLogMode mode, int sampleRate) {
        if (mode == AccessLogMode.OFF) {
            return null;
        }
        return new AccessLog(mode == AccessLogMode.FULL ? 1 : sampleRate, DEFAULT_CAPACITY,
                System.getLogger(LOGGER_NAME), DRAIN_MILLIS);
    }

    /** Starts the writer thread. Once, before the first {@link #offer}. */
    public void start() {
        thread.start();
    }

    /** A sampler for one I/O loop: only that loop's thread may use it. */
    public Sampler sampler() {
        return new Sampler(rate, false);
    }

    /** A sampler any thread may use (the blocking engine's connection threads share one). */
    public Sampler sharedSampler() {
        return new Sampler(rate, true);
    }

    /** Queues a line; false when the queue was full and the line was dropped. Any thread; never blocks. */
    public boolean offer(Line line) {
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            dropped.increment();
            return false;
        }
        queue.offer(line);
        if (idle) {
            LockSupport.unpark(thread);
        }
        return true;
    }

    /** Lines not written: the queue was full, or the logger failed. */
    public long dropped() {
        return dropped.sum();
    }

    /**
     * Writes what is queued, then stops the thread; gives up after {@value #DRAIN_MILLIS} ms when the
     * logger blocks. Call once, after the last {@link #offer}.
     */
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(drainMillis);
            if (thread.isAlive()) {
                abandoned = true; // the logger is stuck: what is still queued is lost
                thread.interrupt();
                thread.join(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (!abandoned) {
            // read before polling: stopping is set after the last offer, so an empty poll then means done
            boolean stop = stopping;
            Line line = queue.poll();
            if (line != null) {
                size.decrementAndGet();
                write(line);
            } else if (stop) {
                return;
            } else {
                LockSupport.parkNanos(this, GATHER_NANOS);
                if (queue.isEmpty() && !stopping) {
                    idle = true;
                    // checked again after announcing idle: an offer either sees idle or is seen here
                    if (queue.isEmpty() && !stopping) {
                        LockSupport.parkNanos(this, IDLE_NANOS);
                    }
                    idle = false;
                }
            }
        }
    }

    private void write(Line line) {
        try {
            if (logger.isLoggable(System.Logger.Level.INFO)) {
                logger.log(System.Logger.Level.INFO, format(line));
            }
        } catch (RuntimeException e) {
            dropped.increment(); // a failing logger must not stop the log, nor be reported through itself
        }
    }

    /** The logfmt line for {@code l}. */
    static String format(Line l) {
        StringBuilder sb = new StringBuilder(160);
        sb.append("method=");
        value(sb, l.method(), Integer.MAX_VALUE);
        sb.append(" route=");
        value(sb, l.route(), Integer.MAX_VALUE);
        sb.append(" path=");
        value(sb, l.path(), MAX_PATH);
        sb.append(" status=").append(l.status());
        sb.append(" bytes=");
        if (l.bytes() < 0) {
            sb.append('-');
        } else {
            sb.append(l.bytes());
        }
        sb.append(" duration_us=");
        if (l.nanos() < 0) {
            sb.append('-');
        } else {
            sb.append(l.nanos() / 1000);
        }
        sb.append(" remote=");
        value(sb, l.remote(), Integer.MAX_VALUE);
        sb.append(" request_id=");
        value(sb, l.requestId(), Integer.MAX_VALUE);
        sb.append(" protocol=");
        value(sb, l.protocol(), Integer.MAX_VALUE);
        return sb.toString();
    }

    private static void value(StringBuilder sb, String v, int max) {
        if (v == null) {
            sb.append('-');
            return;
        }
        boolean cut = v.length() > max;
        String s = cut ? v.substring(0, max) + "..." : v;
        if (!s.isEmpty() && bare(s)) {
            sb.append(s);
            return;
        }
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    private static boolean bare(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '"' || c == '=' || c == '\\') {
                return false;
            }
        }
        return true;
    }
}
