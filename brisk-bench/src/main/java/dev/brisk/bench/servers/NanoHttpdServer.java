package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import fi.iki.elonen.NanoHTTPD;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * NanoHTTPD 2.3 as its README sets it up: a subclass overriding {@code serve(IHTTPSession)}, started with
 * {@code start(SOCKET_READ_TIMEOUT, false)}; a thread per connection (its default runner). NanoHTTPD
 * leaves the request body to the handler, which reads exactly {@code Content-Length} bytes of it.
 */
public final class NanoHttpdServer implements BenchServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK = "OK".getBytes(StandardCharsets.UTF_8);
    private static final String TEXT = "text/plain";

    private Server server;

    @Override
    public void start(int port, BenchTls tls) throws IOException {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        server = new Server(port);
        server.start(NanoHTTPD.SOCKET_READ_TIMEOUT, false);
    }

    private static final class Server extends NanoHTTPD {
        Server(int port) {
            super("127.0.0.1", port);
        }

        @Override
        public Response serve(IHTTPSession session) {
            String path = session.getUri(); // the path, without the query
            boolean get = session.getMethod() == Method.GET;
            boolean post = session.getMethod() == Method.POST;
            try {
                if (get && path.equals("/hello")) {
                    return bytes(Response.Status.OK, TEXT, HELLO);
                } else if (get && path.equals("/json")) {
                    return bytes(Response.Status.OK, "application/json", Json.hello());
                } else if (get && path.startsWith("/users/") && path.length() > 7 && path.indexOf('/', 7) < 0) {
                    return bytes(Response.Status.OK, TEXT, path.substring(7).getBytes(StandardCharsets.UTF_8));
                } else if (post && path.equals("/echo")) {
                    String type = session.getHeaders().get("content-type"); // NanoHTTPD lower-cases the names
                    return bytes(Response.Status.OK, type != null ? type : "application/octet-stream", body(session));
                } else if (post && path.equals("/consume")) {
                    body(session);
                    return newFixedLengthResponse(Response.Status.NO_CONTENT, null, "");
                } else if (get && path.equals("/health")) {
                    return bytes(Response.Status.OK, TEXT, OK);
                }
                return newFixedLengthResponse(Response.Status.NOT_FOUND, TEXT, "");
            } catch (IOException e) {
                return newFixedLengthResponse(Response.Status.BAD_REQUEST, TEXT, "unreadable body");
            }
        }

        /** The body: exactly {@code Content-Length} bytes (NanoHTTPD would read the next request's bytes as body). */
        private static byte[] body(IHTTPSession session) throws IOException {
            String length = session.getHeaders().get("content-length");
            int n = length == null ? 0 : Integer.parseInt(length.trim());
            InputStream in = session.getInputStream();
            return in.readNBytes(n);
        }

        private static Response bytes(Response.IStatus status, String type, byte[] body) {
            return newFixedLengthResponse(status, type, new ByteArrayInputStream(body), body.length);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
