package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.microhttp.EventLoop;
import org.microhttp.Header;
import org.microhttp.Options;
import org.microhttp.Request;
import org.microhttp.Response;

/**
 * microhttp: one accept thread plus its default connection event loops (one per core); the handler answers
 * inline on the event loop. microhttp reads each whole request (body included) before calling the handler
 * and adds {@code Content-Length} itself.
 */
public final class MicrohttpServer implements BenchServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK = "OK".getBytes(StandardCharsets.UTF_8);
    private static final byte[] EMPTY = new byte[0];
    private static final List<Header> TEXT = List.of(new Header("Content-Type", "text/plain"));
    private static final List<Header> JSON = List.of(new Header("Content-Type", "application/json"));

    private EventLoop eventLoop;

    @Override
    public void start(int port, BenchTls tls) throws IOException {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        Options options = Options.builder().withHost("127.0.0.1").withPort(port).build();
        eventLoop = new EventLoop(options, MicrohttpServer::handle);
        eventLoop.start();
    }

    private static void handle(Request request, Consumer<Response> callback) {
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        boolean get = request.method().equals("GET");
        boolean post = request.method().equals("POST");
        Response response;
        if (get && path.equals("/hello")) {
            response = new Response(200, "OK", TEXT, HELLO);
        } else if (get && path.equals("/json")) {
            response = new Response(200, "OK", JSON, Json.hello());
        } else if (get && path.startsWith("/users/") && path.length() > 7 && path.indexOf('/', 7) < 0) {
            response = new Response(200, "OK", TEXT, path.substring(7).getBytes(StandardCharsets.UTF_8));
        } else if (post && path.equals("/echo")) {
            String type = request.header("Content-Type");
            List<Header> headers = List.of(new Header("Content-Type", type != null ? type : "application/octet-stream"));
            response = new Response(200, "OK", headers, request.body());
        } else if (post && path.equals("/consume")) {
            response = new Response(204, "No Content", List.of(), EMPTY);
        } else if (get && path.equals("/health")) {
            response = new Response(200, "OK", TEXT, OK);
        } else {
            response = new Response(404, "Not Found", List.of(), EMPTY);
        }
        callback.accept(response);
    }

    @Override
    public void close() {
        eventLoop.stop(); // its threads see the flag within one select timeout (100 ms) and close everything
        try {
            eventLoop.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
