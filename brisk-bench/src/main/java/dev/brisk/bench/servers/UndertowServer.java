package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import io.undertow.server.handlers.encoding.ContentEncodingRepository;
import io.undertow.server.handlers.encoding.EncodingHandler;
import io.undertow.server.handlers.encoding.GzipEncodingProvider;
import io.undertow.server.handlers.resource.PathResourceManager;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatch;
import java.nio.ByteBuffer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Undertow 2.3 core: a {@link RoutingHandler} of plain handlers on the XNIO I/O threads (default I/O and
 * worker thread counts). The GETs answer on the I/O thread; request bodies are read with the
 * non-blocking {@code receiveFullBytes}, so nothing is dispatched to the worker pool. HTTP/2 by
 * {@code UndertowOptions.ENABLE_HTTP2}: h2c with prior knowledge on the plain listener, h2 by ALPN on the
 * HTTPS listener (a JDK {@code SSLContext} over the PKCS#12 key).
 */
public final class UndertowServer implements BenchServer {
    /** Held so the levels stick: keeps the INFO start/stop and XNIO version lines (JBoss logging → JUL) quiet. */
    private static final Logger UNDERTOW_LOG = Logger.getLogger("io.undertow");
    private static final Logger XNIO_LOG = Logger.getLogger("org.xnio");

    private Undertow server;

    @Override
    public void start(int port, BenchTls tls) throws Exception {
        UNDERTOW_LOG.setLevel(Level.WARNING);
        XNIO_LOG.setLevel(Level.WARNING);
        RoutingHandler routes = Handlers.routing()
                .get("/hello", ex -> text(ex, "Hello, World!"))
                .get("/health", ex -> text(ex, "OK"))
                .get("/json", ex -> {
                    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
                    ex.getResponseSender().send(ByteBuffer.wrap(Json.hello()));
                })
                .get("/users/{id}", ex -> text(ex,
                        ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY).getParameters().get("id")))
                .post("/echo", ex -> ex.getRequestReceiver().receiveFullBytes((e, body) -> {
                    String type = e.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
                    e.getResponseHeaders().put(Headers.CONTENT_TYPE,
                            type != null ? type : "application/octet-stream");
                    e.getResponseSender().send(ByteBuffer.wrap(body));
                }))
                .post("/consume", ex -> ex.getRequestReceiver().receiveFullBytes((e, body) -> {
                    e.setStatusCode(204);
                    e.endExchange();
                }));
        HttpHandler root = routes;
        if (BenchServer.staticDir() != null) {
            // /static: ResourceHandler over the directory, gzip by EncodingHandler when asked for
            HttpHandler files = Handlers.resource(new PathResourceManager(BenchServer.staticDir(), 1024));
            HttpHandler gzip = new EncodingHandler(files, new ContentEncodingRepository()
                    .addEncodingHandler("gzip", new GzipEncodingProvider(6), 50));
            root = Handlers.path(routes).addPrefixPath("/static", gzip);
        }
        Undertow.Builder builder = Undertow.builder()
                .addHttpListener(port, "127.0.0.1")
                // HTTP/2: h2c with prior knowledge (and by Upgrade) on the plain listener, h2 by ALPN over TLS
                .setServerOption(UndertowOptions.ENABLE_HTTP2, true)
                .setHandler(root);
        if (tls != null) {
            builder.addHttpsListener(tls.port(), "127.0.0.1", tls.sslContext());
        }
        server = builder.build();
        server.start();
    }

    private static void text(HttpServerExchange ex, String body) {
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        ex.getResponseSender().send(body);
    }

    @Override
    public void close() {
        server.stop();
    }
}
