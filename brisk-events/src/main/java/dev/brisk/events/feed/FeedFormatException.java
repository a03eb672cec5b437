package dev.brisk.events.feed;

/** The feed as a whole cannot be used (not well-formed, truncated, too large, unknown root): nothing of it may be stored. */
public final class FeedFormatException extends Exception {
    public FeedFormatException(String message) {
        super(message);
    }

    public FeedFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
