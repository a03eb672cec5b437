package dev.brisk.internal.transport;

import java.nio.ByteBuffer;

/**
 * The protocol a connection switches to once the current protocol is done with it (a WebSocket or
 * h2c upgrade after its {@code 101} answer; the end of a connection that lingers). Called on the
 * wire's loop thread, after the old protocol has let go of everything it held.
 */
@FunctionalInterface
public interface Upgrade {
    /**
     * @param buffered bytes the peer sent after the old protocol's last message, already read (read
     *                 mode, owned by the new protocol; may be empty)
     */
    Protocol open(Wire wire, ByteBuffer buffered);
}
