package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Vert.x 5 with a vertx-web {@link Router}; {@code /json} through Vert.x's own {@link JsonObject}.
 *
 * <p>Threads: a server created outside a verticle is served by a single event loop, so, as the Vert.x docs
 * recommend for scaling a server, the verticle is deployed once per available processor; the instances
 * share the listening socket and Vert.x spreads connections across them, each on its own event loop from
 * the default pool (2 × cores). Default {@code VertxOptions} otherwise (NIO transport). HTTP/2: h2c with prior
 * knowledge on the plain server (Vert.x's default), and with a key a second server per verticle with TLS and
 * ALPN (h2, http/1.1), the same router.
 */
public final class VertxServer implements BenchServer {
    private Vertx vertx;

    @Override
    public void start(int port, BenchTls tls) throws Exception {
        vertx = Vertx.vertx();
        DeploymentOptions options = new DeploymentOptions().setInstances(Runtime.getRuntime().availableProcessors());
        vertx.deployVerticle(() -> new HttpVerticle(port, tls), options).await(30, TimeUnit.SECONDS);
    }

    private static final class HttpVerticle extends VerticleBase {
        private final int port;
        private final BenchTls tls;

        HttpVerticle(int port, BenchTls tls) {
            this.port = port;
            this.tls = tls;
        }

        @Override
        public Future<?> start() {
            Router router = Router.router(vertx);
            BodyHandler body = BodyHandler.create();
            router.get("/hello").handler(ctx -> ctx.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain")
                    .end("Hello, World!"));
            router.get("/json").handler(ctx -> ctx.json(new JsonObject().put("message", Json.MESSAGE)));
            router.get("/users/:id").handler(ctx -> ctx.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain")
                    .end(ctx.pathParam("id")));
            router.post("/echo").handler(body).handler(ctx -> {
                String type = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
                ctx.response()
                        .putHeader(HttpHeaders.CONTENT_TYPE, type != null ? type : "application/octet-stream")
                        .end(ctx.body().buffer());
            });
            router.post("/consume").handler(body).handler(ctx -> ctx.response().setStatusCode(204).end());
            router.get("/health").handler(ctx -> ctx.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain")
                    .end("OK"));
            // h2c with prior knowledge (and by Upgrade) beside HTTP/1.1: Vert.x's default, said here
            HttpServerOptions server = new HttpServerOptions().setHttp2ClearTextEnabled(true);
            if (dev.brisk.bench.BenchServer.staticDir() != null) {
                // /static: StaticHandler over the directory; gzip (level 6) when the request asks for it
                router.route("/static/*").handler(StaticHandler.create(FileSystemAccess.ROOT,
                        dev.brisk.bench.BenchServer.staticDir().toAbsolutePath().toString()));
                server.setCompressionSupported(true);
            }
            Future<?> secure = Future.succeededFuture();
            if (tls != null) {
                // TLS on a second server, ALPN offering h2 and http/1.1 (Vert.x's default ALPN versions)
                HttpServerOptions https = new HttpServerOptions().setSsl(true).setUseAlpn(true)
                        .setKeyCertOptions(new PemKeyCertOptions().setCertPath(tls.certPem().toString())
                                .setKeyPath(tls.keyPem().toString()));
                if (dev.brisk.bench.BenchServer.staticDir() != null) {
                    https.setCompressionSupported(true);
                }
                secure = vertx.createHttpServer(https).requestHandler(router).listen(tls.port(), "127.0.0.1");
            }
            Future<?> plain = vertx.createHttpServer(server)
                    .webSocketHandler(ws -> {
                        if (!ws.path().equals("/ws/echo")) {
                            ws.close((short) 1008);
                            return;
                        }
                        ws.textMessageHandler(ws::writeTextMessage);
                        ws.binaryMessageHandler(ws::writeBinaryMessage);
                    })
                    .requestHandler(router).listen(port, "127.0.0.1");
            return Future.all(plain, secure);
        }
    }

    @Override
    public void close() throws TimeoutException {
        vertx.close().await(30, TimeUnit.SECONDS);
    }
}
