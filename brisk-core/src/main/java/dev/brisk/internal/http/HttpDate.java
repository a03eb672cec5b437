package dev.brisk.internal.http;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header line, built at most once a second and shared by every thread. Reading it
 * costs one clock read and a volatile load; a stale second for a few microseconds is harmless.
 */
public final class HttpDate {
    private HttpDate() {
    }

    /** The current line plus the epoch second it was built for. */
    public record Line(long second, byte[] bytes) {
    }

    // IMF-fixdate (RFC 9110 5.6.7); RFC_1123_DATE_TIME would drop the day's leading zero
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private static volatile Line current = build(System.currentTimeMillis() / 1000);

    /** {@code "Date: Sat, 21 Nov 2026 21:36:20 GMT\r\n"} for the current second. */
    public static Line now() {
        long second = System.currentTimeMillis() / 1000;
        Line line = current;
        if (line.second() != second) {
            line = build(second);
            current = line;
        }
        return line;
    }

    private static Line build(long second) {
        String date = IMF_FIXDATE.format(Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC));
        return new Line(second, ("Date: " + date + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }
}
