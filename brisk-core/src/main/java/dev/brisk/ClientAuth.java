package dev.brisk;

/** Whether a TLS server asks its clients for a certificate (option {@code tls-client-auth}). */
public enum ClientAuth {
    /** No client certificate is asked for. */
    NONE,
    /** A certificate is asked for; a client without one is served, one with an untrusted one is refused. */
    WANT,
    /** A trusted client certificate is required: the handshake fails without one. */
    NEED
}
