package dev.brisk.internal.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TlsBuffersTest {

    @Test
    void aLoopReusesItsBuffersAndKeepsAtMostItsBound() throws Exception {
        // a thread of its own: the pool is per loop thread
        List<String> failures = new ArrayList<>();
        Thread t = new Thread(() -> {
            TlsBuffers pool = TlsBuffers.ofThisLoop();
            if (TlsBuffers.ofThisLoop() != pool) {
                failures.add("a second pool on one loop");
            }
            List<ByteBuffer> held = new ArrayList<>();
            for (int i = 0; i < TlsBuffers.KEEP + 10; i++) {
                ByteBuffer b = pool.take(TlsBuffers.SIZE);
                b.put((byte) 1);
                held.add(b);
            }
            held.forEach(pool::give);
            if (pool.free() != TlsBuffers.KEEP) {
                failures.add("free " + pool.free());
            }
            ByteBuffer again = pool.take(100);
            if (held.stream().noneMatch(b -> b == again) || again.position() != 0
                    || again.remaining() != TlsBuffers.SIZE) {
                failures.add("not a reused, cleared buffer: " + again);
            }
            // a buffer larger than a record is not kept
            ByteBuffer big = pool.take(TlsBuffers.SIZE + 1);
            pool.give(again);
            pool.give(big);
            if (big.capacity() <= TlsBuffers.SIZE || pool.free() != TlsBuffers.KEEP) {
                failures.add("big: " + big + ", free " + pool.free());
            }
        });
        t.start();
        t.join();
        assertThat(failures).isEmpty();
    }

    @Test
    void connectionsOnThreadsOfTheirOwnShareHeapBuffersUpToABound() {
        TlsBuffers shared = TlsBuffers.SHARED;
        List<ByteBuffer> taken = new ArrayList<>();
        for (int i = 0; i < TlsBuffers.SHARED_KEEP + 10; i++) {
            ByteBuffer b = shared.take(TlsBuffers.SIZE);
            assertThat(b.isDirect()).isFalse(); // a blocking socket reads into the buffer's array
            b.put((byte) 1);
            taken.add(b);
        }
        taken.forEach(shared::give);
        assertThat(shared.free()).isEqualTo(TlsBuffers.SHARED_KEEP);
        ByteBuffer again = shared.take(100);
        assertThat(taken).anySatisfy(b -> assertThat(b).isSameAs(again)); // reused, not made
        assertThat(again.position()).isZero();
        assertThat(again.remaining()).isEqualTo(TlsBuffers.SIZE);
        shared.give(again);
        ByteBuffer big = shared.take(TlsBuffers.SIZE + 1);
        assertThat(big.capacity()).isGreaterThan(TlsBuffers.SIZE);
        shared.give(big); // not of a record's size: not kept
        assertThat(shared.free()).isEqualTo(TlsBuffers.SHARED_KEEP);
    }
}
