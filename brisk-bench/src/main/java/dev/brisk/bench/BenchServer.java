package dev.brisk.bench;

/**
 * A server under test, serving the benchmark scenarios on one port (all answers exactly as below):
 *
 * <ul>
 *   <li>{@code GET /hello} → 200 {@code text/plain} {@code Hello, World!}</li>
 *   <li>{@code GET /json} → 200 {@code application/json} {@code {"message":"Hello, World!"}}, serialized
 *       per request (Jackson 3 through {@link Json} unless the server has a JSON library of its own)</li>
 *   <li>{@code GET /users/{id}} → 200 {@code text/plain} the id (a query string is allowed and ignored)</li>
 *   <li>{@code POST /echo} → 200 with the request body and its {@code Content-Type}</li>
 *   <li>{@code POST /consume} → 204 after reading the whole body</li>
 *   <li>{@code GET /health} → 200 {@code text/plain} {@code OK} (a plain route; Brisk's is fast-static)</li>
 *   <li>{@code GET /static/<file>} → the file from the directory {@link #staticDir()} (environment
 *       variable {@code BENCH_STATIC_DIR}), with the server's own static-file handler, gzip (level 6, from
 *       1 KiB) when the request asks for it; only servers that have such a handler (Brisk, Netty as its static-file example does, Jetty's
 *       {@code ResourceHandler}, Undertow's {@code ResourceHandler}, Vert.x's {@code StaticHandler})</li>
 *   <li>{@code /ws/echo} a WebSocket echo of each text and binary message (Brisk, Netty and Vert.x;
 *       {@code bench/ws.sh} drives it with {@link WsLoad})</li>
 * </ul>
 *
 * Each implementation is the idiomatic, minimal way to write this with that server, with its default
 * thread model unless the name says otherwise. Implementations must be started once and closed once.
 *
 * <p>HTTP/2: the servers {@link ServerMain#h2cNames()} names also serve h2c with prior knowledge on the plain
 * port (a connection that opens with the HTTP/2 preface), at least the GET routes above, with the same
 * answers; the servers {@link ServerMain#tlsNames()} names serve HTTP/1.1 and h2 (ALPN) over TLS on a
 * second port when started with a {@link BenchTls}.
 */
public interface BenchServer extends AutoCloseable {

    /** Starts listening on 127.0.0.1:{@code port}; returns once requests are accepted. */
    default void start(int port) throws Exception {
        start(port, null);
    }

    /**
     * Starts listening on 127.0.0.1:{@code port} and, when {@code tls} is not null, with TLS on
     * 127.0.0.1:{@code tls.port()} too; returns once requests are accepted on both.
     *
     * @throws UnsupportedOperationException with a {@code tls} when this server is not one of
     *         {@link ServerMain#tlsNames()}
     */
    void start(int port, BenchTls tls) throws Exception;

    @Override
    void close() throws Exception;

    /** {@return the directory of the static-file scenarios ({@code BENCH_STATIC_DIR}), or null when not set} */
    static java.nio.file.Path staticDir() {
        // the system property lets a test in this JVM point the servers at a directory of its own
        String d = System.getProperty("bench.static.dir", System.getenv("BENCH_STATIC_DIR"));
        return d == null || d.isBlank() ? null : java.nio.file.Path.of(d);
    }
}
