package dev.brisk.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class HttpDatesTest {
    private static long at(String iso) {
        return LocalDateTime.parse(iso).toEpochSecond(ZoneOffset.UTC);
    }

    @Test
    void theThreeFormsAreRead() {
        assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT")).isEqualTo(at("1994-11-06T08:49:37"));
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT")).isEqualTo(at("1994-11-06T08:49:37"));
        assertThat(HttpDates.parse("Sun Nov  6 08:49:37 1994")).isEqualTo(at("1994-11-06T08:49:37"));
        assertThat(HttpDates.parse("yesterday")).isEqualTo(-1);
    }

    /**
     * RFC 9110 5.6.7: a two-digit year more than 50 years ahead is the past year with those digits, so
     * the window moves with the current year (it was fixed at 1970-2069: "70" meant 1970 for ever).
     */
    @Test
    void twoDigitYearsAreAtMostFiftyYearsAhead() {
        int now = java.time.Year.now(ZoneOffset.UTC).getValue();
        int ahead = now + 50; // the furthest future year two digits may mean
        int past = now + 51 - 100; // one more is the past
        String d1 = dayName(ahead) + ", 01-Jan-" + String.format("%02d", ahead % 100) + " 00:00:00 GMT";
        String d2 = dayName(past) + ", 01-Jan-" + String.format("%02d", past % 100) + " 00:00:00 GMT";
        assertThat(HttpDates.parse(d1)).as(d1).isEqualTo(at(ahead + "-01-01T00:00:00"));
        assertThat(HttpDates.parse(d2)).as(d2).isEqualTo(at(past + "-01-01T00:00:00"));
    }

    private static String dayName(int year) {
        return java.time.LocalDate.of(year, 1, 1).getDayOfWeek().getDisplayName(java.time.format.TextStyle.FULL,
                java.util.Locale.US);
    }
}
