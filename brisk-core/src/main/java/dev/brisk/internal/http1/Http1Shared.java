package dev.brisk.internal.http1;

import dev.brisk.ServerOptions;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.ProtocolFactory;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.Exchange;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every HTTP/1.1 connection of one server shares: the options, the app, the admission control and
 * access log (each null when off), where request bodies live ({@link BodyStore}), where response
 * streams are pumped, and the server-wide state a connection reports to (draining, lingering). Also
 * the factory of new connections.
 *
 * <p>Threads: immutable apart from the volatile state and the counter; any thread.
 */
public final class Http1Shared implements ProtocolFactory {
    final ServerOptions options;
    final App app;
    final AccessLog accessLog;
    final AdmissionControl admission;
    final BodyStore bodies;

    /** {@return where request bodies live: the memory budget and the spool, shared by every protocol} */
    public BodyStore bodies() {
        return bodies;
    }
    private final AtomicInteger lingering = new AtomicInteger();
    private volatile boolean draining;
    private volatile Executor streams;
    /** Takes over a plain connection that opens with the HTTP/2 preface; null when h2c is off. */
    private volatile dev.brisk.internal.transport.Upgrade priorKnowledge;

    public Http1Shared(ServerOptions options, App app, AccessLog accessLog, AdmissionControl admission,
                       BodyStore bodies) {
        this.options = options;
        this.app = app;
        this.accessLog = accessLog;
        this.admission = admission;
        this.bodies = bodies;
    }

    /** With a body store of its own, made from {@code options}. */
    public Http1Shared(ServerOptions options, App app, AccessLog accessLog, AdmissionControl admission) {
        this(options, app, accessLog, admission, new BodyStore(options));
    }

    @Override
    public Protocol open(Wire wire) {
        return new Http1Connection(wire, this, false);
    }

    /** One request, closing after: fast-static and never-shed routes are served, the rest shed ({@code thread-limit}). */
    @Override
    public ProtocolFactory whenBusy() {
        return busy;
    }

    private final ProtocolFactory busy = wire -> new Http1Connection(wire, this, true);

    RequestParser newParser() {
        // the body limit is the route's: checked once the head is routed (bodyLimit)
        return new RequestParser(options.maxRequestLine(), options.maxHeaderSize(), options.maxHeaders(),
                Long.MAX_VALUE);
    }

    /**
     * The most body bytes {@code ex} may carry: its route's own limit, else {@code max-body-size} for a
     * buffered body (no more than one array unless it may spool) and no limit for a streamed one.
     */
    long bodyLimit(Exchange ex) {
        CompiledRoute r = ex.route();
        boolean streamed = r != null && r.streamBody();
        long limit = r != null && r.maxBodySize() != CompiledRoute.SERVER_LIMIT ? r.maxBodySize()
                : streamed ? Long.MAX_VALUE : options.maxBodySize();
        return streamed ? limit : bodies.bufferedLimit(limit);
    }

    /** Where response body streams are copied to their connections (they may block); set at start. */
    public void streams(Executor executor) {
        streams = executor;
    }

    /** Where response body streams are pumped (HTTP/2's too). */
    public Executor streams() {
        return streams;
    }

    /** Serve a plain connection that opens with the HTTP/2 preface with {@code h2c} (null: h2c off). Set at start. */
    public void priorKnowledge(dev.brisk.internal.transport.Upgrade h2c) {
        priorKnowledge = h2c;
    }

    dev.brisk.internal.transport.Upgrade priorKnowledge() {
        return priorKnowledge;
    }

    /** Graceful shutdown has begun: every response from now on is its connection's last. */
    public void startDraining() {
        draining = true;
    }

    public boolean draining() {
        return draining;
    }

    /** Connections that have sent everything and only drop what their client still sends. */
    public int lingering() {
        return lingering.get();
    }

    void lingerStarted() {
        lingering.incrementAndGet();
    }

    void lingerEnded() {
        lingering.decrementAndGet();
    }
}
