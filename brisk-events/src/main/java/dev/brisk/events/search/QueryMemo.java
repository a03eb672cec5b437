package dev.brisk.events.search;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Parsed {@code /search} windows by raw query string, so a repeated search skips query decoding and
 * date-time parsing (about a seventh of the server's CPU per cached search, measured). Only valid
 * queries are remembered: a bad one is parsed, and refused, every time. Bounded: when full it starts
 * over, which costs one parse per window still in use and needs no lock or eviction order.
 */
public final class QueryMemo {
    private final int maxEntries;
    private final ConcurrentHashMap<String, SearchQuery> parsed = new ConcurrentHashMap<>();

    /** A memo of at most {@code maxEntries} windows; 0 disables it. */
    public QueryMemo(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /**
     * The window of {@code rawQuery}, parsed by {@code parse} the first time.
     *
     * @throws SearchQuery.InvalidParameterException as {@code parse} does
     */
    public SearchQuery get(String rawQuery, Supplier<SearchQuery> parse) {
        SearchQuery q = parsed.get(rawQuery);
        if (q != null) {
            return q;
        }
        q = parse.get();
        if (maxEntries > 0 && rawQuery.length() <= 512) {
            if (parsed.size() >= maxEntries) {
                parsed.clear();
            }
            parsed.put(rawQuery, q);
        }
        return q;
    }

    public int size() {
        return parsed.size();
    }
}
