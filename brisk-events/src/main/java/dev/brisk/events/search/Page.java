package dev.brisk.events.search;

/**
 * One page of a search, chosen by an {@link EventIndex} and rendered by the same index: which of its
 * events, in order, and where the next page starts.
 *
 * <p>The positions array is owned by the page and never handed out.
 */
public final class Page {
    /**
     * The most JSON a page holds (the events' objects and their commas): a page stops early, before
     * {@code limit}, rather than pass it, and its {@code next} goes on from there. With the limit it
     * bounds what one answer holds in memory, whatever the events' titles weigh; a page keeps at
     * least one event, so paging always moves on.
     */
    public static final long MAX_BYTES = 4L * 1024 * 1024;

    private final SearchQuery query;
    private final int[] positions;
    private final int count;
    private final long bytes;
    private final Cursor next;

    Page(SearchQuery query, int[] positions, int count, long bytes, Cursor next) {
        this.query = query;
        this.positions = positions;
        this.count = count;
        this.bytes = bytes;
        this.next = next;
    }

    /** The query this page answers. */
    public SearchQuery query() {
        return query;
    }

    /** Events on the page. */
    public int count() {
        return count;
    }

    /** The JSON of its events and the commas between them, in bytes (the envelope not counted). */
    public long bytes() {
        return bytes;
    }

    /** Where the next page starts, or null when this page is the last. */
    public Cursor next() {
        return next;
    }

    /** The index position of the page's {@code i}-th event. */
    int position(int i) {
        return positions[i];
    }
}
