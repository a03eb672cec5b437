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
        // an 8 KiB array, then 254 slabs of 4 KiB: 1 MiB and nothing spare, none of it humongous
        assertThat(store.memory().reserved()).isEqualTo(MIB);
        assertThat(store.slabs().pooled()).isEqualTo(MIB - HeldBody.FIRST_SEGMENT);
        var body = w.finish();
        byte[] all = body.bytes();
        assertThat(all).hasSize((int) MIB);
        assertThat(all[MIB_INT - 1]).isEqualTo((byte) 15);
        assertThat(store.memory().reserved()).as("the assembled 1 MiB array takes two regions").isEqualTo(2 * MIB);
        body.release();
        assertThat(store.memory().reserved()).isZero();
    }

    @Test
    void aMiddlingDeclaredBodyIsHeldInSlabsThatItsArrayReplacesWithinItsReservation() throws Exception {
        BodyStore store = new BodyStore(40_960, 4 * MIB, 0, "", MIB);
        BodyWriter w = new BodyWriter(store);
        assertThat(w.begin(40_000, MIB)).isNull();
        assertThat(store.memory().reserved()).as("ten whole slabs").isEqualTo(40_960);
        byte[] sent = pattern(40_000);
        for (int off = 0; off < sent.length; off += 3_000) {
            w.append(sent, off, Math.min(3_000, sent.length - off));
        }
        assertThat(store.slabs().pooled()).as("held off the heap").isEqualTo(40_960);
        var body = w.finish();
        assertThat(body.bytes()).as("the budget is full, yet the array fits in the slabs' reservation").isEqualTo(sent);
        assertThat(store.memory().reserved()).isEqualTo(40_000);
        body.release();
        assertThat(store.memory().reserved()).isZero();

        BodyWriter again = new BodyWriter(store);
        assertThat(again.begin(40_000, MIB)).isNull();
        again.append(sent, 0, sent.length);
        assertThat(store.slabs().pooled()).as("the slabs given back are used again").isEqualTo(40_960);
        again.finish().release();
    }

    @Test
    void aStreamReadsTheSlabsInOrderAndFailsOnceTheBodyIsReleased() throws Exception {
        BodyStore store = new BodyStore(MIB, 4 * MIB, 0, "", MIB);
        BodyWriter w = new BodyWriter(store);
        assertThat(w.begin(-1, MIB)).isNull();
        byte[] sent = pattern(100_003);
        for (int off = 0; off < sent.length; off += 777) {
            w.append(sent, off, Math.min(777, sent.length - off));
        }
        var body = w.finish();
        java.io.InputStream in = body.stream();
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[10_000];
        got.write(in.read());
        int n0 = in.read(buf, 0, 10_000);
        assertThat(n0).as("a read ends where the first array does").isEqualTo(HeldBody.FIRST_SEGMENT - 1);
        got.write(buf, 0, n0);
        boolean assembled = false;
        for (int n; (n = in.read(buf, 0, got.size() % 2 == 0 ? 5_000 : 1_234)) >= 0; ) {
            got.write(buf, 0, n);
            if (!assembled && got.size() > 30_000) {
                assertThat(body.bytes()).as("assembled while a stream reads").isEqualTo(sent);
                assembled = true;
            }
        }
        assertThat(got.toByteArray()).isEqualTo(sent);
        java.io.InputStream late = body.stream();
        assertThat(late.read()).isEqualTo(sent[0] & 0xff);
        body.release();
        assertThat(late.read()).as("an array handed out stays readable").isEqualTo(sent[1] & 0xff);

        BodyWriter slabbed = new BodyWriter(store);
        assertThat(slabbed.begin(sent.length, MIB)).isNull();
        slabbed.append(sent, 0, sent.length);
        var held = slabbed.finish();
        java.io.InputStream stale = held.stream();
        assertThat(stale.read()).isEqualTo(sent[0] & 0xff);
        held.release();
        org.assertj.core.api.Assertions.assertThatThrownBy(stale::read).as("its slabs may hold another body now")
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("released");
    }

    @Test
    void aChunkedBodyHeldInSlabsSpillsToItsFileWhole() throws Exception {
        BodyStore store = new BodyStore(MIB, 64 * 1024, 4 * MIB, System.getProperty("java.io.tmpdir"), MIB);
        BodyWriter w = new BodyWriter(store);
        assertThat(w.begin(-1, MIB)).isNull();
        byte[] sent = pattern(200_000);
        for (int off = 0; off < sent.length; off += 10_000) {
            w.append(sent, off, 10_000);
        }
        var body = w.finish();
        assertThat(body).isInstanceOf(SpooledBody.class);
        assertThat(store.memory().reserved()).as("the slabs given back once in the file").isZero();
        assertThat(body.stream().readAllBytes()).isEqualTo(sent);
        body.release();
    }

    @Test
    void thousandsOfSlowMiddlingBodiesAreNotOnTheHeap() throws Exception {
        // what G1 would copy at every young collection while they arrive: none of it on the heap
        BodyStore store = new BodyStore(64 * MIB, 64 * MIB, 0, "", MIB);
        System.gc();
        long before = heapUsed();
        BodyWriter[] writers = new BodyWriter[1_000];
        byte[] piece = pattern(32 * 1024 - 100);
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new BodyWriter(store);
            assertThat(writers[i].begin(32 * 1024, MIB)).isNull();
            writers[i].append(piece, 0, piece.length);
        }
        System.gc();
        long held = heapUsed() - before;
        assertThat(held).as("1,000 bodies of 32 KiB (31.9 MiB received) held, heap grown by %d bytes", held)
                .isLessThan(8 * MIB);
        for (BodyWriter w : writers) {
            w.abort();
        }
        assertThat(store.memory().reserved()).isZero();
    }

    private static long heapUsed() {
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + (i >>> 8));
        }
        return b;
    }

    private static final int MIB_INT = 1 << 20;
}
