package dev.brisk.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link ScalingSignals} (and its {@link SlidingRate}) against fake counters and a fake clock. */
class MicrometerScalingSignalsTest {
    private final FakeMetrics metrics = new FakeMetrics();
    private final FakeClock clock = new FakeClock();
    private final ScalingSignals signals = new ScalingSignals(metrics, 100, Duration.ofSeconds(10), clock);

    @Test
    void saturationIsInFlightOverTheCurrentLimit() {
        assertThat(signals.saturationRatio()).as("unlimited").isEqualTo(0.0);
        metrics.inFlight = 3; // in flight can be non-zero only with a limit; the ratio must still not divide by 0
        assertThat(signals.saturationRatio()).isEqualTo(0.0);
        metrics.limit = 4;
        metrics.inFlight = 2;
        assertThat(signals.saturationRatio()).isEqualTo(0.5);
        metrics.inFlight = 4;
        assertThat(signals.saturationRatio()).isEqualTo(1.0);
        metrics.limit = 2; // an adaptive limit lowered under the requests already admitted
        assertThat(signals.saturationRatio()).isEqualTo(2.0);
    }

    @Test
    void headroomIsMaxConnectionsMinusOpenOnes() {
        assertThat(signals.connectionHeadroom()).isEqualTo(100);
        metrics.active = 30;
        assertThat(signals.connectionHeadroom()).isEqualTo(70);
        metrics.active = 100;
        assertThat(signals.connectionHeadroom()).isZero();
    }

    @Test
    void nothingShedMeansNoRateAndNoScaleOut() {
        for (int i = 0; i < 30; i++) {
            clock.advanceMillis(700);
            assertThat(signals.rejectionRate()).isEqualTo(0.0);
            assertThat(signals.needsScaleOut()).isFalse();
        }
    }

    @Test
    void aBurstCountsOverTheWholeWindowThenDecaysToZero() {
        clock.advanceMillis(500);
        metrics.shed("concurrency-limit", 15);
        metrics.shed("queue-timeout", 5);
        // read every second: 20 refusals in the last 10 s is 2 per second, not 20/0.5 s
        for (int s = 1; s <= 10; s++) {
            clock.advanceMillis(s == 1 ? 500 : 1000);
            assertThat(signals.rejectionRate()).as("at %d s", s).isCloseTo(2.0, within(1e-9));
            assertThat(signals.needsScaleOut()).as("at %d s", s).isTrue();
        }
        clock.advanceMillis(1000); // 11 s: the burst (at 0.5 s) is more than a window old
        assertThat(signals.rejectionRate()).isEqualTo(0.0);
        assertThat(signals.needsScaleOut()).isFalse();
    }

    @Test
    void steadySheddingGivesItsRateAndRampsDownWhenItStops() {
        for (int s = 1; s <= 100; s++) { // long enough to wrap the sample ring many times
            metrics.shed("concurrency-limit", 5);
            clock.advanceMillis(1000);
            if (s >= 10) {
                assertThat(signals.rejectionRate()).as("at %d s", s).isCloseTo(5.0, within(1e-9));
            } else {
                signals.rejectionRate();
            }
        }
        for (int s = 1; s <= 10; s++) {
            clock.advanceMillis(1000);
            // the window still holds 10 - s seconds of 5 refusals each
            assertThat(signals.rejectionRate()).as("%d s after", s).isCloseTo((10 - s) * 5 / 10.0, within(1e-9));
            assertThat(signals.needsScaleOut()).isEqualTo(s < 10);
        }
    }

    @Test
    void readsWithinASecondSeeFreshTotals() {
        clock.advanceMillis(200);
        assertThat(signals.needsScaleOut()).isFalse();
        metrics.shed("queue-timeout", 1);
        clock.advanceMillis(100);
        assertThat(signals.needsScaleOut()).isTrue();
        assertThat(signals.rejectionRate()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void scrapesFurtherApartThanTheWindowCoverTheTimeSinceThePreviousOne() {
        signals.rejectionRate();
        clock.advanceMillis(1000);
        metrics.shed("concurrency-limit", 3);
        clock.advanceMillis(14_000); // a 15 s scrape interval
        assertThat(signals.needsScaleOut()).as("a refusal between two scrapes is not missed").isTrue();
        assertThat(signals.rejectionRate()).isCloseTo(3 / 15.0, within(1e-9));
        clock.advanceMillis(15_000);
        assertThat(signals.needsScaleOut()).isFalse();
        assertThat(signals.rejectionRate()).isEqualTo(0.0);
    }

    @Test
    void windowIsAtLeastTheSampleInterval() {
        assertThat(signals.window()).isEqualTo(Duration.ofSeconds(10));
        assertThatThrownBy(() -> new ScalingSignals(metrics, 1, Duration.ofMillis(999), clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window");
    }
}
