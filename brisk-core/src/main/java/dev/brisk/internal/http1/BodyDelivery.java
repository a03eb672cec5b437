package dev.brisk.internal.http1;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The current request's body on its way to its handler, for an HTTP/1.1 connection's
 * {@link Http1Channel}: a deferred body ({@code Expect: 100-continue}) read when the handler asks for
 * it, a streamed one fed as the handler reads it ({@link BodyStream.Feed}), and the connection's hold on
 * whichever body it is, given back when the exchange ends.
 *
 * <p>Threads: {@link #awaitDeferred} and the {@link BodyStream.Feed} methods on the handler's thread
 * (they hop to the loop, or serve the connection themselves when the handler runs on a blocking loop);
 * the rest on the loop thread.
 */
final class BodyDelivery implements BodyStream.Feed {
    private final Http1Connection conn;
    private final Wire wire;
    private final Output output;
    private final Http1Channel channel;
    private final DeferredBody deferred = new DeferredBody();
    /** The connection's hold on the current exchange's body, given back when the exchange ends. */
    private RequestBody body;
    /** The current exchange's body when its route streams it. */
    private BodyStream bodyStream;
    /** A deferred streamed body: "100 Continue" was asked for. */
    private boolean streamBegun;

    BodyDelivery(Http1Connection conn, Wire wire, Output output, Http1Channel channel) {
        this.conn = conn;
        this.wire = wire;
        this.output = output;
        this.channel = channel;
    }

    /** A new request begins; its body waits for the handler to ask when {@code deferBody}. */
    void begin(boolean deferBody) {
        deferred.reset(deferBody);
        streamBegun = false;
    }

    /** The request is over: its body can no longer be read. */
    void end() {
        release("the request is over: its body can no longer be read");
        deferred.reset(false);
    }

    /** The connection closed: a handler waiting for its body learns it, a stream stops. */
    void closed() {
        deferred.closed();
        release("client closed the connection before the request body arrived");
    }

    /** Whether the handler answered while its streamed body was still coming. */
    boolean streamUnfinished() {
        return bodyStream != null && !bodyStream.ended();
    }

    /** Whether "100 Continue" is being written. */
    boolean continuing() {
        return deferred.continuing();
    }

    /** "100 Continue" is written (or its write was replaced by the response). */
    void continued() {
        deferred.continued();
    }

    /** Whether the body waits for the handler to ask (Expect: 100-continue). */
    boolean deferred() {
        return deferred.pending();
    }

    /** Whether the handler already runs while the body is read: a deferred or a streamed body. */
    boolean handlerWaits() {
        return deferred.pending() || bodyStream != null;
    }

    /**
     * The stream the current exchange's body is read into, its window reserved from {@code bodies};
     * null when the budget cannot take it.
     */
    BodyStream openStream(BodyStore bodies, long limit) {
        if (!bodies.memory().tryReserve(BodyStream.WINDOW)) {
            return null;
        }
        bodyStream = new BodyStream(bodies.memory(), this, limit);
        body = bodyStream;
        channel.exchange().setBody(bodyStream);
        return bodyStream;
    }

    /**
     * The whole body arrived (the connection holds it until the exchange ends): to the handler waiting
     * for it, or with the exchange to its handler; a streamed one just ends.
     */
    void arrived(RequestBody b) {
        if (b == bodyStream) {
            bodyStream.end();
            return;
        }
        body = b;
        if (deferred.pending()) {
            deferred.delivered(b);
        } else {
            channel.exchange().setBody(b);
            channel.dispatch();
        }
    }

    /** A body read while its handler runs (deferred, streamed) failed: the handler learns it as {@code e}. */
    void failed(RuntimeException e) {
        deferred.failed(e);
        if (bodyStream != null) {
            bodyStream.fail(e);
        }
    }

    /** Gives back the connection's hold on the body; a stream not read to its end fails for any reader left. */
    private void release(String why) {
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

    /** The deferred body of {@code ex}, asked for by its handler: "100 Continue", then the body. */
    RequestBody awaitDeferred(Exchange ex) {
        CompletableFuture<RequestBody> f = new CompletableFuture<>();
        if (wire.inLoop()) {
            // a handler running on a blocking loop: this thread must read the body itself
            conn.serveUntil(f, () -> requestBody(f, ex));
        } else {
            wire.execute(() -> requestBody(f, ex));
        }
        return DeferredBody.join(channel, f);
    }

    private void requestBody(CompletableFuture<RequestBody> f, Exchange ex) {
        if (!conn.isHandling() || !deferred.pending() || ex != channel.exchange()) {
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
            channel.await(f);
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
}
