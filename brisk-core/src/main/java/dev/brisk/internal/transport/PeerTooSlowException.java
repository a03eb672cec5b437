package dev.brisk.internal.transport;

import java.io.IOException;

/**
 * A blocking write ended because the client took too little of it: the engine's watchdog closed the
 * socket past {@code write-timeout} or below {@code min-response-rate}. A protocol that reports why a
 * session ended (a WebSocket: 1008, a slow receiver) tells it from a peer that left.
 */
public final class PeerTooSlowException extends IOException {
    PeerTooSlowException(String message, IOException cause) {
        super(message, cause);
    }
}
