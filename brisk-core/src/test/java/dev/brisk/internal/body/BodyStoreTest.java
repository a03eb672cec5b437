package dev.brisk.internal.body;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The memory budget counts a body as the heap holds it: a humongous array by the whole G1 regions it
 * takes, with the region size HotSpot's ergonomics pick (checked against {@code -XX:+PrintFlagsFinal}
 * on JDK 25: 256m, 2g → 1 MiB; 2100m, 3g, 4g → 2 MiB; 5g, 8g → 4 MiB; 64g → 32 MiB).
 */
class BodyStoreTest {
    private static final long MIB = 1 << 20;

    @Test
    void theRegionSizeFollowsG1Ergonomics() {
        assertThat(BodyStore.regionSize(256 * MIB)).isEqualTo(MIB);
        assertThat(BodyStore.regionSize(2048 * MIB)).isEqualTo(MIB);
        assertThat(BodyStore.regionSize(2100 * MIB)).isEqualTo(2 * MIB);
        assertThat(BodyStore.regionSize(3072 * MIB)).isEqualTo(2 * MIB);
        assertThat(BodyStore.regionSize(5120 * MIB)).isEqualTo(4 * MIB);
        assertThat(BodyStore.regionSize(64L * 1024 * MIB)).isEqualTo(32 * MIB);
        assertThat(BodyStore.regionSize(Long.MAX_VALUE)).isEqualTo(32 * MIB);
        assertThat(BodyStore.regionSize(16 * MIB)).isEqualTo(MIB);
    }

    @Test
    void aSmallArrayCostsItsLengthAndAHumongousOneItsWholeRegions() {
        BodyStore store = new BodyStore(64 * MIB, MIB, 0, "", MIB);
        assertThat(store.arrayCost(100_000)).isEqualTo(100_000);
        assertThat(store.arrayCost(256 * 1024)).as("the largest chunked segment is never humongous").isEqualTo(256 * 1024);
        assertThat(store.arrayCost(MIB / 2 - 16)).as("half a region with its header").isEqualTo(MIB);
        assertThat(store.arrayCost(MIB)).as("1 MiB and a header: two regions").isEqualTo(2 * MIB);
        assertThat(store.arrayCost(10 * MIB)).isEqualTo(11 * MIB);
        BodyStore big = new BodyStore(64 * MIB, MIB, 0, "", 4 * MIB);
        assertThat(big.arrayCost(MIB)).as("not humongous in 4 MiB regions").isEqualTo(MIB);
        assertThat(big.arrayCost(3 * MIB)).isEqualTo(4 * MIB);
    }

    @Test
    void aDeclaredHumongousBodyReservesItsRegionsAndGivesThemBack() throws Exception {
        BodyStore store = new BodyStore(3 * MIB, 4 * MIB, 0, "", MIB);
        BodyWriter a = new BodyWriter(store);
        assertThat(a.begin(MIB, 4 * MIB)).isNull();
        assertThat(store.memory().reserved()).isEqualTo(2 * MIB);
        BodyWriter b = new BodyWriter(store);
        assertThat(b.begin(MIB, 4 * MIB)).as("1 MiB left: the second body's two regions do not fit")
                .isEqualTo(dev.brisk.internal.ops.ServerStats.ShedReason.BODY_MEMORY);
        a.append(new byte[(int) MIB], 0, (int) MIB);
        var body = a.finish();
        assertThat(body.bytes()).hasSize((int) MIB);
        assertThat(store.memory().reserved()).as("a full declared array is handed out as it is").isEqualTo(2 * MIB);
        body.release();
        assertThat(store.memory().reserved()).isZero();
    }

    @Test
    void aChunkedBodyGrowsInSegmentsBelowHalfARegionAndItsAssemblyCountsRegions() throws Exception {
        BodyStore store = new BodyStore(8 * MIB, 4 * MIB, 0, "", MIB);
        BodyWriter w = new BodyWriter(store);
        assertThat(w.begin(-1, 4 * MIB)).isNull();
        byte[] piece = new byte[64 * 1024];
        for (int i = 0; i < 16; i++) {
            java.util.Arrays.fill(piece, (byte) i);
            w.append(piece, 0, piece.length);
        }
        // 8 + 8 + 16 + 32 + 64 + 128 + 256 + 256 + 256 KiB segments: 1 MiB + 0 spare, no humongous one
        assertThat(store.memory().reserved()).isEqualTo(MIB);
        var body = w.finish();
        byte[] all = body.bytes();
        assertThat(all).hasSize((int) MIB);
        assertThat(all[MIB_INT - 1]).isEqualTo((byte) 15);
        assertThat(store.memory().reserved()).as("the assembled 1 MiB array takes two regions").isEqualTo(2 * MIB);
        body.release();
        assertThat(store.memory().reserved()).isZero();
    }

    private static final int MIB_INT = 1 << 20;
}
