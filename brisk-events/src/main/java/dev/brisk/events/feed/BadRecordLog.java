package dev.brisk.events.feed;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Map;

/**
 * Logs one document's bad records at DEBUG (java.util.logging FINE): the first few in full, then only a
 * summary line at the end, so a feed with thousands of bad records does not flood even a debug log. The
 * poller's one line per poll (INFO) carries the counts by reason.
 */
final class BadRecordLog {
    /** Bad records per document logged one by one. */
    static final int FULL_LINES = 10;
    /** Longest id excerpt put in a log line: the values come from the provider. */
    private static final int MAX_VALUE_CHARS = 80;

    private final Logger log;
    private int logged;
    private int suppressed;

    BadRecordLog(Logger log) {
        this.log = log;
    }

    /** One bad record (line is the document line it was found at, or -1). */
    void badRecord(FeedDialect dialect, String baseId, String recordId, int line, SkipReason reason, String detail) {
        if (logged >= FULL_LINES) {
            suppressed++;
            return;
        }
        if (!log.isLoggable(Level.DEBUG)) {
            return; // the usual case: no line is built for a level nobody reads
        }
        logged++;
        // concatenated, not a MessageFormat pattern: values may hold quotes and braces
        log.log(Level.DEBUG, "feed record skipped (" + reason + "): " + dialect.baseId + "=" + printable(baseId)
                + " " + dialect.recordId + "=" + printable(recordId) + " at line " + line + ": " + detail);
    }

    /** The summary line, if records were left out of the log. */
    void finish(int skipped, Map<SkipReason, Integer> byReason) {
        if (suppressed > 0) {
            log.log(Level.DEBUG, "feed: " + skipped + " bad records skipped in all, " + suppressed
                    + " of them not logged individually; by reason: " + byReason);
        }
    }

    /** Quoted, shortened, without control characters: a provider's value must not forge log lines. */
    static String printable(String value) {
        if (value == null) {
            return "(missing)";
        }
        StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_VALUE_CHARS) + 5).append('\'');
        for (int i = 0; i < value.length() && i < MAX_VALUE_CHARS; i++) {
            char c = value.charAt(i);
            out.append(Character.isISOControl(c) ? '?' : c);
        }
        if (value.length() > MAX_VALUE_CHARS) {
            out.append("...");
        }
        return out.append('\'').toString();
    }
}
