package dev.brisk.events.sim;

import dev.brisk.Context;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * {@code GET /feed} and {@code GET /health}: the current state's document with validators, conditional
 * answers, and the injected faults.
 *
 * <p>A feed request goes through, in order: latency; down (503); failure (500, or a reset: status and
 * headers as for the real document, then the connection closes part-way through the body);
 * {@code If-None-Match} / {@code If-Modified-Since} (304); malformed (200 with a broken document,
 * without validators, so a client cannot cache it); else 200 with the document.
 *
 * <p>{@code ?dialect=A|B} overrides the simulator's dialect for one request.
 */
final class FeedEndpoint {
    static final String XML = "application/xml";
    /** IMF-fixdate; the JDK's RFC_1123 formatter writes one-digit days, which HTTP does not allow. */
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final Supplier<FeedState> state;
    private final Supplier<Dialect> dialect;
    private final FeedCache cache;
    private final Faults faults;
    private final StatsCounters stats;

    FeedEndpoint(Supplier<FeedState> state, Supplier<Dialect> dialect, FeedCache cache, Faults faults,
                 StatsCounters stats) {
        this.state = state;
        this.dialect = dialect;
        this.cache = cache;
        this.faults = faults;
        this.stats = stats;
    }

    /** {@code GET /health}: 200 {@code OK}, or 503 while down (latency and failures do not apply). */
    void health(Context ctx) {
        if (unavailable(ctx)) {
            return;
        }
        ctx.text("OK");
    }

    /** {@code GET /feed}. */
    void feed(Context ctx) throws InterruptedException {
        stats.requests.increment();
        Duration delay = faults.nextLatency();
        if (delay.isPositive()) {
            Thread.sleep(delay); // handlers run on virtual threads: sleeping holds no platform thread
        }
        if (unavailable(ctx)) {
            stats.unavailable.increment();
            return;
        }
        Dialect d;
        try {
            String asked = ctx.queryParam("dialect");
            d = asked == null ? dialect.get() : Dialect.parse(asked);
        } catch (IllegalArgumentException e) {
            stats.badRequests.increment();
            ctx.status(400).text(e.getMessage());
            return;
        }
        RenderedFeed feed = cache.get(state.get(), d);
        if (faults.fails()) {
            if (faults.resets()) {
                stats.resets.increment();
                validators(ctx, feed);
                int cut = feed.body().length / 10 + faults.random().nextInt(Math.max(1, feed.body().length * 8 / 10));
                ctx.contentType(XML).stream(new ResetBody(feed.body(), cut));
            } else {
                stats.serverErrors.increment();
                ctx.status(500).text("simulated provider failure");
            }
            return;
        }
        if (notModified(ctx, feed)) {
            stats.notModified.increment();
            validators(ctx, feed);
            ctx.status(304);
            return;
        }
        if (faults.malformed()) {
            stats.malformed.increment();
            MalformedBodies.Kind kind = MalformedBodies.pick(faults.random());
            ctx.contentType(XML).stream(MalformedBodies.of(kind, feed.body(), faults.random()));
            return;
        }
        stats.served.increment();
        validators(ctx, feed);
        ctx.contentType(XML).bytes(feed.body()); // the cached array itself: Brisk writes it without copying
    }

    /** Answers 503 and returns true while down. */
    private boolean unavailable(Context ctx) {
        Duration outage = faults.outage();
        if (outage == null) {
            return false;
        }
        if (outage.isPositive()) {
            ctx.header("Retry-After", Long.toString(Math.max(1, (outage.toMillis() + 999) / 1000)));
        }
        ctx.status(503).text("provider down");
        return true;
    }

    private static void validators(Context ctx, RenderedFeed feed) {
        ctx.header("ETag", feed.etag());
        ctx.header("Last-Modified", HTTP_DATE.format(feed.lastModified()));
    }

    /**
     * RFC 9110 §13.2.2: {@code If-None-Match} decides when present (weak comparison, {@code *}
     * matches); otherwise {@code If-Modified-Since}, when it parses, decides. Several header lines
     * of {@code If-None-Match} count as one list.
     */
    static boolean notModified(Context ctx, RenderedFeed feed) {
        var inm = ctx.headers("If-None-Match");
        if (!inm.isEmpty()) {
            for (String line : inm) {
                for (String tag : line.split(",")) {
                    String t = tag.strip();
                    if (t.startsWith("W/")) {
                        t = t.substring(2);
                    }
                    if (t.equals("*") || t.equals(feed.etag())) {
                        return true;
                    }
                }
            }
            return false;
        }
        String ims = ctx.header("If-Modified-Since");
        if (ims == null) {
            return false;
        }
        try {
            Instant since = ZonedDateTime.parse(ims.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return !feed.lastModified().isAfter(since);
        } catch (DateTimeParseException e) {
            return false; // an unparseable date is ignored, as the RFC says
        }
    }
}
