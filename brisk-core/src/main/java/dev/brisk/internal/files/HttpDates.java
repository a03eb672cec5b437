package dev.brisk.internal.files;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * HTTP dates (RFC 9110 section 5.6.7) for {@code Last-Modified} and the conditional headers: written
 * as IMF-fixdate, read in all three forms a recipient must accept (IMF-fixdate, RFC 850, asctime).
 * Stateless.
 */
public final class HttpDates {
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    /** RFC 850's, for the year it was made for (see {@link #rfc850}). */
    private static volatile Rfc850 rfc850 = new Rfc850(-1, null);

    /**
     * RFC 850 dates have two-digit years, read (RFC 9110 5.6.7) as the year with those digits that is
     * at most 50 years ahead, else the one before it: the window of 100 years moves with the current one.
     */
    private record Rfc850(int year, DateTimeFormatter format) {
    }

    private static DateTimeFormatter rfc850() {
        int year = java.time.Year.now(ZoneOffset.UTC).getValue();
        Rfc850 r = rfc850;
        if (r.year != year) {
            r = new Rfc850(year, new DateTimeFormatterBuilder()
                    .appendPattern("EEEE, dd-MMM-")
                    .appendValueReduced(ChronoField.YEAR, 2, 2, java.time.LocalDate.of(year - 49, 1, 1))
                    .appendPattern(" HH:mm:ss 'GMT'")
                    .toFormatter(Locale.US));
            rfc850 = r;
        }
        return r.format;
    }
    private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
            .appendPattern("EEE MMM ")
            .padNext(2)
            .appendValue(ChronoField.DAY_OF_MONTH, 1, 2, SignStyle.NOT_NEGATIVE)
            .appendPattern(" HH:mm:ss yyyy")
            .toFormatter(Locale.US);

    private HttpDates() {
    }

    /** {@return {@code epochSecond} as an IMF-fixdate} */
    public static String format(long epochSecond) {
        return IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
    }

    /** {@return the epoch second of an HTTP date, or -1 when {@code s} is none of the three forms} */
    public static long parse(String s) {
        if (s == null) {
            return -1;
        }
        String t = s.trim();
        if (t.length() < 20 || t.length() > 40) {
            return -1;
        }
        long at = parse(t, IMF_FIXDATE);
        if (at < 0 && t.indexOf('-') > 0) {
            at = parse(t, rfc850());
        }
        return at >= 0 ? at : parse(t, ASCTIME);
    }

    private static long parse(String t, DateTimeFormatter f) {
        try {
            return LocalDateTime.parse(t, f).toEpochSecond(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            return -1; // not this form
        }
    }
}
