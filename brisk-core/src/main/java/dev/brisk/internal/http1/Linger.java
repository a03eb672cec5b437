package dev.brisk.internal.http1;

import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The end of a connection whose client may still be sending: output shut, and what still arrives
 * read and dropped for a while, since closing with unread input would reset the connection and could
 * cut off the answer just sent. Bounded in time ({@link #NANOS}) and bytes ({@link #MAX_BYTES}).
 * Loop thread only.
 */
final class Linger {
    static final long NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long MAX_BYTES = 1 << 20;
    private long bytes;

    /** Reads and drops what is available into {@code scratch}; true when the connection should close now. */
    boolean drain(Wire wire, ByteBuffer scratch) {
        try {
            while (true) {
                scratch.clear();
                int n = wire.read(scratch);
                if (n < 0 || (bytes += n) > MAX_BYTES) {
                    return true;
                }
                if (n == 0) {
                    return false;
                }
            }
        } catch (IOException e) {
            return true;
        }
    }
}
