package dev.brisk.events.feed;

import dev.brisk.events.Event;
import java.util.List;

/**
 * What one well-formed feed document held.
 *
 * @param events     the online events, one per (baseId, planId) (a later record replaces an earlier one)
 * @param records    plan/event records read (online or not, good or bad)
 * @param skipped    bad records (bad date, missing attribute, bad number, no zones ...): logged and skipped
 * @param notOnline  records whose sell_mode is not {@code online}: ignored
 */
public record FeedResult(List<Event> events, int records, int skipped, int notOnline) {
    public FeedResult {
        events = List.copyOf(events);
    }
}
