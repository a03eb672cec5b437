package dev.brisk.internal.http2;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpenedIdsTest {
    private final OpenedIds ids = new OpenedIds();

    @Test
    void idsSkippedBelowTheHighestAreToldFromOpenedOnes() {
        ids.open(1);
        ids.open(7);
        ids.open(9);
        assertThat(ids.skipped(1)).isFalse();
        assertThat(ids.skipped(3)).isTrue();
        assertThat(ids.skipped(5)).isTrue();
        assertThat(ids.skipped(7)).isFalse();
        assertThat(ids.skipped(9)).isFalse();
    }

    @Test
    void aSlotReusedAfterAWholeWindowForgetsTheOlderIdsState() {
        ids.open(1);
        int sameSlot = 1 + 2 * OpenedIds.WINDOW; // shares id 1's bit
        ids.open(sameSlot + 2); // skips sameSlot: its bit (once id 1's) is cleared
        assertThat(ids.skipped(sameSlot)).isTrue();
        assertThat(ids.skipped(1)).as("too old to know: taken as opened").isFalse();
        ids.open(sameSlot + 4);
        assertThat(ids.skipped(sameSlot + 2)).isFalse();
    }

    @Test
    void aJumpFarAboveTheWindowClearsEveryRememberedId() {
        for (int id = 1; id < 200; id += 2) {
            ids.open(id);
        }
        ids.open(Integer.MAX_VALUE);
        assertThat(ids.skipped(Integer.MAX_VALUE)).isFalse();
        assertThat(ids.skipped(Integer.MAX_VALUE - 2)).isTrue();
        assertThat(ids.skipped(Integer.MAX_VALUE - 2 * (OpenedIds.WINDOW - 1))).isTrue();
        assertThat(ids.skipped(199)).as("beyond the window").isFalse();
    }

    @Test
    void idsOpenedOneAfterAnotherAreNeverSkipped() {
        for (int id = 1; id < 10_000; id += 2) {
            ids.open(id);
            assertThat(ids.skipped(id)).isFalse();
            if (id > 1) {
                assertThat(ids.skipped(id - 2)).isFalse();
            }
        }
    }
}
