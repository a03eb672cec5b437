package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.glassfish.grizzly.http.Method;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.Response;

/**
 * Grizzly 4 ({@code grizzly-http-server}) as its quick start sets it up: {@code HttpServer.createSimpleServer}
 * (no document root) and one {@code HttpHandler} on {@code /}; Grizzly's default I/O strategy (selector
 * threads handing each request to its worker pool).
 */
public final class GrizzlyServer implements BenchServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK = "OK".getBytes(StandardCharsets.UTF_8);
    private static final String TEXT = "text/plain";

    private HttpServer server;

    @Override
    public void start(int port, BenchTls tls) throws IOException {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        server = HttpServer.createSimpleServer(null, "127.0.0.1", port);
        server.getServerConfiguration().addHttpHandler(new Handler(), "/");
        server.start();
    }

    private static final class Handler extends HttpHandler {
        @Override
        public void service(Request req, Response res) throws IOException {
            String path = req.getRequestURI(); // the path, without the query
            boolean get = req.getMethod() == Method.GET;
            boolean post = req.getMethod() == Method.POST;
            if (get && path.equals("/hello")) {
                send(res, 200, TEXT, HELLO);
            } else if (get && path.equals("/json")) {
                send(res, 200, "application/json", Json.hello());
            } else if (get && path.startsWith("/users/") && path.length() > 7 && path.indexOf('/', 7) < 0) {
                send(res, 200, TEXT, path.substring(7).getBytes(StandardCharsets.UTF_8));
            } else if (post && path.equals("/echo")) {
                byte[] body;
                try (InputStream in = req.getInputStream()) {
                    body = in.readAllBytes();
                }
                String type = req.getContentType();
                send(res, 200, type != null ? type : "application/octet-stream", body);
            } else if (post && path.equals("/consume")) {
                try (InputStream in = req.getInputStream()) {
                    in.transferTo(OutputStream.nullOutputStream());
                }
                res.setStatus(204);
            } else if (get && path.equals("/health")) {
                send(res, 200, TEXT, OK);
            } else {
                res.setStatus(404);
                res.setContentLength(0);
            }
        }

        private static void send(Response res, int status, String type, byte[] body) throws IOException {
            res.setStatus(status);
            res.setContentType(type);
            res.setContentLength(body.length);
            res.getOutputStream().write(body);
        }
    }

    @Override
    public void close() {
        server.shutdownNow();
    }
}
