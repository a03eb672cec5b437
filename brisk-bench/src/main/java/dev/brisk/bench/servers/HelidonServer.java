package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Helidon 4 SE webserver: {@code HttpRouting} with plain get/post routes, a virtual thread per request
 * (its default). {@code /json} sends {@link Json#hello()} bytes (the same Jackson 3 work as the other
 * peers) with the content type set. HTTP/2 comes with {@code helidon-webserver-http2} on the classpath: h2c
 * with prior knowledge on the plain listener, h2 by ALPN on a second, TLS listener (same routes).
 * {@code TCP_NODELAY} is set, as every other server here has it by default: with Helidon's default (off) its
 * HTTP/2 responses, a HEADERS and a DATA write each, waited about 40 ms on Nagle and delayed ACKs (h2c-hello:
 * p50 44 ms, under 1,000 req/s, in a run of 2026-11-24).
 */
public final class HelidonServer implements BenchServer {
    /** Held so the level sticks: keeps Helidon's INFO startup lines (features, "started") off the console. */
    private static final Logger HELIDON_LOG = Logger.getLogger("io.helidon");

    private WebServer server;

    @Override
    public void start(int port, BenchTls tls) throws Exception {
        HELIDON_LOG.setLevel(Level.WARNING);
        WebServerConfig.Builder builder = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .shutdownHook(false) // ServerMain closes it
                .connectionOptions(o -> o.tcpNoDelay(true))
                .routing(HelidonServer::routes);
        if (tls != null) {
            // a second listener with TLS; ALPN offers h2 (helidon-webserver-http2) and http/1.1
            var key = tls.privateKey();
            var chain = tls.chain();
            builder.putSocket("tls", s -> s.host("127.0.0.1").port(tls.port()).connectionOptions(o -> o.tcpNoDelay(true))
                            .tls(t -> t.privateKey(key).privateKeyCertChain(chain)))
                    .routing("tls", HelidonServer::routes);
        }
        server = builder.build().start();
    }

    private static void routes(HttpRouting.Builder r) {
        r.get("/hello", (req, res) -> res.send("Hello, World!"))
                .get("/health", (req, res) -> res.send("OK"))
                .get("/json", (req, res) -> {
                    res.headers().contentType(MediaTypes.APPLICATION_JSON);
                    res.send(Json.hello());
                })
                .get("/users/{id}", (req, res) -> res.send(req.path().pathParameters().get("id")))
                .post("/echo", (req, res) -> {
                    res.header(HeaderNames.CONTENT_TYPE, req.headers().first(HeaderNames.CONTENT_TYPE)
                            .orElse(MediaTypes.APPLICATION_OCTET_STREAM_VALUE));
                    res.send(req.content().as(byte[].class));
                })
                .post("/consume", (req, res) -> {
                    req.content().consume();
                    res.status(Status.NO_CONTENT_204).send();
                });
    }

    @Override
    public void close() {
        server.stop();
    }
}
