package dev.brisk.events.feed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class FeedValuesTest {

    @ParameterizedTest
    @CsvSource({
            "2021-06-30T21:00:00, 2021, 6, 30, 21, 0, 0",
            "2020-02-29T23:59:59, 2020, 2, 29, 23, 59, 59",
            "2000-02-29T00:00:00, 2000, 2, 29, 0, 0, 0",
            "0001-01-01T00:00:00, 1, 1, 1, 0, 0, 0",
            "9999-12-31T23:59:59, 9999, 12, 31, 23, 59, 59",
    })
    void readsDateTimes(String text, int year, int month, int day, int hour, int minute, int second) {
        assertThat(FeedValues.parseDateTime(text)).isEqualTo(LocalDateTime.of(year, month, day, hour, minute, second));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "2021-09-31T10:00:00", "2021-02-29T10:00:00", "1900-02-29T10:00:00",
            "2021-13-01T10:00:00", "2021-00-01T10:00:00", "2021-01-00T10:00:00", "2021-01-01T24:00:00",
            "2021-01-01T23:60:00", "2021-01-01T23:59:60", "2021-06-30T21:00", "2021-06-30T21:00:00.5",
            "2021-06-30T21:00:00Z", "2021-06-30 21:00:00", "2021/06/30T21:00:00", "21-06-30T21:00:00",
            "2021-6-30T21:00:000", " 2021-06-30T21:00:00", "2021-06-30T21:00:0 ", "2021-06-30t21:00:00",
            "+021-06-30T21:00:00", "2021-06-3aT21:00:00", "２０２１-06-30T21:00:00"})
    void refusesOtherDateTimes(String text) {
        assertThat(FeedValues.parseDateTime(text)).isNull();
    }

    @ParameterizedTest
    @CsvSource({"20.00, 20.0", "0, 0.0", "0.00, 0.0", "35.5, 35.5", ".5, 0.5", "7., 7.0", "1e3, 1000.0",
            "1.5E-2, 0.015", "'  12.25 ', 12.25", "123456789.99, 123456789.99"})
    void readsPrices(String text, double expected) {
        assertThat(FeedValues.parsePrice(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "-1", "-0.01", "-0", "+5", "NaN", "Infinity", "-Infinity", "1e999", "0x1p3",
            "20d", "20f", "20,00", "1.2.3", "1 2", "e5", ".", "abc", "20€", "١٢"})
    void refusesOtherPrices(String text) {
        assertThat(FeedValues.parsePrice(text)).isNaN();
    }
}
