package dev.brisk.events.feed;

import dev.brisk.events.Event;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one well-formed feed document held.
 *
 * @param events      the online events, one per (baseId, planId) (a later record replaces an earlier
 *                    one), in the document order of each pair's first good record; when parsed against
 *                    stored events, only those that differ from them
 * @param records     plan/event records read (online or not, good or bad)
 * @param skipped     bad records (bad date, missing attribute, bad number, no zones ...): logged and skipped
 * @param notOnline   records whose sell_mode is not {@code online}: ignored
 * @param skipReasons how many of the skipped records were skipped for each reason (reasons with none left
 *                    out); from {@link FeedParser} the counts add up to {@code skipped}
 * @param conflicts   good online records whose (baseId, planId) an earlier good record of the same
 *                    document had, with other values: each replaced the one before it (the last wins)
 * @param firstConflict the first such record's ids, printable, for a log line; null when none
 */
public record FeedResult(List<Event> events, int records, int skipped, int notOnline,
                         Map<SkipReason, Integer> skipReasons, int conflicts, String firstConflict) {
    public FeedResult {
        events = List.copyOf(events);
        skipReasons = skipReasons.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(skipReasons));
    }

    /** A result without a breakdown of the skipped records, and no conflicts. */
    public FeedResult(List<Event> events, int records, int skipped, int notOnline) {
        this(events, records, skipped, notOnline, Map.of(), 0, null);
    }
}
