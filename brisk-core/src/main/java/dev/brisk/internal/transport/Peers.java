package dev.brisk.internal.transport;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;

/** The peer of a socket as {@code host:port}, for logs. */
final class Peers {
    private Peers() {
    }

    static String describe(SocketChannel ch) {
        try {
            SocketAddress a = ch.getRemoteAddress();
            return a == null ? "unknown" : a.toString().replaceFirst("^.*/", "");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
