package dev.brisk.internal.http1;

import dev.brisk.internal.transport.ConnectionThread;
import dev.brisk.internal.transport.LoopTasks;
import dev.brisk.internal.transport.Upgrade;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import dev.brisk.internal.web.RequestBody;
import dev.brisk.internal.web.ProtocolSwitch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import dev.brisk.ClientDisconnectedException;

/**
 * The current request of an HTTP/1.1 connection as the app sees it: the {@link ExchangeOwner} of its
 * {@link Exchange}. Runs the routed exchange on its dispatch, brings the response back to the loop to
 * be framed and written, hands the request's body on through {@link BodyDelivery}, keeps the exchange
 * (up to {@link PipelineRun#MAX} of them, for a pipeline run's members) and the handler's virtual
 * thread for the connection's next requests while it is busy, runs a {@link PipelineRun}'s handlers on
 * that thread in one hand-off, and remembers an upgrade to take effect once the response is out. One
 * per connection, reused request after request; the connection's state machine decides when each step
 * happens.
 *
 * <p>Threads: the {@link ExchangeOwner} methods on any thread (they hop to the loop); a run's task (in
 * {@code dispatchRun}), {@code runsOn} and {@code small} on the connection's thread, reading only what the
 * loop does not write while the run goes on; the rest on the loop thread.
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
    private final BodyDelivery body;
    private final boolean echoIds;
    private Exchange exchange;
    /** Whether the current exchange's handler is done with it: its {@code complete} reached the loop. */
    private boolean handedBack;
    /** Exchanges kept to be reused for the next requests. */
    private final SpareExchanges spares = new SpareExchanges();
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
    /**
     * The {@link PipelineRun} member whose handler the connection's thread is running: written by that
     * thread only. {@link #complete} compares with it on whichever thread completes an exchange; elsewhere
     * than on the connection's thread a stale value never equals the exchange being completed.
     */
    private Exchange runMember;

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
        this.body = new BodyDelivery(conn, wire, output, this);
    }

    /** The current request's body on its way to the handler. */
    BodyDelivery body() {
        return body;
    }

    /** A new request's exchange, made by {@code reader} from its whole head; the body may be deferred. */
    Exchange begin(RequestReader reader, boolean deferBody) {
        body.begin(deferBody);
        Exchange s = spares.take();
        handedBack = false;
        generation++;
        exchange = reader.exchange(this, deferBody, s);
        return exchange;
    }

    /**
     * The exchange for a request parsed to join a {@link PipelineRun} (a kept one when there is one),
     * made by {@code reader} from its whole head; not the current request's.
     */
    Exchange runMember(RequestReader reader) {
        return reader.exchange(this, false, spares.take());
    }

    /** A request parsed for a run did not join it: its exchange is kept for later. */
    void notRunMember(Exchange ex) {
        ex.over();
        spares.keep(ex);
    }

    /** The next member of a {@link PipelineRun} becomes the current request. */
    void adopt(Exchange next) {
        body.begin(false);
        handedBack = false;
        generation++;
        exchange = next;
    }

    /**
     * Runs {@code run}'s handlers one after another on the connection's thread; each one's end reaches
     * the loop as {@code conn.memberDone}. A server that has stopped refuses the hand-off: then each
     * member is answered 503 here.
     */
    void dispatchRun(PipelineRun run) {
        Runnable task = () -> {
            long start = System.nanoTime();
            for (int i = 0; i < run.size(); i++) {
                Exchange m = run.member(i);
                if (i > 0 && !runsOn(run.member(i - 1), start)) {
                    run.stopAt(i); // the rest go one by one, in their turn (or never, if the connection ends)
                    wire.execute(() -> conn.runStopped(run));
                    return;
                }
                Thread.interrupted(); // one left by the handler before is not this request's, as between tasks
                runMember = m; // its complete() is told to the loop below, in the run's order
                try {
                    app.runInline(m);
                } catch (RuntimeException | Error e) {
                    // the chain answers its own failures; this is the engine's, reported as a
                    // thread's would be, and the run goes on so that no later answer waits forever
                    System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, "a pipelined request failed", e);
                } finally {
                    runMember = null;
                }
                run.ended(i); // before the task: the loop may write this answer with the one before it
                int index = i;
                wire.execute(() -> conn.memberDone(run, index));
            }
        };
        if (!app.dispatchAll(run.member(0), task)) {
            for (int i = 0; i < run.size(); i++) {
                Exchange m = run.member(i);
                app.unavailable(m);
                run.ended(i);
                conn.memberDone(run, i);
            }
        }
    }

    /**
     * Whether the run goes on after {@code previous}'s handler: not when its answer is a stream (an event
     * stream may never end, and an HTTP/1.0 one ends the connection) or larger than
     * {@link PipelineRun#SMALL_ANSWER}, nor when the server drains or the
     * connection is gone (the answers after would be dropped), nor once the run has kept the thread for
     * {@link PipelineRun#SLICE_NANOS} since {@code start} (other connections' handlers wait for the
     * carrier meanwhile). Connection's thread.
     */
    private boolean runsOn(Exchange previous, long start) {
        return previous.responseStream() == null && small(previous) && !shared.draining() && !conn.gone()
                && System.nanoTime() - start < PipelineRun.SLICE_NANOS;
    }

    /**
     * Whether {@code ex}'s answer body and header fields are each at most {@link PipelineRun#SMALL_ANSWER}
     * bytes. Answers run ahead wait in memory for their turn: after a larger one (which a slow reader may
     * take long to take), the rest go one by one, so a connection holds at most a run of small answers
     * besides it. Small fields also mean the head can be framed (a head past 1 MiB is refused with 500 and
     * ends the connection, and a handler run ahead of it would have run for a request never answered).
     */
    private static boolean small(Exchange ex) {
        String text = ex.responseText();
        byte[] bytes = ex.responseBody();
        java.nio.ByteBuffer buffer = ex.responseBuffer();
        if ((text != null && text.length() > PipelineRun.SMALL_ANSWER)
                || (bytes != null && bytes.length > PipelineRun.SMALL_ANSWER)
                || (buffer != null && buffer.remaining() > PipelineRun.SMALL_ANSWER)) {
            return false;
        }
        java.util.List<String> fields = ex.responseHeaders(); // name, value, name, value...
        int length = 0;
        for (int i = 0; i < fields.size() && length <= PipelineRun.SMALL_ANSWER; i++) {
            length += fields.get(i).length() + 2;
        }
        return length <= PipelineRun.SMALL_ANSWER;
    }

    /** {@code ex}'s handler ended: its answer goes out now (it is the current request's). Loop thread. */
    void written(Exchange ex) {
        writeResponse(ex);
    }

    /** The current request's exchange, or null between requests (and after an engine's own answer). */
    Exchange exchange() {
        return exchange;
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






    /**
     * The response is written: the request is over. Its exchange is kept for the next request when its
     * handler handed it back (no other thread holds it now) and the wire stays HTTP/1.1 (an upgrade's
     * protocol reads it after). Returns the upgrade to take effect now, or null.
     */
    Upgrade end() {
        body.end();
        Exchange ex = exchange;
        if (ex != null && handedBack && upgrade == null) {
            ex.over();
            if (ex.reusable()) { // not while a context kept past the handler is in a call on it
                spares.keep(ex);
            }
        }
        exchange = null;
        Upgrade u = upgrade;
        upgrade = null;
        return u;
    }

    /**
     * The connection waits for its next request and served none since the loop's scan before: it lets go
     * of the exchange kept for it and its handler thread, so that an idle connection holds neither (up to
     * three small objects: the exchange and its head's copy).
     */
    void dropSpare() {
        spares.drop();
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
        body.closed();
        stream.close();
    }

    // ---- ExchangeOwner (any thread) -----------------------------------------------------------

    @Override
    public RequestBody awaitDeferredBody(Exchange ex) {
        return body.awaitDeferred(ex);
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
        if (ex == runMember) {
            return; // a run's member: the run tells the loop, after this returns (see dispatchRun)
        }
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
            if (body.streamUnfinished()) {
                conn.abandonBody(); // the handler answered before the whole body came: it is not read any more
            }
            if (shared.draining() && conn.lastBeforeDrain() || ex.deferredBodyUnread()) {
                // shutting down (its last response: nothing received before the drain is left to answer),
                // or the client may still send a body nobody asked for
                conn.closeAfterResponse();
                if (conn.isClosed()) {
                    Exchange.closeQuietly(ex.responseStream()); // the drain's look at the wire found it gone
                    return;
                }
            }
            if (body.continuing()) {
                // "100 Continue" is still being written and the handler gave up on its body: answer next
                conn.closeAfterResponse();
                output.whenWritten(() -> {
                    body.continued(); // what the replaced continuation did first
                    writeResponse(ex);
                });
                return;
            }
            if (echoIds) {
                ex.echoRequestId();
            }
            ProtocolSwitch next = ex.protocolSwitch();
            if (next != null && (conn.closingAfterResponse() || shared.draining())) {
                // no new protocol starts in a drain, even with requests received behind this one; what the
                // client sent after an Upgrade request is not read as requests: the 503 is the last answer
                conn.closeAfterResponse();
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
