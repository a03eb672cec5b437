package dev.brisk.internal.transport;

/** Makes the protocol a new connection starts with. Called on the connection's loop thread. */
@FunctionalInterface
public interface ProtocolFactory {
    Protocol open(Wire wire);

    /**
     * The protocol for a connection no thread came free for (the blocking engine's platform threads,
     * after {@code connection-wait-timeout}), served on a short-lived virtual thread: it answers one
     * request, and only what costs nothing or must never be shed (health probes), refusing the rest.
     * Null (the default): the engine closes such a connection unanswered.
     */
    default ProtocolFactory whenBusy() {
        return null;
    }
}
