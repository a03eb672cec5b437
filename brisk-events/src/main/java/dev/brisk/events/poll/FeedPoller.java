package dev.brisk.events.poll;

import dev.brisk.events.Event;
import dev.brisk.events.feed.FeedFormatException;
import dev.brisk.events.feed.FeedParser;
import dev.brisk.events.feed.FeedResult;
import dev.brisk.events.feed.SkipReason;
import dev.brisk.events.search.EventCatalog;
import dev.brisk.events.store.EventStore;
import dev.brisk.events.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * Polls the provider in the background, never on a request path: fetch the feed (conditionally, with
 * the last good ETag / Last-Modified), parse it whole, store the events that changed in one
 * transaction, then publish a new snapshot to readers. Any failure leaves the store and the snapshot
 * as they were and backs off exponentially with jitter.
 *
 * <p>Timeouts: connecting ({@code connectTimeout}), waiting for the response head and then for each
 * piece of the body ({@code readTimeout}, an inactivity bound).
 *
 * <p>Redirects: followed only to the same host (compared case-insensitively; any port), never from
 * https to http, at most {@value #MAX_REDIRECTS} in a row; a redirect elsewhere fails the poll
 * ({@code redirect}), naming where it pointed. The provider's answers should not be able to point the
 * poller at another machine (an internal address, say) by a Location header.
 */
public final class FeedPoller implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FeedPoller.class.getName());
    /** Redirects followed for one poll, at most. */
    static final int MAX_REDIRECTS = 5;
    /** The least time a whole feed body may take to arrive ({@link #bodyBound}). */
    static final Duration BODY_BOUND_MIN = Duration.ofMinutes(10);

    /** The slowest whole-feed rate {@link #bodyBound} allows a feed of the largest size: 256 KiB/s. */
    static final long SLOWEST_BYTES_PER_SECOND = 256 << 10;

    /**
     * How long a whole feed body may take (its parse included): the longest of 20 read timeouts,
     * {@link #BODY_BOUND_MIN}, and the size bound at {@link #SLOWEST_BYTES_PER_SECOND} (256 MiB: about 17
     * minutes). A provider that trickles just inside the read timeout then holds the poller that long, not
     * for as long as it likes.
     */
    static Duration bodyBound(Duration readTimeout, long maxFeedBytes) {
        Duration bound = readTimeout.multipliedBy(20);
        Duration atSlowest = Duration.ofSeconds(maxFeedBytes / SLOWEST_BYTES_PER_SECOND);
        bound = bound.compareTo(atSlowest) > 0 ? bound : atSlowest;
        return bound.compareTo(BODY_BOUND_MIN) > 0 ? bound : BODY_BOUND_MIN;
    }

    /** A failed poll's error text is cut at this many characters in its log line. */
    static final int ERROR_MAX = 500;

    /**
     * Poller settings.
     *
     * @param url            the provider's feed
     * @param interval       time between polls while they succeed
     * @param connectTimeout bound on opening a connection
     * @param readTimeout    bound on waiting for the head, and for each piece of the body
     * @param maxBackoff     the longest wait after repeated failures
     */
    public record Options(URI url, Duration interval, Duration connectTimeout, Duration readTimeout, Duration maxBackoff) {
    }

    private final Options options;
    private final FeedParser parser;
    private final EventStore store;
    private final EventCatalog catalog;
    private final PollListener listener;
    private final HttpClient client;
    private final Backoff backoff;
    private final ScheduledExecutorService watchdog;
    private volatile boolean running;
    private Thread thread;
    private String etag;
    private String lastModified;
    private volatile Instant lastSuccess;
    /** From a poll's start to the provider's response head, of the last poll that got one; -1 before. */
    private volatile long providerNanos = -1;
    private volatile int failuresInARow;
    private long polls;
    /** Cluster mode: polls only while this says so (the leader lock is held); else always. */
    private volatile java.util.function.BooleanSupplier mayPoll = () -> true;
    private final Object wakeUp = new Object();
    private boolean wakeRequested;
    // its own lock, not the monitor: close() must be able to interrupt a poll in progress
    private final java.util.concurrent.locks.ReentrantLock pollLock = new java.util.concurrent.locks.ReentrantLock();

    public FeedPoller(Options options, FeedParser parser, EventStore store, EventCatalog catalog, PollListener listener) {
        this.options = options;
        this.parser = parser;
        this.store = store;
        this.catalog = catalog;
        this.listener = listener;
        this.client = HttpClient.newBuilder()
                .connectTimeout(options.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER) // followed by hand, to the same host only
                .build();
        this.backoff = Backoff.jittered(options.interval(), options.maxBackoff());
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "events-poll-watchdog");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts polling on a background thread, the first poll at once. */
    public synchronized FeedPoller start() {
        if (thread == null) {
            running = true;
            thread = new Thread(this::loop, "events-poller");
            thread.setDaemon(true);
            thread.start();
        }
        return this;
    }

    /**
     * Makes the background loop poll only while {@code gate} answers true (checked before each poll);
     * while it answers false the loop waits a poll interval, or until {@link #wake}.
     */
    public void pollWhen(java.util.function.BooleanSupplier gate) {
        this.mayPoll = gate;
    }

    /** Ends the background loop's current wait at once, so it polls now (if its gate allows). */
    public void wake() {
        synchronized (wakeUp) {
            wakeRequested = true;
            wakeUp.notifyAll();
        }
    }

    /**
     * Forgets the last feed's ETag and Last-Modified, so the next poll fetches the whole feed: an
     * instance that becomes the leader cannot know whether another stored a later feed meanwhile.
     */
    public void forgetValidators() {
        pollLock.lock();
        try {
            etag = null;
            lastModified = null;
        } finally {
            pollLock.unlock();
        }
    }

    /** Failed polls since the last success (0 when the last one succeeded): the loop is backing off when above 0. */
    public int failuresInARow() {
        return failuresInARow;
    }

    /** The provider's latency at the last poll that got an answer: to its response head (redirects included), in ns; -1 before any. */
    public long providerLatencyNanos() {
        return providerNanos;
    }

    /** When the last poll succeeded (a feed stored or a 304), or null. */
    public Instant lastSuccess() {
        return lastSuccess;
    }

    /**
     * One poll, on the calling thread: fetch, parse, store, publish. Never throws: failures are
     * logged and returned. Polls never overlap: a second caller waits for the first.
     */
    public PollOutcome pollOnce() {
        pollLock.lock();
        try {
            return pollLocked();
        } finally {
            pollLock.unlock();
        }
    }

    private PollOutcome pollLocked() {
        long t0 = System.nanoTime();
        PollOutcome outcome;
        try {
            outcome = fetchAndApply(t0);
        } catch (RedirectRefused e) {
            outcome = PollOutcome.failed("redirect", e.getMessage(), System.nanoTime() - t0);
        } catch (HttpTimeoutException e) {
            outcome = PollOutcome.failed("timeout", e.getMessage(), System.nanoTime() - t0);
        } catch (IOException e) {
            outcome = PollOutcome.failed("io", describe(e), System.nanoTime() - t0);
        } catch (FeedFormatException e) {
            outcome = PollOutcome.failed("malformed", e.getMessage(), System.nanoTime() - t0);
        } catch (EventStore.NotLeaderException e) {
            outcome = PollOutcome.failed("not_leader", e.getMessage(), System.nanoTime() - t0);
        } catch (StoreException e) {
            outcome = PollOutcome.failed("database", e.getMessage(), System.nanoTime() - t0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // a stop request: the loop sees it and ends
            outcome = PollOutcome.failed("interrupted", "interrupted", System.nanoTime() - t0);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "poll failed unexpectedly", e);
            outcome = PollOutcome.failed("unexpected", e.toString(), System.nanoTime() - t0);
        } catch (OutOfMemoryError e) {
            // what the poll held is garbage now: the service goes on serving and polling, and says so
            LOG.log(System.Logger.Level.ERROR, "poll ran out of memory", e);
            outcome = PollOutcome.failed("memory", e.toString(), System.nanoTime() - t0);
        }
        polls++;
        if (outcome.ok()) {
            lastSuccess = Instant.now();
            failuresInARow = 0;
        } else {
            failuresInARow++;
        }
        // one line per poll, whatever the feed held: bad records are counted here by reason, and
        // described one by one only at DEBUG (dev.brisk.events.feed), so they never flood the log
        // a provider contradicting itself is worth a warning, still in the one line
        LOG.log(outcome.ok() && outcome.conflicts() == 0 ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                summary(polls, outcome));
        try {
            listener.polled(outcome);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "poll listener failed", e);
        }
        return outcome;
    }

    /**
     * The poll's log line, e.g. {@code poll 3: 9,874 records, 126 skipped (missing attribute 40, bad date 86),
     * 12 not online; 230 changed events stored in 85 ms; 9,736 searchable}.
     */
    String summary(long poll, PollOutcome o) {
        String head = "poll " + poll + ": ";
        long ms = o.nanos() / 1_000_000;
        return switch (o.result()) {
            case FAILED -> head + "failed (" + failuresInARow + " in a row) after " + ms + " ms: " + o.reason() + ": "
                    + oneLine(o.error()) + " (" + options.url() + ")";
            case NOT_MODIFIED -> head + "not modified since the last feed (" + ms + " ms)";
            case UPDATED, UNCHANGED -> head + count(o.records()) + " records, " + count(o.skipped()) + " skipped"
                    + byReason(o.skipReasons()) + ", " + count(o.notOnline()) + " not online"
                    + (o.conflicts() == 0 ? "" : ", " + count(o.conflicts()) + " conflicting duplicates (the last of each id kept;"
                            + " first: " + o.firstConflict() + ")") + "; "
                    + (o.changed() == 0 ? "nothing changed" : count(o.changed()) + " changed events stored")
                    + " in " + ms + " ms; " + count(catalog.current().size()) + " searchable";
        };
    }

    private static String byReason(Map<SkipReason, Integer> reasons) {
        if (reasons.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder(" (");
        for (SkipReason r : SkipReason.values()) { // enum order: the same order in every line
            Integer n = reasons.get(r);
            if (n != null) {
                b.append(b.length() > 2 ? ", " : "").append(r.name().toLowerCase(Locale.ROOT).replace('_', ' '))
                        .append(' ').append(count(n));
            }
        }
        return b.append(')').toString();
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private PollOutcome fetchAndApply(long t0) throws IOException, InterruptedException, FeedFormatException {
        HttpResponse<InputStream> response = fetch();
        providerNanos = System.nanoTime() - t0;
        int status = response.statusCode();
        if (status == 304) {
            response.body().close();
            return new PollOutcome(PollOutcome.Result.NOT_MODIFIED, 0, 0, 0, 0, System.nanoTime() - t0, null, null, Map.of(),
                    0, null);
        }
        if (status != 200) {
            response.body().close();
            return PollOutcome.failed("status", "provider answered " + status, System.nanoTime() - t0);
        }
        FeedResult feed;
        IdleTimeoutInputStream body = new IdleTimeoutInputStream(response.body(),
                options.readTimeout().toNanos(), bodyBound(options.readTimeout(), parser.maxBytes()).toNanos(), Thread.currentThread());
        long check = Math.max(10, options.readTimeout().toMillis() / 4);
        ScheduledFuture<?> timer = watchdog.scheduleAtFixedRate(body::expired, check, check, TimeUnit.MILLISECONDS);
        try (InputStream in = decoded(body, response)) {
            feed = parser.parse(in, catalog.current()::get); // keeps only what differs from the catalog
        } catch (FeedFormatException | IOException e) {
            timer.cancel(false);
            // a body read-timeout surfaces from the parser as a cut document; say what it was
            if (body.finish()) {
                throw new HttpTimeoutException(body.why());
            }
            if (e instanceof FeedFormatException f && f.getCause() instanceof IOException io) {
                throw io; // the connection failed mid-document (a reset): an I/O failure, not a malformed feed
            }
            throw e;
        } finally {
            timer.cancel(false);
            body.finish();
            // closed here too: a decoder that failed on its first bytes (a body that says gzip and is
            // not) never took the body over, and an unclosed body keeps its connection from the client
            closeQuietly(body);
        }
        List<Event> changed = catalog.current().changes(feed.events());
        long seq = store.upsert(changed, Instant.now());
        catalog.publish(changed, seq);
        // remembered only once the feed is stored: a 304 must never skip a feed we failed to keep
        etag = response.headers().firstValue("ETag").orElse(null);
        lastModified = response.headers().firstValue("Last-Modified").orElse(null);
        return new PollOutcome(changed.isEmpty() ? PollOutcome.Result.UNCHANGED : PollOutcome.Result.UPDATED,
                feed.records(), feed.skipped(), feed.notOnline(), changed.size(), System.nanoTime() - t0, null, null,
                feed.skipReasons(), feed.conflicts(), feed.firstConflict());
    }

    /**
     * The provider's answer to a conditional GET of the feed, after following its redirects to the same
     * host. Any other status, 3xx without a usable Location included, is returned as it is.
     *
     * @throws RedirectRefused a redirect to another host, from https to http, or one too many
     */
    private HttpResponse<InputStream> fetch() throws IOException, InterruptedException {
        URI url = options.url();
        for (int hop = 0; ; hop++) {
            HttpRequest.Builder req = HttpRequest.newBuilder(url)
                    .timeout(options.readTimeout())
                    .header("Accept", "application/xml, text/xml")
                    .header("Accept-Encoding", "gzip");
            if (etag != null) {
                req.header("If-None-Match", etag);
            }
            if (lastModified != null) {
                req.header("If-Modified-Since", lastModified);
            }
            HttpResponse<InputStream> response = client.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
            int status = response.statusCode();
            boolean redirect = status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
            String location = redirect ? response.headers().firstValue("Location").orElse(null) : null;
            if (location == null) {
                return response;
            }
            response.body().close();
            URI next;
            try {
                next = url.resolve(location.strip());
            } catch (IllegalArgumentException e) {
                throw new RedirectRefused("the provider redirected to an unusable location " + printable(location));
            }
            if (next.getHost() == null || !next.getHost().equalsIgnoreCase(url.getHost())) {
                throw new RedirectRefused("the provider redirected to another host: " + printable(next.toString())
                        + " (only redirects to " + url.getHost() + " are followed)");
            }
            if (!"http".equalsIgnoreCase(next.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())
                    || "https".equalsIgnoreCase(url.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
                throw new RedirectRefused("the provider redirected from " + url.getScheme() + " to "
                        + printable(String.valueOf(next.getScheme())) + ": refused");
            }
            if (hop == MAX_REDIRECTS) {
                throw new RedirectRefused("the provider redirected more than " + MAX_REDIRECTS + " times in a row");
            }
            url = next;
        }
    }

    /** A provider's value in a log line: at most 200 characters, no control characters. */
    private static String printable(String v) {
        StringBuilder b = new StringBuilder(Math.min(v.length(), 203));
        for (int i = 0; i < v.length() && i < 200; i++) {
            char c = v.charAt(i);
            b.append(Character.isISOControl(c) ? '?' : c);
        }
        return v.length() > 200 ? b.append("...").toString() : b.toString();
    }

    /** A redirect the poller does not follow; the poll fails with reason {@code redirect}. */
    private static final class RedirectRefused extends IOException {
        RedirectRefused(String message) {
            super(message);
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the poll's outcome is decided already; the connection is gone either way
        }
    }

    private static InputStream decoded(InputStream body, HttpResponse<?> response) throws IOException {
        String encoding = response.headers().firstValue("Content-Encoding").orElse("identity").strip();
        if (encoding.equalsIgnoreCase("gzip")) {
            return new GZIPInputStream(body, 64 * 1024);
        }
        if (!encoding.equalsIgnoreCase("identity")) {
            body.close();
            throw new IOException("unsupported Content-Encoding: " + encoding);
        }
        return body;
    }

    /**
     * A failure's text as one log line of bounded length: control characters escaped, so what a provider
     * sent (a title in a database error, say) can neither break the line nor forge another.
     */
    static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(Math.min(text.length(), ERROR_MAX) + 16);
        int i = 0;
        for (; i < text.length() && b.length() < ERROR_MAX; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && b.length() == ERROR_MAX - 1) {
                break; // the cut falls inside a pair: before it
            }
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                b.append(c == '\n' ? "\\n" : String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return i < text.length() ? b + "..." : b.toString();
    }

    /**
     * The failure in a line: its type and the first message in its causes; the JDK client's
     * {@code ConnectException} carries none at all, so that one says what it means.
     */
    static String describe(IOException e) {
        String m = null;
        for (Throwable t = e; t != null && m == null; t = t.getCause()) {
            m = t.getMessage();
        }
        if (m == null && e instanceof java.net.ConnectException) {
            m = "could not connect (refused or unreachable)";
        }
        return e.getClass().getSimpleName() + (m != null ? ": " + m : "");
    }

    private void loop() {
        while (running) {
            Duration wait;
            try {
                if (mayPoll.getAsBoolean()) {
                    pollOnce();
                    wait = backoff.delay(failuresInARow);
                } else {
                    wait = options.interval();
                }
            } catch (RuntimeException | Error e) {
                // whatever escaped a poll (an Error pollOnce does not take): logged, and polling goes on after
                // the interval; a poller thread that died would leave the service serving stale data for good
                LOG.log(System.Logger.Level.ERROR, "poll failed unexpectedly", e);
                wait = options.interval();
            }
            try {
                synchronized (wakeUp) {
                    long deadline = System.nanoTime() + wait.toNanos();
                    // bounded: returns at the deadline or when woken; spurious wake-ups wait the rest
                    while (!wakeRequested && running) {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            break;
                        }
                        TimeUnit.NANOSECONDS.timedWait(wakeUp, left);
                    }
                    wakeRequested = false;
                }
            } catch (InterruptedException e) {
                if (!running) {
                    return;
                }
            }
        }
    }

    /** Stops polling; an in-flight poll is interrupted (its transaction, if any, commits or rolls back whole). */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
            thread = null;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        watchdog.shutdownNow();
        client.close();
    }
}
