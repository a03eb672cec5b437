package dev.brisk.internal.transport;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/** {@code SO_LINGER} 0: the socket's close is a reset, and what it has not sent is dropped. Stateless. */
final class Linger {
    private Linger() {
    }

    /** Sets it on {@code ch}; a channel already closed is left alone. */
    static void zero(SocketChannel ch) {
        try {
            ch.setOption(StandardSocketOptions.SO_LINGER, 0);
        } catch (IOException | RuntimeException ignored) {
            // closed meanwhile: nothing is held for it any more
        }
    }
}
