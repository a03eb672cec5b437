package dev.brisk;

import dev.brisk.internal.engine.Server;
import dev.brisk.internal.web.AppConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * A Brisk app: declare it with {@link #create}, then {@link #start} it and {@link #close} it.
 *
 * <pre>{@code
 * Brisk app = Brisk.create(cfg -> {
 *     cfg.port(8080);
 *     cfg.get("/hello", ctx -> ctx.text("Hello, World!"));
 *     cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
 * }).start();
 * }</pre>
 *
 * <p>Options set in code are overridden by {@code brisk.properties}, then {@code BRISK_*} environment
 * variables, then {@code brisk.*} system properties (see {@link ConfigSource}).
 */
public final class Brisk implements AutoCloseable {
    private final Server server;
    private final JsonCodec codec;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private Brisk(Server server, JsonCodec codec) {
        this.server = server;
        this.codec = codec;
    }

    /**
     * Declares an app; nothing listens until {@link #start}. Outside configuration is read here.
     *
     * @param app called once, at once, on the calling thread, to declare options and routes
     * @return the app, not started
     * @throws IllegalArgumentException when a route, option or outside value is invalid
     * @throws IllegalStateException when a route binds a JSON body
     *     ({@link Routing#route(Method, String, java.lang.reflect.Type, BodyHandler)}) and no
     *     {@link BriskConfig#json codec} is configured
     */
    public static Brisk create(Consumer<BriskConfig> app) {
        AppConfig cfg = new AppConfig();
        app.accept(cfg);
        ServerOptions opts = cfg.resolvedOptions();
        return new Brisk(new Server(opts, cfg.freeze(opts), cfg.workerPool()), cfg.jsonCodec());
    }

    /**
     * Binds the port and starts serving.
     *
     * @return this app, running
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    public Brisk start() {
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** {@return the bound port} */
    public int port() {
        return server.port();
    }

    /**
     * The plain-HTTP port beside a TLS {@link #port()} (option {@code plain-port}).
     *
     * @return the bound port, or -1 when there is none
     */
    public int plainPort() {
        return server.plainPort();
    }

    /** {@return the options in force (code values overlaid with outside configuration)} */
    public ServerOptions options() {
        return server.options();
    }

    /**
     * The app's JSON codec, for code that speaks to the app in its own JSON (a test client, say).
     *
     * @return the codec given to {@link BriskConfig#json}, or null when none was
     */
    public JsonCodec jsonCodec() {
        return codec;
    }

    /** {@return open connections right now} */
    public int connectionCount() {
        return server.connectionCount();
    }

    /**
     * Sets the app's readiness: with {@code false} the readiness route ({@link BriskConfig#health})
     * answers 503 {@code not_ready} until it is set back to {@code true}. Any thread, any time, also
     * before {@link #start}; once {@link #close} has begun it changes nothing.
     *
     * @param ready whether the app wants traffic
     * @return this app
     */
    public Brisk ready(boolean ready) {
        server.app().readiness().set(ready);
        return this;
    }

    /**
     * Whether the app wants traffic: it is ready ({@link #ready}, {@link HealthConfig#startNotReady})
     * and {@link #close} has not begun. The readiness checks are not run for this.
     *
     * @return true while the app is ready and not closing
     */
    public boolean isReady() {
        return server.app().readiness().ready();
    }

    /** {@return the engine's counters: connections, responses by status class, latency, bytes, refusals} */
    public ServerMetrics metrics() {
        return new dev.brisk.internal.ops.MetricsView(server.stats(), server.admission(), server::connectionCount,
                server.app().routes(), server.accessLog(), server.bodies(), server.app().webSockets(),
                server.app().encodedFiles());
    }

    /**
     * Graceful shutdown: readiness turns to 503 {@code shutting_down} first; for {@code shutdown-delay}
     * (default 0) the server then still accepts and serves as usual, so a load balancer probing
     * readiness sees it and stops sending; then it stops accepting, closes idle connections, lets
     * in-flight requests finish up to {@code shutdown-timeout}, and closes the rest. Idempotent; blocks
     * until done, also when another thread is already closing. Do not call it from a handler: that
     * handler's own request is in flight, so the call waits the whole shutdown timeout and its response
     * is never sent.
     */
    @Override
    public void close() {
        server.close();
        stopped.countDown();
    }

    /**
     * Closes this app when the JVM is asked to exit (SIGTERM, SIGINT), from a shutdown hook thread.
     *
     * @return this app
     */
    public Brisk closeOnShutdown() {
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "brisk-shutdown"));
        return this;
    }

    /**
     * Blocks until {@link #close} has completed.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void awaitClose() throws InterruptedException {
        stopped.await();
    }
}
