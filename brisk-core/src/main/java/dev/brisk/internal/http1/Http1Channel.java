package dev.brisk.internal.http1;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.internal.transport.Upgrade;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import dev.brisk.internal.web.ProtocolSwitch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The current request of an HTTP/1.1 connection as the app sees it: the {@link ExchangeOwner} of its
 * {@link Exchange}. Runs the routed exchange on its dispatch, brings the response back to the loop to
 * be framed and written, reads a deferred body when the handler asks for it, and remembers an upgrade
 * to take effect once the response is out. One per connection, reused request after request; the
 * connection's state machine decides when each step happens.
 *
 * <p>Threads: the {@link ExchangeOwner} methods on any thread (they hop to the loop); the rest on the
 * loop thread.
 */
final class Http1Channel implements ExchangeOwner {
    private final Http1Connection conn;
    private final Wire wire;
    private final App app;
    private final Http1Shared shared;
    private final AdmissionGate gate;
    private final Output output;
    private final ResponseWriter writer;
    private final ResponseStream stream;
    private final DeferredBody deferred = new DeferredBody();
    private final boolean echoIds;
    private Exchange exchange;
    private Upgrade upgrade;

    Http1Channel(Http1Connection conn, Wire wire, Http1Shared shared, AdmissionGate gate, Output output,
                 Recorder recorder, Runnable responseWritten) {
        this.conn = conn;
        this.wire = wire;
        this.app = shared.app;
        this.shared = shared;
        this.gate = gate;
        this.output = output;
        this.stream = new ResponseStream(conn, output, responseWritten);
        this.writer = new ResponseWriter(conn, wire.outPool(), output, recorder, stream, responseWritten);
        this.echoIds = shared.options.requestIds();
    }

    /** A new request's exchange, made by {@code reader} from its whole head; the body may be deferred. */
    Exchange begin(RequestReader reader, boolean deferBody) {
        deferred.reset(deferBody);
        exchange = reader.exchange(this, deferBody);
        return exchange;
    }

    /** The current request's exchange, or null between requests (and after an engine's own answer). */
    Exchange exchange() {
        return exchange;
    }

    /** Whether the body waits for the handler to ask (Expect: 100-continue). */
    boolean bodyDeferred() {
        return deferred.pending();
    }

    /** Runs the handler: right here on a blocking loop, else on its route's dispatch. */
    void dispatch() {
        if (wire.blocking()) {
            app.runInline(exchange);
        } else {
            app.dispatch(exchange);
        }
    }

    /** The whole body arrived: to the handler waiting for it, or with the exchange to its handler. */
    void bodyArrived(byte[] body) {
        if (deferred.pending()) {
            deferred.delivered(body);
        } else {
            exchange.setBody(body);
            dispatch();
        }
    }

    /** A deferred body failed: the handler's wait fails with {@code status}. */
    void deferredBodyFailed(int status, String message) {
        deferred.failed(status, message);
    }

    /** The response is written: the request is over. Returns the upgrade to take effect now, or null. */
    Upgrade end() {
        exchange = null;
        deferred.reset(false);
        Upgrade u = upgrade;
        upgrade = null;
        return u;
    }

    /**
     * Hands the wire to {@code next}'s protocol, once the connection has let go of everything; the new
     * protocol starts with reading on and sets its own deadlines. One that fails to open closes the wire.
     */
    void switchTo(Upgrade next, java.nio.ByteBuffer buffered) {
        wire.readInterest(true);
        try {
            wire.protocol(next.open(wire, buffered));
        } catch (RuntimeException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, "protocol upgrade failed", e);
            wire.close();
        }
    }

    /** Whether the wire changes hands after the current response. */
    boolean upgrading() {
        return upgrade != null;
    }

    /** Whether a response body stream is being pumped. */
    boolean streaming() {
        return stream.active();
    }

    ResponseStream stream() {
        return stream;
    }

    /** The connection closed: a handler waiting for its body learns it, a stream stops. */
    void close() {
        deferred.closed();
        stream.close();
    }

    // ---- ExchangeOwner (any thread) -----------------------------------------------------------

    @Override
    public byte[] awaitDeferredBody(Exchange ex) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        if (wire.inLoop()) {
            // a handler running on a blocking loop: this thread must read the body itself
            conn.serveUntil(f, () -> requestBody(f, ex));
        } else {
            wire.execute(() -> requestBody(f, ex));
        }
        return DeferredBody.join(this, f);
    }

    private void requestBody(CompletableFuture<byte[]> f, Exchange ex) {
        if (!conn.isHandling() || !deferred.pending() || ex != exchange) {
            f.completeExceptionally(new ClientDisconnectedException("connection closed"));
            return;
        }
        deferred.requested(f);
        output.send(DeferredBody.continueAnswer(), null, () -> {
            deferred.continued();
            conn.readBody();
        });
    }

    /** Waits for a future the loop completes; gives up only if the connection is gone. Not the loop thread. */
    <T> T await(CompletableFuture<T> f) throws ExecutionException, InterruptedException {
        while (true) {
            try {
                return f.get(1, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                if (conn.gone()) {
                    throw new ExecutionException(new ClientDisconnectedException("connection closed"));
                }
            }
        }
    }

    @Override
    public void complete(Exchange ex) {
        gate.release();
        if (wire.inLoop()) {
            writeResponse(ex);
        } else {
            wire.execute(() -> writeResponse(ex));
        }
    }

    @Override
    public String remoteAddress() {
        return wire.remoteAddress();
    }

    @Override
    public dev.brisk.TlsInfo tls() {
        return wire.tls();
    }

    @Override
    public boolean canSwitchProtocols() {
        return true;
    }

    /** After {@code ex}'s response is written, hands the wire to {@code next}'s protocol. Loop thread. */
    void upgradeAfter(Exchange ex, Upgrade next) {
        if (ex == exchange) {
            upgrade = next;
        }
    }

    private void writeResponse(Exchange ex) {
        try {
            if (conn.isClosed() || ex != exchange) {
                Exchange.closeQuietly(ex.responseStream());
                return;
            }
            if (shared.draining() || ex.deferredBodyUnread()) {
                // shutting down (its last response), or the client may still send a body nobody asked for
                conn.closeAfterResponse();
            }
            if (deferred.continuing()) {
                // "100 Continue" is still being written and the handler gave up on its body: answer next
                conn.closeAfterResponse();
                output.whenWritten(() -> {
                    deferred.continued(); // what the replaced continuation did first
                    writeResponse(ex);
                });
                return;
            }
            if (echoIds) {
                ex.echoRequestId();
            }
            ProtocolSwitch next = ex.protocolSwitch();
            if (next != null && conn.closingAfterResponse()) {
                ex.declineSwitch(503, "Service Unavailable: the server is shutting down");
                next = null;
            }
            if (next != null) {
                upgradeAfter(ex, next.upgrade()); // before the send: a head about to switch is never batched
                writer.sendSwitch(ex, next);
                return;
            }
            if (!writer.send(ex, conn.closingAfterResponse(), shared.streams())) {
                conn.refuse(500, "Response headers too large");
            }
        } catch (RuntimeException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, "writing a response failed", e);
            if (!conn.isClosed() && !output.writing() && ex == exchange) {
                conn.refuse(500, "Internal Server Error");
            } else {
                conn.close();
            }
        }
    }
}
