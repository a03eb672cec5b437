package dev.brisk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The meter on a clock of its own (nanoseconds as numbers): who is cut, and when. Rate 1,000 B/s,
 * grace 2 s, window 4 s; checked every 100 ms as the scanning loops do.
 */
class DataRateTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final long T0 = 123_456_789_000L; // any clock origin

    private final DataRate rate = DataRate.Limit.of(1_000, 2 * S, 4 * S).meter();

    /** The first time (ms after the start) the meter says too slow, checking every 100 ms; -1 when never within {@code maxMs}. */
    private long firstCutMs(long maxMs, java.util.function.LongConsumer beforeEachCheck) {
        for (long ms = 0; ms <= maxMs; ms += 100) {
            beforeEachCheck.accept(ms);
            if (rate.tooSlow(T0 + ms * MS)) {
                return ms;
            }
        }
        return -1;
    }

    @Test
    void noMinimumIsNoLimit() {
        assertThat(DataRate.Limit.of(0, S, S)).isNull();
    }

    @Test
    void nothingMovedIsCutAtTheEndOfTheGrace() {
        rate.start(T0);
        assertThat(firstCutMs(10_000, ms -> { })).isEqualTo(2_000);
    }

    @Test
    void steadyAtTheRateIsNeverCut() {
        rate.start(T0);
        assertThat(firstCutMs(120_000, ms -> rate.add(100, T0 + ms * MS))).isEqualTo(-1);
    }

    @Test
    void steadyBelowTheRateIsCutAtTheEndOfTheGrace() {
        rate.start(T0);
        assertThat(firstCutMs(10_000, ms -> rate.add(90, T0 + ms * MS))).isEqualTo(2_000);
    }

    @Test
    void burstsAtTheRateAreNeverCutHoweverFarApart() {
        // 20 KB every 20 s (a socket seen writable only once a large part of its buffer drained): 1,000 B/s
        rate.start(T0);
        assertThat(firstCutMs(200_000, ms -> {
            if (ms % 20_000 == 0) {
                rate.add(20_000, T0 + ms * MS);
            }
        })).isEqualTo(-1);
    }

    @Test
    void aBurstThenOneBytePerSecondIsCutOnceTheBurstIsAWindowOld() {
        // 10 MB in the first second (many reads), then a byte a second: the average since the start would stay
        // above the rate for hours; the window sees the trickle within about a window after the burst
        rate.start(T0);
        long cut = firstCutMs(60_000, ms -> {
            if (ms < 1_000) {
                rate.add(1_000_000, T0 + ms * MS);
            } else if (ms % 1_000 == 0) {
                rate.add(1, T0 + ms * MS);
            }
        });
        assertThat(cut).isBetween(5_000L, 5_000L + 4_000 / 8 + 100);
    }

    @Test
    void aStallIsCutOnceTheLastWindowHoldsLessThanTheRatesBytes() {
        rate.start(T0);
        long cut = firstCutMs(60_000, ms -> {
            if (ms <= 10_000) {
                rate.add(200, T0 + ms * MS); // twice the rate for 10 s, then nothing
            }
        });
        // the 4 s window holds under 4,000 B from 12 s on; the anchor may be up to half a second older
        assertThat(cut).isBetween(12_100L, 12_700L);
    }

    @Test
    void aBurstPaysForItsBytesAtTheRateThenTheStallIsCut() {
        rate.start(T0);
        rate.add(20_000, T0);
        assertThat(firstCutMs(60_000, ms -> { })).isEqualTo(20_100);
    }

    @Test
    void pausedTimeDoesNotCountAndAPausedMeterCutsNoOne() {
        rate.start(T0);
        rate.add(1_500, T0 + 500 * MS);
        rate.pause(T0 + 1_000 * MS);
        assertThat(rate.tooSlow(T0 + 3_600 * S)).as("paused: not waited on").isFalse();
        rate.resume(T0 + 3_600 * S);
        // 1 s waited before the pause + 1.4 s now: 1,500 B over 2.4 s is below 1,000 B/s
        assertThat(rate.tooSlow(T0 + 3_600 * S + 900 * MS)).as("waited 1.9 s: in the grace").isFalse();
        assertThat(rate.tooSlow(T0 + 3_600 * S + 1_400 * MS)).isTrue();
    }

    @Test
    void resumeStartsAMeterThatNeverRan() {
        assertThat(rate.tooSlow(T0 + 10 * S)).as("never started").isFalse();
        rate.resume(T0);
        assertThat(rate.tooSlow(T0 + 1_900 * MS)).isFalse();
        assertThat(rate.tooSlow(T0 + 2_000 * MS)).isTrue();
    }

    @Test
    void nextCheckIsTheEndOfTheGraceThenEveryEighthOfAWindow() {
        rate.start(T0);
        assertThat(rate.nextCheck(T0 + 500 * MS)).isEqualTo(T0 + 2 * S);
        assertThat(rate.nextCheck(T0 + 3 * S)).isEqualTo(T0 + 3 * S + 500 * MS);
    }
}
