package dev.brisk.internal.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TlsBuffersTest {

    @Test
    void aLoopMakesAtMostItsBoundOfDirectBuffersAndKeepsThemAll() throws Exception {
        // a thread of its own: the pool is per loop thread
        List<String> failures = new ArrayList<>();
        Thread t = new Thread(() -> {
            TlsBuffers pool = TlsBuffers.ofThisLoop();
            List<ByteBuffer> held = new ArrayList<>();
            for (int i = 0; i < TlsBuffers.KEEP + 10; i++) {
                held.add(pool.take(TlsBuffers.SIZE));
            }
            long direct = held.stream().filter(ByteBuffer::isDirect).count();
            if (direct != TlsBuffers.KEEP || pool.made() != TlsBuffers.KEEP) {
                failures.add("direct " + direct + ", made " + pool.made());
            }
            held.forEach(pool::give);
            // every direct buffer back in the pool; heap ones only while it holds fewer than its bound
            if (pool.free() > 2 * TlsBuffers.KEEP || pool.free() < TlsBuffers.KEEP) {
                failures.add("free " + pool.free());
            }
            // taken again: the direct ones come back first, and no new one is made
            for (int i = 0; i < TlsBuffers.KEEP + 10; i++) {
                ByteBuffer b = pool.take(100);
                if (b.position() != 0 || b.remaining() != TlsBuffers.SIZE) {
                    failures.add("not a cleared buffer: " + b);
                }
            }
            if (pool.made() != TlsBuffers.KEEP) {
                failures.add("made again: " + pool.made());
            }
            // a buffer larger than a record is never pooled nor direct
            ByteBuffer big = pool.take(TlsBuffers.SIZE + 1);
            if (big.isDirect() || big.capacity() < TlsBuffers.SIZE + 1) {
                failures.add("big: " + big);
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
