package dev.brisk.internal.ws;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeartbeatTest {
    private static final long MS = 1_000_000L;

    @Test
    void aSilentPeerIsPingedThenClosedAndHearingItPutsBothOff() {
        Heartbeat h = new Heartbeat(1_000 * MS, 300 * MS, 0);
        assertThat(h.due(299 * MS)).isEqualTo(Heartbeat.NOTHING);
        assertThat(h.next()).isEqualTo(300 * MS);
        assertThat(h.due(300 * MS)).isEqualTo(Heartbeat.PING);
        h.pinged(300 * MS);
        assertThat(h.due(450 * MS)).as("pinged: not again before an interval").isEqualTo(Heartbeat.NOTHING);
        assertThat(h.next()).isEqualTo(600 * MS);
        assertThat(h.due(1_001 * MS)).isEqualTo(Heartbeat.IDLE);
        h.heard(900 * MS);
        assertThat(h.due(1_001 * MS)).isEqualTo(Heartbeat.NOTHING);
        assertThat(h.next()).isEqualTo(1_200 * MS);
    }

    @Test
    void withoutPingsOnlyTheIdleTimeoutFallsDue() {
        Heartbeat h = new Heartbeat(1_000 * MS, 0, 0);
        assertThat(h.due(999 * MS)).isEqualTo(Heartbeat.NOTHING);
        assertThat(h.next()).isEqualTo(1_000 * MS);
        assertThat(h.due(1_001 * MS)).isEqualTo(Heartbeat.IDLE);
    }

    @Test
    void timeSpentDeafInAWriteIsNotTheSilence() {
        Heartbeat h = new Heartbeat(1_000 * MS, 0, 0);
        h.deaf(200 * MS, 1_700 * MS); // blocked writing for 1.5 s, 0.2 s after the peer was last heard
        assertThat(h.due(1_700 * MS)).as("silent 0.2 s of the time it could be heard").isEqualTo(Heartbeat.NOTHING);
        assertThat(h.due(2_501 * MS)).isEqualTo(Heartbeat.IDLE);
        h.heard(3_000 * MS);
        h.deaf(2_000 * MS, 2_500 * MS); // a write that ended before the peer was last heard: no credit
        assertThat(h.next()).isEqualTo(4_000 * MS);
    }

    @Test
    void comparisonsHoldAcrossTheClocksWrap() {
        long start = Long.MAX_VALUE - 200 * MS;
        Heartbeat h = new Heartbeat(1_000 * MS, 300 * MS, start);
        assertThat(h.due(start + 299 * MS)).isEqualTo(Heartbeat.NOTHING);
        assertThat(h.due(start + 300 * MS)).as("the clock has wrapped").isEqualTo(Heartbeat.PING);
        h.pinged(start + 300 * MS);
        assertThat(h.next()).isEqualTo(start + 600 * MS);
        assertThat(h.due(start + 1_001 * MS)).isEqualTo(Heartbeat.IDLE);
    }
}
