package dev.brisk.internal.http1;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.transport.ConnectionThread;
import dev.brisk.internal.transport.LoopTasks;
import dev.brisk.internal.transport.Upgrade;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;
import java.io.InterruptedIOException;
import dev.brisk.internal.web.ProtocolSwitch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The current request of an HTTP/1.1 connection as the app sees it: the {@link ExchangeOwner} of its
 * {@link Exchange}. Runs the routed exchange on its dispatch, brings the response back to the loop to
 * be framed and written, reads a deferred body when the handler asks for it, feeds a streamed body
 * ({@link BodyStream.Feed}), holds the connection's share of the request body until the exchange ends,
 * and remembers an upgrade to take effect once the response is out. One per connection, reused request
 * after request; the connection's state machine decides when each step happens.
 *
 * <p>Threads: the {@link ExchangeOwner} and {@link BodyStream.Feed} methods on any thread (they hop to
 * the loop); the rest on the loop thread.
 */
final class Http1Channel implements ExchangeOwner, BodyStream.Feed {
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
    /** Whether the current exchange's handler is done with it: its {@code complete} reached the loop. */
    private boolean handedBack;
    /** The last exchange, kept to be reused for the next request; null when there is none to reuse. */
    private Exchange spare;
    /**
     * The exchange a handler thread handed back, for {@link #writeCompleted}: one at a time, as a
     * connection has one request handled at a time and each is completed once.
     */
    private Exchange completed;
    // made once, and its own node in the loop's task queue: handing an answer back allocates nothing
    private final LoopTasks.Linked writeCompleted = new LoopTasks.Linked() {
        @Override
        public void run() {
            writeCompleted();
        }
    };
    /** Counts requests: an exchange reused for the next request is the same object, its request is not. */
    private int generation;
    private Upgrade upgrade;
    /** The virtual thread this connection's handlers run on, kept while it is busy; null when it has none. */
    private ConnectionThread thread;
    /** The connection's hold on the current exchange's body, given back when the exchange ends. */
    private RequestBody body;
    /** The current exchange's body when its route streams it. */
    private BodyStream bodyStream;
    /** A deferred streamed body: "100 Continue" was asked for. */
    private boolean streamBegun;

    Http1Channel(Http1Connection conn, Wire wire, Http1Shared shared, AdmissionGate gate, Output output,
                 Recorder recorder, Runnable responseWritten) {
        this.conn = conn;
        this.wire = wire;
        this.app = shared.app;
        this.shared = shared;
        this.gate = gate;
        this.output = output;
        this.stream = new ResponseStream(conn, output, responseWritten);
        this.writer = new ResponseWriter(conn, wire.outPool(), output, recorder, stream, responseWritten,
                wire.transfersFiles());
        this.echoIds = shared.options.requestIds();
    }

