package dev.brisk.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FixedLimitTest {

    @Test
    void neverChangesWhateverTheSamples() {
        FixedLimit limit = new FixedLimit(42);
        assertThat(limit.current()).isEqualTo(42);
        for (int i = 0; i < 10_000; i++) {
            // fast, slow, dropped, at and far above the limit, and nonsense values
            limit.onSample(i % 3 == 0 ? 1_000 : 60_000_000_000L, i % 100, i % 7 == 0);
            limit.onSample(-1, Integer.MAX_VALUE, true);
            limit.onSample(Long.MAX_VALUE, 0, false);
            assertThat(limit.current()).isEqualTo(42);
        }
        assertThat(limit).hasToString("FixedLimit[42]");
    }

    @Test
    void oneIsTheSmallestLimit() {
        assertThat(new FixedLimit(1).current()).isEqualTo(1);
        assertThat(new FixedLimit(Integer.MAX_VALUE).current()).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> new FixedLimit(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FixedLimit(-5)).isInstanceOf(IllegalArgumentException.class);
    }
}
