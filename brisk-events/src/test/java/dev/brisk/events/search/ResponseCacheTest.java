package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResponseCacheTest {
    private static SearchQuery q(int day) {
        return new SearchQuery(LocalDateTime.of(2021, 1, day, 0, 0), null);
    }

    private static SearchBody body(byte b) {
        return new SearchBody(new byte[] {b});
    }

    @Test
    void hitsUntilTheVersionChanges() {
        ResponseCache cache = new ResponseCache(10, 1 << 20);
        AtomicInteger renders = new AtomicInteger();
        SearchBody first = cache.get(1, q(1), () -> body((byte) renders.incrementAndGet()));
        SearchBody again = cache.get(1, q(1), () -> body((byte) renders.incrementAndGet()));
        assertThat(again).isSameAs(first);
        assertThat(first.identity().isDirect()).as("a cached body is kept in direct memory").isTrue();
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.misses()).isEqualTo(1);

        SearchBody next = cache.get(2, q(1), () -> body((byte) renders.incrementAndGet()));
        assertThat(next.identity().get(0)).isEqualTo((byte) 2);
        // a reader still holding version 1 is answered but never caches into version 2
        cache.get(1, q(2), () -> body((byte) 9));
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.get(2, q(2), () -> body((byte) 7)).identity().get(0)).isEqualTo((byte) 7);
    }

    @Test
    void boundedByEntriesAndBytes() {
        ResponseCache byCount = new ResponseCache(3, 1 << 20);
        for (int d = 1; d <= 20; d++) {
            byCount.get(1, q(d), () -> new SearchBody(new byte[10]));
        }
        assertThat(byCount.size()).isLessThanOrEqualTo(3);

        // a body costs twice its size (room for its gzip form) and may take an eighth of the bound: 200 here
        ResponseCache byBytes = new ResponseCache(100, 1600);
        for (int d = 1; d <= 20; d++) {
            byBytes.get(1, q(d), () -> new SearchBody(new byte[100]));
            assertThat(byBytes.bytes()).isLessThanOrEqualTo(1600);
        }
        assertThat(byBytes.size()).isEqualTo(8);
        assertThat(byBytes.bytes()).isEqualTo(1600);
        // more than its share: served, not cached, nothing evicted for it
        SearchBody wide = byBytes.get(1, q(25), () -> new SearchBody(new byte[101]));
        assertThat(wide.identity().isDirect()).isFalse();
        assertThat(byBytes.size()).isEqualTo(8);
        assertThat(byBytes.peek(1, q(25))).isNull();

        ResponseCache off = new ResponseCache(0, 0);
        assertThat(off.get(1, q(1), () -> new SearchBody(new byte[1])).identity().isDirect())
                .as("a body sent once stays on the heap").isFalse();
        assertThat(off.size()).isZero();
        assertThat(off.misses()).isEqualTo(1);
    }

    @Test
    void concurrentStoresNeverPassTheBounds() throws Exception {
        long max = 64 * 1024;
        ResponseCache cache = new ResponseCache(50, max);
        int threads = 8;
        AtomicInteger over = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread watcher = Thread.ofPlatform().start(() -> {
            while (!done.get()) {
                if (cache.bytes() > max || cache.size() > 50) {
                    over.incrementAndGet();
                }
            }
        });
        java.util.List<Thread> writers = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            writers.add(Thread.ofPlatform().start(() -> {
                java.util.Random rnd = new java.util.Random(seed);
                for (int i = 0; i < 2_000; i++) {
                    // sizes up to the per-entry share, so a few stores at once would overrun an unlocked budget
                    int size = 1 + rnd.nextInt((int) (max / ResponseCache.ENTRY_SHARE / 2));
                    cache.put(1, new SearchQuery(LocalDateTime.of(2021, 1, 1, 0, 0).plusSeconds(seed * 10_000L + i), null),
                            new SearchBody(new byte[size]));
                }
            }));
        }
        for (Thread w : writers) {
            w.join(30_000);
            assertThat(w.isAlive()).isFalse();
        }
        done.set(true);
        watcher.join(5_000);
        assertThat(over).hasValue(0);
        assertThat(cache.bytes()).isPositive().isLessThanOrEqualTo(max);
    }

    @Test
    void aGzipFormLargerThanTheBodyIsNeverKept() throws Exception {
        byte[] noise = new byte[4096];
        new java.util.Random(7).nextBytes(noise);
        SearchBody kept = new SearchBody(noise).kept();
        java.nio.ByteBuffer gz = kept.gzip();
        assertThat(gz.remaining()).isGreaterThan(noise.length);
        assertThat(kept.gzipReady()).isFalse();
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(bytes(gz)))) {
            assertThat(in.readAllBytes()).isEqualTo(noise);
        }
        // JSON compresses: its gzip form is kept next to it, in the same (direct) memory
        SearchBody json = new SearchBody("{\"a\":1},".repeat(500).getBytes(java.nio.charset.StandardCharsets.US_ASCII)).kept();
        assertThat(json.gzip().remaining()).isLessThan(json.length());
        assertThat(json.gzipReady()).isTrue();
        assertThat(json.gzip().isDirect()).isTrue();
    }

    private static byte[] bytes(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void narrowBodiesAreKeptInDirectMemoryAndWideOnesOnTheHeap() {
        ResponseCache cache = new ResponseCache(10, 64L << 20);
        SearchBody narrow = cache.put(1, q(1), new SearchBody(new byte[(int) ResponseCache.DIRECT_MAX]));
        SearchBody wide = cache.put(1, q(2), new SearchBody(new byte[(int) ResponseCache.DIRECT_MAX + 1]));
        assertThat(narrow.identity().isDirect()).isTrue();
        assertThat(wide.identity().isDirect()).isFalse();
        assertThat(cache.peek(1, q(2))).as("cached all the same").isSameAs(wide);
        assertThat(cache.bytes()).isEqualTo(2 * (2 * ResponseCache.DIRECT_MAX + 1));
    }
}
