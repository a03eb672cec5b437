package dev.brisk.events.sim;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.events.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A running simulator of the unreliable events provider: a Brisk app on its own port serving the
 * provider's XML feed at {@code GET /feed} (and {@code GET /health}), with a catalogue that changes
 * by generations and faults that can be switched at any time.
 *
 * <pre>{@code
 * try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.defaults())) {
 *     poll(sim.feedUrl());
 *     assertThat(stored()).containsExactlyInAnyOrderElementsOf(sim.onlineEvents());
 *     sim.advance();
 *     sim.failureRate(1.0);
 * }
 * }</pre>
 *
 * <p>All methods are thread-safe. The truth methods ({@link #onlineEvents()} and the counts) describe
 * the state {@code /feed} serves at the moment they are called.
 */
public final class ProviderSimulator implements AutoCloseable {
    private final SimulatorOptions options;
    private final CatalogueGenerator generator;
    private final RecordDefects defects;
    private final Faults faults;
    private final StatsCounters stats = new StatsCounters();
    private final AtomicReference<FeedState> state = new AtomicReference<>();
    private final FeedCache cache;
    private volatile Dialect dialect;
    private final Object changes = new Object(); // serialises advance() and badRecordRate(): the generator is single-threaded
    private final Brisk app;
    private final ScheduledExecutorService churn;

    private ProviderSimulator(SimulatorOptions options) {
        this.options = options;
        this.generator = new CatalogueGenerator(options);
        this.defects = new RecordDefects(options.seed());
        this.faults = new Faults(options, System.nanoTime());
        this.dialect = options.dialect();
        state.set(FeedState.first(generator.first(), options.badRecordRate(), Instant.now()));
        this.cache = new FeedCache(defects);
        cache.get(state.get(), dialect); // render up front: the first poll should not pay for it
        FeedEndpoint endpoint = new FeedEndpoint(state::get, () -> dialect, cache, faults, stats);
        this.app = Brisk.create(cfg -> {
            // only these options: the service under test may run with BRISK_* variables of its own
            cfg.configSource(ConfigSource.empty());
            cfg.host(options.host()).port(options.port());
            cfg.options().shutdownTimeout(Duration.ofSeconds(2));
            cfg.get("/feed", endpoint::feed);
            cfg.get("/health", endpoint::health);
        }).start();
        this.churn = scheduleChurn(options.churnInterval());
    }

    /**
     * Generates the first catalogue and starts serving it.
     *
     * @throws java.io.UncheckedIOException when the port cannot be bound
     */
    public static ProviderSimulator start(SimulatorOptions options) {
        return new ProviderSimulator(options);
    }

    private ScheduledExecutorService scheduleChurn(Duration interval) {
        if (interval.isZero()) {
            return null;
        }
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "provider-simulator-churn");
            t.setDaemon(true);
            return t;
        });
        long nanos = interval.toNanos();
        s.scheduleAtFixedRate(() -> {
            try {
                advance();
            } catch (RuntimeException e) {
                // an exception would cancel the schedule: log it and keep churning
                System.getLogger(ProviderSimulator.class.getName()).log(System.Logger.Level.WARNING, "advance failed", e);
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
        return s;
    }

    /** The options it was started with (faults changed since are not reflected). */
    public SimulatorOptions options() {
        return options;
    }

    /** The bound port. */
    public int port() {
        return app.port();
    }

    /** {@code http://<host>:<port>}, with 127.0.0.1 for a wildcard host. */
    public String baseUrl() {
        String host = options.host();
        if (host.equals("0.0.0.0") || host.equals("::")) {
            host = "127.0.0.1";
        } else if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + port();
    }

    /** {@code http://127.0.0.1:<port>/feed} (with the bound host). */
    public String feedUrl() {
        return baseUrl() + "/feed";
    }

    /** The generation {@code /feed} serves: 1 at start, +1 per {@link #advance()}. */
    public long generation() {
        return state.get().catalogue().generation();
    }

    /**
     * Moves to the next generation: some events leave the feed, as many new ones arrive, some that
     * stay change a price or title. Requests from now on get the new document (new ETag, later
     * Last-Modified). Also runs every {@code churnInterval} when that is set.
     *
     * @return the new generation
     */
    public long advance() {
        synchronized (changes) {
            FeedState s = state.get();
            FeedState next = s.next(generator.next(s.catalogue()), s.badRecordRate(), Instant.now());
            state.set(next);
            return next.catalogue().generation();
        }
    }

    // ---- truth ------------------------------------------------------------------------------

    /**
     * What a correct reader stores from the current document: one event per online, well-formed plan
     * record, in feed order. Ids are {@link Event#idOf}(base id, plan id), the title is the base's,
     * min/max price the lowest/highest price over all its zone elements (repeated zone ids included).
     * Computed from the generator, not by parsing the feed; sold-out plans are included (they are
     * online); records spoiled by the bad-record rate and offline base plans are not.
     */
    public List<Event> onlineEvents() {
        FeedState s = state.get();
        List<Event> events = new ArrayList<>();
        for (BasePlan base : s.catalogue().bases()) {
            if (!base.online()) {
                continue;
            }
            String baseId = Integer.toString(base.baseId());
            for (Plan p : base.plans()) {
                if (defects.of(base, p, s.badRecordRate()) == null) {
                    events.add(Event.of(baseId, Integer.toString(p.planId()), base.title(), p.start(), p.end(),
                            p.minPriceCents() / 100.0, p.maxPriceCents() / 100.0));
                }
            }
        }
        return events;
    }

    /** Plan records in the current document, online or not, good or bad. */
    public int recordCount() {
        return state.get().catalogue().planCount();
    }

    /** Plan records of offline base plans in the current document (a reader ignores them). */
    public int offlineRecordCount() {
        int n = 0;
        for (BasePlan base : state.get().catalogue().bases()) {
            if (!base.online()) {
                n += base.plans().size();
            }
        }
        return n;
    }

    /** Online plan records spoiled in the current document (a reader skips them). */
    public int badRecordCount() {
        FeedState s = state.get();
        int n = 0;
        for (BasePlan base : s.catalogue().bases()) {
            for (Plan p : base.plans()) {
                if (defects.of(base, p, s.badRecordRate()) != null) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The current document in {@code d} (rendered now if not yet), for its size and render time. */
    RenderedFeed currentFeed(Dialect d) {
        return cache.get(state.get(), d);
    }

    /** The {@code /feed} counters so far. */
    public SimulatorStats stats() {
        return stats.snapshot();
    }

    // ---- faults and settings ------------------------------------------------------------------

    /** The dialect served when a request does not ask with {@code ?dialect=}. */
    public ProviderSimulator dialect(Dialect d) {
        if (d == null) {
            throw new IllegalArgumentException("dialect must not be null");
        }
        dialect = d;
        return this;
    }

    /** A fixed delay before every feed answer; zero for none. */
    public ProviderSimulator latency(Duration fixed) {
        return latency(fixed, Duration.ZERO);
    }

    /** A delay of {@code fixed} plus a uniform random share of {@code jitter} before every feed answer. */
    public ProviderSimulator latency(Duration fixed, Duration jitter) {
        faults.latency(fixed, jitter);
        return this;
    }

    /** The share (0..1) of feed requests that fail: a 500, or a reset as {@link #resetShare} says. */
    public ProviderSimulator failureRate(double rate) {
        faults.failureRate(rate);
        return this;
    }

    /** The share (0..1) of failures that are resets (connection closed mid-body) rather than 500s. */
    public ProviderSimulator resetShare(double share) {
        faults.resetShare(share);
        return this;
    }

    /** The share (0..1) of feed answers that are a malformed document (truncated, garbage, broken tag). */
    public ProviderSimulator malformedRate(double rate) {
        faults.malformedRate(rate);
        return this;
    }

    /**
     * The share (0..1) of online records rendered with a bad value (impossible date, missing
     * attribute, bad price, no zones). Changing it changes the document: new ETag and Last-Modified,
     * and {@link #onlineEvents()} follows. Which records are bad depends only on the seed and the ids,
     * so a higher rate keeps the records a lower one spoiled.
     */
    public ProviderSimulator badRecordRate(double rate) {
        SimulatorOptions.rate("badRecordRate", rate);
        synchronized (changes) {
            FeedState s = state.get();
            if (Double.compare(s.badRecordRate(), rate) != 0) {
                state.set(s.next(s.catalogue(), rate, Instant.now()));
            }
        }
        return this;
    }

    /** Down: 503 for every request (feed and health) until set back to false. */
    public ProviderSimulator down(boolean down) {
        faults.down(down);
        return this;
    }

    /**
     * Scheduled outages counted from the start: down for the last {@code downFor} of every
     * {@code every}. Two zero durations remove the schedule.
     */
    public ProviderSimulator downSchedule(Duration every, Duration downFor) {
        faults.downSchedule(every, downFor);
        return this;
    }

    /** Closes this simulator when the JVM is asked to exit (SIGTERM, SIGINT). Returns this. */
    public ProviderSimulator closeOnShutdown() {
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "provider-simulator-shutdown"));
        return this;
    }

    /** Blocks until {@link #close} has completed. */
    public void awaitClose() throws InterruptedException {
        app.awaitClose();
    }

    /** Stops the churn and the server (in-flight requests get up to 2 s). Idempotent. */
    @Override
    public void close() {
        if (churn != null) {
            churn.shutdownNow();
        }
        app.close();
    }
}
