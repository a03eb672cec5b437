package dev.brisk.internal.web;

/** What an exchange needs from the connection that owns it. Implemented by the engine. */
public interface ExchangeOwner {
    /**
     * The body of a request sent with {@code Expect: 100-continue}: sends {@code 100 Continue}, waits
     * for the body and returns it (held by the connection: the caller takes its own hold). Called at most
     * once, from the handler's thread, never the I/O thread.
     */
    RequestBody awaitDeferredBody(Exchange exchange);

    /** The handler chain has finished; write the response. Callable from any thread, once. */
    void complete(Exchange exchange);

    /** The peer address as {@code host:port}. */
    String remoteAddress();

    /** The connection's TLS, or null on plain HTTP. */
    dev.brisk.TlsInfo tls();

    /**
     * Whether the connection can switch to another protocol after this exchange's response
     * ({@link ProtocolSwitch}): an HTTP/1.1 connection can, an HTTP/2 stream cannot.
     */
    default boolean canSwitchProtocols() {
        return false;
    }

    /**
     * The virtual thread the connection's handlers run on one after another, kept while the connection
     * is busy; null where each exchange gets a thread of its own (an HTTP/2 stream). Called on the
     * connection's I/O thread when its exchange is dispatched to a virtual thread.
     */
    default dev.brisk.internal.transport.ConnectionThread connectionThread() {
        return null;
    }

    /**
     * Whether the connection closes after this exchange's response (so its kept thread need not wait for
     * another request). The connection's I/O thread.
     */
    default boolean closesAfterResponse() {
        return false;
    }
}
