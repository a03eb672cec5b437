package dev.brisk.events.feed;

import java.io.InputStream;

/**
 * Streaming, hardened StAX reader of the provider's feed in either dialect (planList / eventList).
 * TODO(helper): implement.
 */
public final class FeedParser {
    /** Default bound on a feed document's size. */
    public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

    private final long maxBytes;

    public FeedParser() {
        this(DEFAULT_MAX_BYTES);
    }

    public FeedParser(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Reads a whole document. Bad records are counted and skipped; a document that is not well-formed,
     * larger than the bound, or of an unknown root element throws and yields nothing.
     */
    public FeedResult parse(InputStream in) throws FeedFormatException {
        throw new UnsupportedOperationException("not yet");
    }
}
