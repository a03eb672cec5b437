package dev.brisk.events.feed;

/**
 * The element and attribute names of the provider's two feed dialects, chosen by the root element.
 * Both share the same shape: root / output / base / record / zone, and the names in {@link Common}.
 */
enum FeedDialect {
    /** {@code <planList><output><base_plan><plan><zone/>}. */
    PLAN_LIST("planList", "base_plan", "base_plan_id", "plan", "plan_id", "plan_start_date", "plan_end_date"),
    /** {@code <eventList><output><base_event><event><zone/>}. */
    EVENT_LIST("eventList", "base_event", "base_event_id", "event", "event_id", "event_start_date",
            "event_end_date");

    final String root;
    final String base;
    final String baseId;
    final String record;
    final String recordId;
    final String start;
    final String end;

    FeedDialect(String root, String base, String baseId, String record, String recordId, String start, String end) {
        this.root = root;
        this.base = base;
        this.baseId = baseId;
        this.record = record;
        this.recordId = recordId;
        this.start = start;
        this.end = end;
    }

    /** The dialect whose root element has this local name, or null if none has. */
    static FeedDialect ofRoot(String localName) {
        for (FeedDialect dialect : values()) {
            if (dialect.root.equals(localName)) {
                return dialect;
            }
        }
        return null;
    }

    /** Names both dialects use. */
    static final class Common {
        static final String OUTPUT = "output";
        static final String ZONE = "zone";
        static final String TITLE = "title";
        static final String SELL_MODE = "sell_mode";
        static final String PRICE = "price";
        /** The only sell_mode whose records are read. */
        static final String ONLINE = "online";

        private Common() {
        }
    }
}
