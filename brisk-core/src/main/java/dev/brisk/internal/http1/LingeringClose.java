package dev.brisk.internal.http1;

import dev.brisk.internal.transport.InputDrain;
import dev.brisk.internal.transport.Wire;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1's lingering close: a connection that has written its last answer while its client may still
 * be sending (a refused upload, a pipelined request after {@code Connection: close}) hands its wire to
 * an {@link InputDrain} bounded by {@link #NANOS} and {@link #MAX_BYTES}, counted in
 * {@link Http1Shared#lingering} while it lasts (a drain does not wait for these: everything they
 * had to say is sent). HTTP/2's end after its {@code GOAWAY} uses it too.
 */
public final class LingeringClose {
    static final long NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long MAX_BYTES = 1 << 20;

    private LingeringClose() {
    }

    /**
     * Takes {@code wire} over from its protocol, which must not touch it again. Loop thread.
     *
     * @param scratch a pooled buffer to read into (the old protocol's input buffer), or null
     */
    public static void takeOver(Wire wire, Http1Shared shared, ByteBuffer scratch) {
        InputDrain.start(wire, scratch, MAX_BYTES, NANOS, shared::lingerStarted, shared::lingerEnded);
    }
}
