package dev.brisk.events.feed;

/** Why a feed record was skipped as bad. */
public enum SkipReason {
    /**
     * A required attribute is missing or blank: the record's id or dates, or its base's id, title or
     * sell_mode (a bad base makes every record under it bad).
     */
    MISSING_ATTRIBUTE,
    /** The record's id or its base's id is longer than {@link dev.brisk.events.Event#MAX_ID_LENGTH}. */
    ID_TOO_LONG,
    /** A start or end date is not a real {@code yyyy-MM-ddTHH:mm:ss} local date-time. */
    BAD_DATE,
    /** The end is before the start. */
    END_BEFORE_START,
    /** A zone's price is missing, not a number, not finite or negative. */
    BAD_PRICE,
    /** The record has no zones, so it has no price range. */
    NO_ZONES
}
