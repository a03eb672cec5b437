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
 *                    one), in the document order of each pair's first good record
 * @param records     plan/event records read (online or not, good or bad)
 * @param skipped     bad records (bad date, missing attribute, bad number, no zones ...): logged and skipped
 * @param notOnline   records whose sell_mode is not {@code online}: ignored
 * @param skipReasons how many of the skipped records were skipped for each reason (reasons with none left
 *                    out); from {@link FeedParser} the counts add up to {@code skipped}
 */
public record FeedResult(List<Event> events, int records, int skipped, int notOnline,
                         Map<SkipReason, Integer> skipReasons) {
    public FeedResult {
        events = List.copyOf(events);
        skipReasons = skipReasons.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(skipReasons));
    }

    /** A result without a breakdown of the skipped records. */
    public FeedResult(List<Event> events, int records, int skipped, int notOnline) {
        this(events, records, skipped, notOnline, Map.of());
    }
}
