package dev.brisk.events.poll;

import dev.brisk.events.feed.SkipReason;
import java.util.Map;

/**
 * What one poll did.
 *
 * @param result   how it ended
 * @param records  feed records read (0 unless the feed was parsed)
 * @param skipped  bad records skipped
 * @param notOnline records ignored because they were not sold online
 * @param changed  events inserted or updated in the store
 * @param nanos    wall time of the whole poll
 * @param reason   a short, bounded failure kind for metrics ({@code timeout}, {@code io}, {@code status},
 *                 {@code redirect}, {@code malformed}, {@code database}, {@code interrupted}, {@code unexpected}), or null
 * @param error    why it failed, in words, or null
 * @param skipReasons the skipped records by reason (reasons with none left out)
 * @param conflicts records with the id of an earlier record of the same feed but other values (the last kept)
 * @param firstConflict the first of those, described for the log, or null
 */
public record PollOutcome(Result result, int records, int skipped, int notOnline, int changed, long nanos,
                          String reason, String error, Map<SkipReason, Integer> skipReasons, int conflicts,
                          String firstConflict) {
    public PollOutcome {
        skipReasons = Map.copyOf(skipReasons);
    }

    /** How a poll ended. */
    public enum Result {
        /** The feed was read and changed events were stored and published. */
        UPDATED,
        /** The feed was read; nothing in it differs from what is stored. */
        UNCHANGED,
        /** The provider answered 304: nothing changed since the last good feed. */
        NOT_MODIFIED,
        /** Connection, timeout, status, malformed document or database failure: nothing changed. */
        FAILED
    }

    public boolean ok() {
        return result != Result.FAILED;
    }

    static PollOutcome failed(String reason, String error, long nanos) {
        return new PollOutcome(Result.FAILED, 0, 0, 0, 0, nanos, reason, error, Map.of(), 0, null);
    }
}
