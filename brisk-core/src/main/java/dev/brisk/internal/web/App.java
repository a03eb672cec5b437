package dev.brisk.internal.web;

import dev.brisk.Dispatch;
import dev.brisk.internal.ops.Readiness;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.routing.FastRoutes;
import dev.brisk.internal.ws.WebSockets;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * A started app, as the engine sees it: a small facade over the parts that each own one concern.
 * {@link Routing} decides what runs for a request, {@link Dispatcher} where it runs, {@link ChainRunner}
 * runs it with the after filters, and {@link ExceptionMapping} turns failures and statuses into answers.
 *
 * <p>Every request is first {@link #route routed} (on the I/O thread, right after its head is parsed,
 * so admission can see the route before the body is read), then {@link #dispatch dispatched} or
 * {@link #runInline run inline}; the exchange's owner is told once its answer is ready. Frozen at
 * start-up and shared by all I/O loops.
 */
public final class App {
    private final Routing routing;
    private final Dispatcher dispatcher;
    private final FastRoutes fastRoutes;
    private final Readiness readiness;
    private final WebSockets webSockets;
    private final RequestServices services;
    private final dev.brisk.internal.compress.EncodedFiles encodedFiles;

    App(Routing routing, Dispatcher dispatcher, FastRoutes fastRoutes, Readiness readiness, WebSockets webSockets,
        RequestServices services, dev.brisk.internal.compress.EncodedFiles encodedFiles) {
        this.routing = routing;
        this.dispatcher = dispatcher;
        this.fastRoutes = fastRoutes;
        this.readiness = readiness;
        this.webSockets = webSockets;
        this.services = services;
        this.encodedFiles = encodedFiles;
    }

    /** The static files' encodings kept for reuse (option {@code compressed-file-cache}). */
    public dev.brisk.internal.compress.EncodedFiles encodedFiles() {
        return encodedFiles;
    }

    /** The app's WebSocket sessions: their limits, shared memory and counters. */
    public WebSockets webSockets() {
        return webSockets;
    }

    /** Where stored multipart parts live: the server's body store; set by the server before it starts. */
    public void bodies(dev.brisk.internal.body.BodyStore store) {
        services.bodies(store);
    }

    /** Whether the app wants traffic; graceful shutdown turns it off first. */
    public Readiness readiness() {
        return readiness;
    }

    /** The executors for {@link Dispatch#VIRTUAL_THREADS} and {@link Dispatch#WORKER_POOL}; set by the server at start. */
    public void executors(Executor virtualThreads, Executor workers) {
        dispatcher.executors(virtualThreads, workers);
        webSockets.executors(virtualThreads, workers);
    }

    /** Every normal route (fast-static ones included as their GET fallbacks), for per-route metrics. */
    public List<CompiledRoute> routes() {
        return routing.routes();
    }

    /** The prebuilt answers the connection serves itself, before any exchange is made. */
    public FastRoutes fastRoutes() {
        return fastRoutes;
    }

    /** Finds {@code ex}'s route and remembers on it the chain to run and where. On the I/O thread. */
    public void route(Exchange ex) {
        routing.route(ex);
    }

    /** Whether the routed {@code ex}'s chain runs on a virtual thread. */
    public boolean onVirtualThread(Exchange ex) {
        return dispatcher.onVirtualThread(ex);
    }

    /**
     * Runs {@code task}, which runs the chains of several routed requests of {@code first}'s connection
     * one after another ({@link #runInline}), on that connection's virtual thread. False when the server
     * has stopped and refuses it: then nothing ran.
     */
    public boolean dispatchAll(Exchange first, Runnable task) {
        return dispatcher.dispatchAll(first, task);
    }

    /** Sets {@code ex}'s answer to the 503 a refused dispatch gets (its chain never ran). */
    public void unavailable(Exchange ex) {
        ex.resetResponse();
        ErrorBodies.answer(ex, 503, "Service Unavailable");
        ex.addRefusalHeaders();
    }

    /**
     * Runs the routed {@code ex}'s chain on its route's dispatch; the owner's {@code complete} is called
     * when done. On the I/O thread.
     */
    public void dispatch(Exchange ex) {
        dispatcher.dispatch(ex);
    }

    /**
     * Runs the routed {@code ex}'s chain on the calling thread, whatever the route's dispatch: the blocking
     * engine's connection thread is the handler's thread.
     */
    public void runInline(Exchange ex) {
        dispatcher.runInline(ex);
    }
}
