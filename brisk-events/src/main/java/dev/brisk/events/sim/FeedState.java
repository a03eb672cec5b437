package dev.brisk.events.sim;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What {@code /feed} serves right now: a catalogue generation plus the bad-record rate it is spoiled
 * with. Replaced as a whole (never changed) on {@code advance()} or a new rate, so a request sees one
 * consistent state.
 *
 * @param catalogue     the generation
 * @param badRecordRate share of online records rendered bad
 * @param revision      +1 per replacement; part of the ETag
 * @param lastModified  whole seconds, strictly later than the previous state's, so that
 *                      {@code If-Modified-Since} (one-second resolution) tells every state apart
 */
record FeedState(Catalogue catalogue, double badRecordRate, long revision, Instant lastModified) {

    /** The first state, modified {@code now}. */
    static FeedState first(Catalogue catalogue, double badRecordRate, Instant now) {
        return new FeedState(catalogue, badRecordRate, 1, now.truncatedTo(ChronoUnit.SECONDS));
    }

    /**
     * The state after this one. Its Last-Modified is {@code now} in whole seconds, or one second
     * after this state's when two states fall in one second (tests advance quickly): a little in the
     * future then, which is the lesser evil next to a 304 for a changed document.
     */
    FeedState next(Catalogue newCatalogue, double newBadRecordRate, Instant now) {
        Instant t = now.truncatedTo(ChronoUnit.SECONDS);
        if (!t.isAfter(lastModified)) {
            t = lastModified.plusSeconds(1);
        }
        return new FeedState(newCatalogue, newBadRecordRate, revision + 1, t);
    }

    /** The strong ETag of this state in {@code dialect}, e.g. {@code "g3.4-A"}. */
    String etag(Dialect dialect) {
        return "\"g" + catalogue.generation() + "." + revision + "-" + dialect + "\"";
    }
}
