package dev.brisk.events.feed;

import java.time.DateTimeException;
import java.time.LocalDateTime;

/**
 * The syntax of the feed's attribute values that make up an event: date-times and prices. Both
 * return a sentinel instead of throwing, because a bad value is an expected, per-record condition
 * and prices are read a million times per large feed.
 */
final class FeedValues {
    private FeedValues() {
    }

    /**
     * A strict {@code yyyy-MM-ddTHH:mm:ss} local date-time, or null if the text has another shape
     * or names no real instant (2021-09-31, hour 24 ...). Hand-written rather than a
     * DateTimeFormatter: the shape is fixed and this is several times cheaper.
     */
    static LocalDateTime parseDateTime(String text) {
        if (text == null || text.length() != 19 || text.charAt(4) != '-' || text.charAt(7) != '-'
                || text.charAt(10) != 'T' || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        if ((year | month | day | hour | minute | second) < 0) {
            return null;
        }
        try {
            // validates every field, including the day against the month's length and leap years
            return LocalDateTime.of(year, month, day, hour, minute, second);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /**
     * A finite, non-negative decimal price, or NaN if the text is missing or is anything else.
     * Double.parseDouble alone would also accept "NaN", "Infinity", hex floats and type suffixes
     * ("20d"), so the characters are checked first; surrounding whitespace is tolerated.
     */
    static double parsePrice(String text) {
        if (text == null) {
            return Double.NaN;
        }
        String s = text.strip();
        if (s.isEmpty()) {
            return Double.NaN;
        }
        char first = s.charAt(0);
        if (!(first >= '0' && first <= '9' || first == '.')) {
            return Double.NaN; // also rejects a sign: no negative prices
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
                return Double.NaN;
            }
        }
        double value;
        try {
            value = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
        return Double.isFinite(value) ? value : Double.NaN;
    }

    /** The non-negative number written by text[from, to), or -1 if a character is not an ASCII digit. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            int d = text.charAt(i) - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }
}