    /** A new request's exchange, made by {@code reader} from its whole head; the body may be deferred. */
    Exchange begin(RequestReader reader, boolean deferBody) {
        deferred.reset(deferBody);
        streamBegun = false;
        Exchange s = spare;
        spare = null;
        handedBack = false;
        generation++;
        exchange = reader.exchange(this, deferBody, s);
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

    /** Whether the current route streams its body. */
    boolean streamsBody() {
        return exchange.streamsBody();
    }

    /** Whether the handler already runs while the body is read: a deferred or a streamed body. */
    boolean handlerWaitsForBody() {
        return deferred.pending() || bodyStream != null;
    }

    /**
     * The stream the current exchange's body is read into, its window reserved from {@code bodies};
     * null when the budget cannot take it.
     */
    BodyStream openBodyStream(BodyStore bodies, long limit) {
        if (!bodies.memory().tryReserve(BodyStream.WINDOW)) {
            return null;
        }
        bodyStream = new BodyStream(bodies.memory(), this, limit);
        body = bodyStream;
        exchange.setBody(bodyStream);
        return bodyStream;
    }

    /**
     * The whole body arrived (the connection holds it until the exchange ends): to the handler waiting
     * for it, or with the exchange to its handler; a streamed one just ends.
     */
    void bodyArrived(RequestBody b) {
        if (b == bodyStream) {
            bodyStream.end();
            return;
        }
        body = b;
        if (deferred.pending()) {
            deferred.delivered(b);
        } else {
            exchange.setBody(b);
            dispatch();
        }
    }

    /** A body read while its handler runs (deferred, streamed) failed: the handler learns it as {@code e}. */
    void bodyFailed(RuntimeException e) {
        deferred.failed(e);
        if (bodyStream != null) {
            bodyStream.fail(e);
        }
    }

    /** Gives back the connection's hold on the body; a stream not read to its end fails for any reader left. */
    private void releaseBody(String why) {
        if (bodyStream != null) {
            bodyStream.fail(new ClientDisconnectedException(why));
            bodyStream = null;
        }
        RequestBody b = body;
        body = null;
        if (b != null) {
            b.release();
        }
    }

    /**
     * The response is written: the request is over. Its exchange is kept for the next request when its
     * handler handed it back (no other thread holds it now) and the wire stays HTTP/1.1 (an upgrade's
     * protocol reads it after). Returns the upgrade to take effect now, or null.
     */
    Upgrade end() {
        releaseBody("the request is over: its body can no longer be read");
        Exchange ex = exchange;
        if (ex != null && handedBack && upgrade == null) {
            ex.over();
            spare = ex;
        }
        exchange = null;
        deferred.reset(false);
        Upgrade u = upgrade;
        upgrade = null;
        return u;
    }

    /**
     * The connection waits for its next request: it lets go of the exchange kept for it, so that an idle
     * connection holds none (up to three small objects: the exchange and its head's copy).
     */
    void dropSpare() {
        spare = null;
        retireThread();
    }

    /** Lets the connection's handler thread go: it ends now if parked, else after its handler. */
    private void retireThread() {
        ConnectionThread t = thread;
        if (t != null) {
            thread = null;
            t.retire();
        }
    }

    /**
     * Hands the wire to {@code next}'s protocol, once the connection has let go of everything; the new
     * protocol starts with reading on and sets its own deadlines. One that fails to open closes the wire.
     */
    void switchTo(Upgrade next, java.nio.ByteBuffer buffered) {
        retireThread();
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
        retireThread();
        deferred.closed();
        releaseBody("client closed the connection before the request body arrived");
        stream.close();
    }

    // ---- ExchangeOwner (any thread) -----------------------------------------------------------

    @Override
    public RequestBody awaitDeferredBody(Exchange ex) {
        CompletableFuture<RequestBody> f = new CompletableFuture<>();
        if (wire.inLoop()) {
            // a handler running on a blocking loop: this thread must read the body itself
            conn.serveUntil(f, () -> requestBody(f, ex));
        } else {
            wire.execute(() -> requestBody(f, ex));
        }
        return DeferredBody.join(this, f);
    }

    private void requestBody(CompletableFuture<RequestBody> f, Exchange ex) {
        if (!conn.isHandling() || !deferred.pending() || ex != exchange) {
            f.completeExceptionally(new ClientDisconnectedException("connection closed"));
            return;
        }
        RuntimeException refused = conn.prepareDeferredBody();
        if (refused != null) {
            deferred.failed(refused); // no "100 Continue": the client never sends the body
            f.completeExceptionally(refused);
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

    // ---- BodyStream.Feed (the handler's thread) ------------------------------------------------

    @Override
    public void more(BodyStream s) {
        if (wire.inLoop()) {
            requireBlockingLoop();
            return; // this thread serves the connection itself in awaitBytes
        }
        wire.execute(() -> pumpBody(s));
    }

    @Override
    public void awaitBytes(BodyStream s, CompletableFuture<Void> f) throws IOException {
        if (wire.inLoop()) {
            requireBlockingLoop();
            conn.serveUntil(f, () -> pumpBody(s)); // ends when f does, or with the connection (failing s)
            return;
        }
        try {
            await(f);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("request body failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the request body");
        }
    }

    private void requireBlockingLoop() {
        if (!wire.blocking()) {
            throw new IllegalStateException("a streamed request body cannot be read on an event loop: "
                    + "it would stall every connection of the loop");
        }
    }

    /**
     * {@code s}'s reader wants bytes: "100 Continue" first if the client waits for it, else read on. Loop;
     * nothing when {@code s} is no longer the current exchange's (a late task).
     */
    private void pumpBody(BodyStream s) {
        if (s != bodyStream || conn.isClosed()) {
            return;
        }
        if (deferred.pending() && !streamBegun) {
            streamBegun = true;
            deferred.requested(null);
            output.send(DeferredBody.continueAnswer(), null, () -> {
                deferred.continued();
                conn.readBody();
            });
            return;
        }
        conn.resumeBody();
    }

    @Override
    public void complete(Exchange ex) {
        gate.release();
        if (wire.inLoop()) {
            writeResponse(ex);
        } else {
            completed = ex; // read by the task on the loop: the task queue orders the two
            wire.execute(writeCompleted);
        }
    }

    /** The loop's side of {@link #complete} from another thread. */
    private void writeCompleted() {
        Exchange ex = completed;
        completed = null;
        writeResponse(ex);
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

    @Override
    public boolean closesAfterResponse() {
        return conn.closingAfterResponse();
    }

    @Override
    public ConnectionThread connectionThread() {
        ConnectionThread t = thread;
        if (t == null) {
            t = new ConnectionThread();
            thread = t;
        }
        return t;
    }

    /** After {@code ex}'s response is written, hands the wire to {@code next}'s protocol. Loop thread. */
    void upgradeAfter(Exchange ex, Upgrade next) {
        if (ex == exchange) {
            upgrade = next;
        }
    }

    private void writeResponse(Exchange ex) {
        int gen = generation; // a pipelined answer written at once may begin the next request in the send
        try {
            if (conn.isClosed() || ex != exchange) {
                Exchange.closeQuietly(ex.responseStream());
                return;
            }
            handedBack = true;
            if (bodyStream != null && !bodyStream.ended()) {
                conn.abandonBody(); // the handler answered before the whole body came: it is not read any more
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
            if (!conn.isClosed() && !output.writing() && ex == exchange && gen == generation) {
                conn.refuse(500, "Internal Server Error");
            } else {
                conn.close();
            }
        }
    }
}
