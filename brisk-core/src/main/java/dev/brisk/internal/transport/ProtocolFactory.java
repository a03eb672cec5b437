package dev.brisk.internal.transport;

/** Makes the protocol a new connection starts with. Called on the connection's loop thread. */
@FunctionalInterface
public interface ProtocolFactory {
    Protocol open(Wire wire);
}
