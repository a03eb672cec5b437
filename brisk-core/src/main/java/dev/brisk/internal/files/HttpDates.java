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
    private static final DateTimeFormatter RFC_850 = new DateTimeFormatterBuilder()
            .appendPattern("EEEE, dd-MMM-")
            .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
            .appendPattern(" HH:mm:ss 'GMT'")
            .toFormatter(Locale.US);
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
        for (DateTimeFormatter f : new DateTimeFormatter[] {IMF_FIXDATE, RFC_850, ASCTIME}) {
            try {
                return LocalDateTime.parse(t, f).toEpochSecond(ZoneOffset.UTC);
            } catch (DateTimeException e) {
                // the next form
            }
        }
        return -1;
    }
}
