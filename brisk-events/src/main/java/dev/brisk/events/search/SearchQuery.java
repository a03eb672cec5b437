package dev.brisk.events.search;

import dev.brisk.HttpException;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * The {@code /search} window: {@code starts_at} and {@code ends_at}, each optional. A value is an
 * ISO-8601 date-time with an offset ({@code 2021-02-01T00:00:00Z}, {@code ...+02:00}), converted to
 * the events' zone, or without one ({@code 2021-02-01T00:00:00}), taken as a wall time in that zone.
 *
 * @param from lower bound on start (inclusive), or null
 * @param to   upper bound on end (inclusive), or null
 */
public record SearchQuery(LocalDateTime from, LocalDateTime to) {
    /** The parameter names; public so error messages and docs agree. */
    public static final String STARTS_AT = "starts_at";
    public static final String ENDS_AT = "ends_at";

    /**
     * Reads the window from query parameters.
     *
     * @param zone the zone the provider's local times are in
     * @throws InvalidParameterException with a message naming the parameter and the expected form
     */
    public static SearchQuery parse(Map<String, List<String>> params, ZoneId zone) {
        LocalDateTime from = bound(params, STARTS_AT, zone);
        LocalDateTime to = bound(params, ENDS_AT, zone);
        if (from != null && to != null && from.isAfter(to)) {
            throw new InvalidParameterException(STARTS_AT + " (" + from + ") is after " + ENDS_AT + " (" + to + ")");
        }
        return new SearchQuery(from, to);
    }

    private static LocalDateTime bound(Map<String, List<String>> params, String name, ZoneId zone) {
        List<String> values = params.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new InvalidParameterException(name + " is given " + values.size() + " times; give it once");
        }
        // an unencoded '+' of an offset arrives as a space (form decoding); a date-time has no space otherwise
        String v = values.get(0).strip().replace(' ', '+');
        if (v.isEmpty()) {
            throw new InvalidParameterException(name + " is empty; expected an ISO-8601 date-time such as 2021-02-01T00:00:00Z");
        }
        if (v.length() > 64) {
            throw new InvalidParameterException(name + " is too long; expected an ISO-8601 date-time such as 2021-02-01T00:00:00Z");
        }
        try {
            if (hasOffset(v)) {
                return OffsetDateTime.parse(v).atZoneSameInstant(zone).toLocalDateTime();
            }
            return LocalDateTime.parse(v);
        } catch (DateTimeParseException e) {
            throw new InvalidParameterException(name + " '" + v
                    + "' is not an ISO-8601 date-time; expected e.g. 2021-02-01T00:00:00Z or 2021-02-01T00:00:00");
        } catch (DateTimeException e) {
            // parsed, but out of range once moved to the events' zone (a year near +/-999999999)
            throw new InvalidParameterException(name + " '" + v + "' is out of the supported range of date-times");
        }
    }

    /** Whether the text after the time part carries Z or a +hh:mm / -hh:mm offset. */
    private static boolean hasOffset(String v) {
        int t = v.indexOf('T');
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
