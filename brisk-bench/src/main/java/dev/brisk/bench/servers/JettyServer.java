package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ResourceHandler;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.util.resource.ResourceFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;

/**
 * Jetty 12 core API (no servlets): one {@link Handler.Abstract} dispatching on the path, run on the
 * default {@code QueuedThreadPool}. Request bodies are read asynchronously with
 * {@link Content.Source#asByteBuffer(Content.Source, Promise)} and {@link Content.Source#consumeAll(Content.Source,
 * Callback)}; every response completes the request's {@link Callback}. HTTP/2 as Jetty's docs show it:
 * {@code HTTP2CServerConnectionFactory} beside HTTP/1.1 on the plain connector (prior knowledge), and a TLS
 * connector of {@code SslConnectionFactory}, ALPN, {@code HTTP2ServerConnectionFactory} and HTTP/1.1.
 */
public final class JettyServer implements BenchServer {
    private Server server;

    @Override
    public void start(int port, BenchTls tls) throws Exception {
        server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        // HTTP/1.1, and h2c: a connection that opens with the HTTP/2 preface is handed to the h2c factory
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http),
                new HTTP2CServerConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        if (tls != null) {
            // TLS, then ALPN choosing h2 or http/1.1 (the JDK's ALPN: jetty-alpn-java-server)
            HttpConfiguration https = new HttpConfiguration(http);
            https.addCustomizer(new SecureRequestCustomizer());
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(tls.keyStorePath().toString());
            ssl.setKeyStoreType("PKCS12");
            ssl.setKeyStorePassword(BenchTls.PASSWORD);
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
            alpn.setDefaultProtocol("http/1.1");
            ServerConnector secure = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                    new HTTP2ServerConnectionFactory(https), new HttpConnectionFactory(https));
            secure.setHost("127.0.0.1");
            secure.setPort(tls.port());
            server.addConnector(secure);
        }
        if (BenchServer.staticDir() != null) {
            // /static: ResourceHandler (no listings) under a GzipHandler, in a context of its own
            ResourceHandler files = new ResourceHandler();
            files.setBaseResource(ResourceFactory.of(server).newResource(BenchServer.staticDir()));
            files.setDirAllowed(false);
            GzipHandler gzip = new GzipHandler(files);
            gzip.setMinGzipSize(1024);
            ContextHandler context = new ContextHandler(gzip, "/static");
            server.setHandler(new Handler.Sequence(context, new Routes()));
        } else {
            server.setHandler(new Routes());
        }
        server.start();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    private static final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            String method = request.getMethod();
            if (HttpMethod.GET.is(method)) {
                switch (path) {
                    case "/hello" -> text(response, "Hello, World!", callback);
                    case "/health" -> text(response, "OK", callback);
                    case "/json" -> {
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                        response.write(true, ByteBuffer.wrap(Json.hello()), callback);
                    }
                    default -> {
                        String id = path.startsWith("/users/") ? path.substring("/users/".length()) : "";
                        if (id.isEmpty() || id.indexOf('/') >= 0) {
                            return false;
                        }
                        text(response, id, callback);
                    }
                }
                return true;
            }
            if (HttpMethod.POST.is(method)) {
                switch (path) {
                    case "/echo" -> Content.Source.asByteBuffer(request, Promise.from(body -> {
                        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE,
                                type != null ? type : "application/octet-stream");
                        response.write(true, body, callback);
                    }, callback::failed));
                    case "/consume" -> Content.Source.consumeAll(request, Callback.from(() -> {
                        response.setStatus(204);
                        callback.succeeded();
                    }, callback::failed));
                    default -> {
                        return false;
                    }
                }
                return true;
            }
            return false;
        }

        private static void text(Response response, String body, Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            Content.Sink.write(response, true, body, callback);
        }
    }
}
