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

        ResponseCache byBytes = new ResponseCache(100, 500); // a body costs twice its size (room for its gzip form)
        for (int d = 1; d <= 20; d++) {
            byBytes.get(1, q(d), () -> new SearchBody(new byte[100]));
        }
        assertThat(byBytes.size()).isLessThanOrEqualTo(2);
        byBytes.get(1, q(25), () -> new SearchBody(new byte[1000])); // larger than the whole budget: served, not cached
        assertThat(byBytes.size()).isLessThanOrEqualTo(2);

        ResponseCache off = new ResponseCache(0, 0);
        assertThat(off.get(1, q(1), () -> new SearchBody(new byte[1])).identity().isDirect())
                .as("a body sent once stays on the heap").isFalse();
        assertThat(off.size()).isZero();
        assertThat(off.misses()).isEqualTo(1);
    }
}
