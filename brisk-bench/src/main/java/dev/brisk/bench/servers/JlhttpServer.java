package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import javax.net.ServerSocketFactory;
import net.freeutils.httpserver.HTTPServer;

/**
 * JLHTTP 3 as its README sets it up: an {@code HTTPServer}, one context handler per path on its default
 * virtual host ({@code /users/{id}} a path parameter), its default executor (a cached thread pool: a thread
 * per connection). JLHTTP binds every interface and has no host option, so a socket factory narrows the
 * bind to 127.0.0.1.
 */
public final class JlhttpServer implements BenchServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK = "OK".getBytes(StandardCharsets.UTF_8);
    private static final String TEXT = "text/plain";

    private HTTPServer server;

    @Override
    public void start(int port, BenchTls tls) throws IOException {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        server = new HTTPServer(port);
        server.setServerSocketFactory(new LoopbackSockets());
        HTTPServer.VirtualHost host = server.getVirtualHost(null);
        host.addContext("/hello", (req, res) -> send(res, 200, TEXT, HELLO), "GET");
        host.addContext("/json", (req, res) -> send(res, 200, "application/json", Json.hello()), "GET");
        // JLHTTP 3's path parameter; getParams() holds it beside the query's
        host.addContext("/users/{id}", (req, res) ->
                send(res, 200, TEXT, req.getParams().get("id").getBytes(StandardCharsets.UTF_8)), "GET");
        host.addContext("/echo", (req, res) -> {
            byte[] body;
            try (InputStream in = req.getBody()) {
                body = in.readAllBytes();
            }
            String type = req.getHeaders().get("Content-Type");
            return send(res, 200, type != null ? type : "application/octet-stream", body);
        }, "POST");
        host.addContext("/consume", (req, res) -> {
            try (InputStream in = req.getBody()) {
                in.transferTo(OutputStream.nullOutputStream());
            }
            res.sendHeaders(204);
            return 0;
        }, "POST");
        host.addContext("/health", (req, res) -> send(res, 200, TEXT, OK), "GET");
        server.start();
    }

    /** Answers with a body of known length; 0 tells JLHTTP the response is sent. */
    private static int send(HTTPServer.Response res, int status, String type, byte[] body) throws IOException {
        res.sendHeaders(status, body.length, -1, null, type, null);
        res.getBody().write(body);
        return 0;
    }

    /** Unbound server sockets whose bind (to the port JLHTTP asks for, on every interface) is on 127.0.0.1. */
    private static final class LoopbackSockets extends ServerSocketFactory {
        @Override
        public ServerSocket createServerSocket() throws IOException {
            return new ServerSocket() {
                @Override
                public void bind(SocketAddress endpoint, int backlog) throws IOException {
                    int port = ((InetSocketAddress) endpoint).getPort();
                    super.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), backlog);
                }
            };
        }

        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        }

        @Override
        public ServerSocket createServerSocket(int port, int backlog) throws IOException {
            return new ServerSocket(port, backlog, InetAddress.getLoopbackAddress());
        }

        @Override
        public ServerSocket createServerSocket(int port, int backlog, InetAddress address) throws IOException {
            return new ServerSocket(port, backlog, InetAddress.getLoopbackAddress());
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
