package dev.brisk.internal.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.internal.http1.MemoryWire;
import dev.brisk.internal.transport.Protocol;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
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

    @Test
    void aBlockingConnectionClosedWhileItsReadWaitsNeverPoolsTheBufferBeingReadInto() throws Exception {
        // a duplex protocol's read runs while another thread holds the connection and may close it: the
        // socket read may still fill the buffer after the close, so it must not go back to the shared pool
        MemoryWire plain = new MemoryWire(true);
        SSLEngine engine = SSLContext.getDefault().createSSLEngine();
        engine.setUseClientMode(false);
        Protocol tls = TlsWire.open(plain, engine, w -> {
            throw new AssertionError("no handshake can finish here");
        }, new TlsCounters(), 10_000_000_000L, 10_000_000_000L);
        ByteBuffer[] readInto = new ByteBuffer[1];
        plain.onRead = dst -> {
            readInto[0] = dst;
            tls.close(); // another thread's close, while this read waits
        };
        tls.onReadable(); // the handshake reads the ClientHello into a record buffer
        assertThat(readInto[0]).isNotNull();
        assertThat(plain.closed).isTrue();
        assertThat(TlsBuffers.SHARED.holds(readInto[0])).as("the buffer being read into is pooled").isFalse();
    }
}
