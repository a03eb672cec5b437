package dev.brisk.events.search;

import dev.brisk.HttpException;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * One {@code /search} page: the window {@code starts_at} and {@code ends_at} (each optional), at most
 * {@code limit} events, after the position {@code cursor}. A date-time is ISO-8601 with an offset
 * ({@code 2021-02-01T00:00:00Z}, {@code ...+02:00}), converted to the events' zone, or without one
 * ({@code 2021-02-01T00:00:00}), taken as a wall time in that zone.
 *
 * @param from  lower bound on start (inclusive), or null
 * @param to    upper bound on end (inclusive), or null
 * @param limit the most events on the page, 1 to {@link #MAX_LIMIT}
 * @param after the position the page starts after (from a previous page's {@code next}), or null
 */
public record SearchQuery(LocalDateTime from, LocalDateTime to, int limit, Cursor after) {
    /** The parameter names; public so error messages and docs agree. */
    public static final String STARTS_AT = "starts_at";
    public static final String ENDS_AT = "ends_at";
    public static final String LIMIT = "limit";
    public static final String CURSOR = "cursor";
    /** Events on a page when {@code limit} is not given. */
    public static final int DEFAULT_LIMIT = 1_000;
    /** The largest {@code limit}: a wider result is read page by page through {@code next}. */
    public static final int MAX_LIMIT = 10_000;
    /** The path a {@code next} link points to. */
    private static final String PATH = "/search";

    public SearchQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit " + limit + " is not in 1.." + MAX_LIMIT);
        }
    }

    /** The first page of a window, {@link #DEFAULT_LIMIT} events long. */
    public SearchQuery(LocalDateTime from, LocalDateTime to) {
        this(from, to, DEFAULT_LIMIT, null);
    }

    /**
     * Reads the page from query parameters.
     *
     * @param zone the zone the provider's local times are in
     * @throws InvalidParameterException with a message naming the parameter and the expected form
     */
    public static SearchQuery parse(Map<String, List<String>> params, ZoneId zone) {
        for (String name : params.keySet()) {
            if (!NAMES.contains(name)) { // a misspelt bound would otherwise widen the answer unnoticed
                throw new InvalidParameterException("unknown parameter '" + printable(name) + "'; " + PATH
                        + " takes " + STARTS_AT + ", " + ENDS_AT + ", " + LIMIT + " and " + CURSOR);
            }
        }
        Bound from = bound(params, STARTS_AT, zone);
        Bound to = bound(params, ENDS_AT, zone);
        LocalDateTime fromLocal = from == null ? null : from.local();
        LocalDateTime toLocal = to == null ? null : to.local();
        if (from != null && to != null) {
            boolean reversed = from.instant() != null && to.instant() != null
                    ? from.instant().isAfter(to.instant()) : fromLocal.isAfter(toLocal);
            if (reversed) {
                throw new InvalidParameterException(STARTS_AT + " '" + from.sent() + "' is after " + ENDS_AT + " '"
                        + to.sent() + "'");
            }
        }
        // the hour summer time ends in is lived twice, and the feed's wall times cannot tell its two passes
        // apart: a window (an open end counts as endless) that spans the turn takes both passes' wall times.
        // Only for ends sent with an offset: a wall time in that hour names both passes already
        var rules = zone.getRules();
        if (from != null && from.instant() != null) {
            var hour = rules.getTransition(fromLocal);
            if (hour != null && hour.isOverlap() && from.instant().isBefore(hour.getInstant())
                    && (to == null || to.instant() == null || !to.instant().isBefore(hour.getInstant()))) {
                fromLocal = hour.getDateTimeAfter(); // from in the first pass: the second pass starts earlier
            }
        }
        if (to != null && to.instant() != null) {
            var hour = rules.getTransition(toLocal);
            if (hour != null && hour.isOverlap() && !to.instant().isBefore(hour.getInstant())
                    && (from == null || from.instant() == null || from.instant().isBefore(hour.getInstant()))) {
                toLocal = hour.getDateTimeBefore().minusNanos(1); // to in the second pass: the first ended later
            }
        }
        return new SearchQuery(fromLocal, toLocal, limit(params), cursor(params));
    }

    /** The names {@link #parse} takes. */
    private static final java.util.Set<String> NAMES = java.util.Set.of(STARTS_AT, ENDS_AT, LIMIT, CURSOR);

    /**
     * One end of the window: its wall time in the events' zone, its instant when it was sent with an
     * offset (else null), and what was sent, for messages.
     */
    private record Bound(LocalDateTime local, java.time.Instant instant, String sent) {
    }

    /**
     * The link to the page after this one, which ends just before {@code next}: the same window and
     * limit, as wall times in the events' zone (the same instants this query meant), and the cursor.
     */
    public String nextLink(Cursor next) {
        StringBuilder b = new StringBuilder(128).append(PATH).append('?');
        if (from != null) {
            b.append(STARTS_AT).append('=').append(linkTime(from)).append('&');
        }
        if (to != null) {
            b.append(ENDS_AT).append('=').append(linkTime(to)).append('&');
        }
        return b.append(LIMIT).append('=').append(limit).append('&').append(CURSOR).append('=').append(next.encode())
                .toString();
    }

    /** ISO-8601 wall time, seconds always shown; a year past 9999 has a '+', which a query must escape. */
    private static String linkTime(LocalDateTime t) {
        return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t).replace("+", "%2B");
    }

    private static int limit(Map<String, List<String>> params) {
        String v = single(params, LIMIT);
        if (v == null) {
            return DEFAULT_LIMIT;
        }
        String expected = "; expected a whole number from 1 to " + MAX_LIMIT;
        if (v.isEmpty()) {
            throw new InvalidParameterException(LIMIT + " is empty" + expected);
        }
        boolean digits = true;
        int significant = -1; // where the digits after any leading zeros start
        for (int i = 0; i < v.length() && digits; i++) {
            char c = v.charAt(i);
            digits = c >= '0' && c <= '9';
            if (significant < 0 && c != '0') {
                significant = i;
            }
        }
        if (!digits && v.length() > 1 && v.charAt(0) == '-' && v.substring(1).chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidParameterException(LIMIT + " " + printable(v) + " is below 1" + expected);
        }
        if (!digits) {
            throw new InvalidParameterException(LIMIT + " '" + printable(v) + "' is not a whole number" + expected);
        }
        // past nine significant digits it is above the maximum whatever it says: no parse can overflow
        long n = significant < 0 ? 0 : v.length() - significant > 9 ? Long.MAX_VALUE : Long.parseLong(v.substring(significant));
        if (n < 1) {
            throw new InvalidParameterException(LIMIT + " " + printable(v) + " is below 1" + expected);
        }
        if (n > MAX_LIMIT) {
            throw new InvalidParameterException(LIMIT + " " + printable(v) + " is above the maximum of " + MAX_LIMIT
                    + "; read a wider result page by page, following each answer's next link");
        }
        return (int) n;
    }

    private static Cursor cursor(Map<String, List<String>> params) {
        String v = single(params, CURSOR);
        if (v == null) {
            return null;
        }
        try {
            return Cursor.decode(v);
        } catch (IllegalArgumentException e) {
            throw new InvalidParameterException(CURSOR + " '" + printable(v)
                    + "' is not a cursor of this service; use the next link of an earlier answer as it is");
        }
    }

    /** The parameter's one value, stripped, or null when absent; given twice it is refused. */
    private static String single(Map<String, List<String>> params, String name) {
        List<String> values = params.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new InvalidParameterException(name + " is given " + values.size() + " times; give it once");
        }
        return values.get(0).strip();
    }

    /** Five digits or more and a dash: a year that ISO-8601 writes with a sign. */
    private static final java.util.regex.Pattern YEAR_PAST_9999 = java.util.regex.Pattern.compile("\\d{5,}-");

    /** A client's value in an error message: at most 40 characters, no control characters. */
    private static String printable(String v) {
        StringBuilder b = new StringBuilder(Math.min(v.length(), 43));
        for (int i = 0; i < v.length() && i < 40; i++) {
            char c = v.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return v.length() > 40 ? b.append("...").toString() : b.toString();
    }

    private static Bound bound(Map<String, List<String>> params, String name, ZoneId zone) {
        List<String> values = params.get(name);
        if (single(params, name) == null) {
            return null;
        }
        // an unencoded '+' arrives as a space (form decoding): of an offset inside the value, or the sign a
        // year past 9999 needs in front of it; a space around the value is only a space
        String sent = values.get(0);
        String v = sent.strip().replace(' ', '+');
        if (sent.startsWith(" ") && YEAR_PAST_9999.matcher(v).lookingAt()) {
            v = "+" + v;
        }
        if (v.isEmpty()) {
            throw new InvalidParameterException(name + " is empty; expected an ISO-8601 date-time such as 2021-02-01T00:00:00Z");
        }
        if (v.length() > 64) {
            throw new InvalidParameterException(name + " is too long; expected an ISO-8601 date-time such as 2021-02-01T00:00:00Z");
        }
        String shown = printable(sent.strip()); // what the client sent, not the '+' put back for its spaces
        try {
            if (hasOffset(v)) {
                OffsetDateTime t = OffsetDateTime.parse(v);
                return new Bound(t.atZoneSameInstant(zone).toLocalDateTime(), t.toInstant(), shown);
            }
            return new Bound(LocalDateTime.parse(v), null, shown);
        } catch (DateTimeParseException e) {
            throw new InvalidParameterException(name + " '" + shown
                    + "' is not an ISO-8601 date-time; expected e.g. 2021-02-01T00:00:00Z or 2021-02-01T00:00:00");
        } catch (DateTimeException e) {
            // parsed, but out of range once moved to the events' zone (a year near +/-999999999)
            throw new InvalidParameterException(name + " '" + shown + "' is out of the supported range of date-times");
        }
    }

    /** Whether the text after the time part (after 'T', or 't': the parse ignores case) carries Z or a +hh:mm / -hh:mm offset. */
    private static boolean hasOffset(String v) {
        int upper = v.indexOf('T');
        int lower = v.indexOf('t');
        int t = upper < 0 ? lower : lower < 0 ? upper : Math.min(upper, lower);
        if (t < 0) {
            return false;
        }
        for (int i = t; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == 'Z' || c == 'z' || c == '+' || c == '-') {
                return true;
            }
        }
        return false;
    }

    /** A 400 {@code invalid_parameter}. */
    public static final class InvalidParameterException extends HttpException {
        public InvalidParameterException(String message) {
            super(400, message);
        }
    }
}
