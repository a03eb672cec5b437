package dev.brisk.bench.servers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The JDK's {@code com.sun.net.httpserver} with a virtual thread per request. */
public final class JdkHttpServer implements BenchServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK = "OK".getBytes(StandardCharsets.UTF_8);
    private HttpServer server;
    private ExecutorService executor;

    @Override
    public void start(int port, BenchTls tls) throws IOException {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/hello", ex -> send(ex, 200, "text/plain", HELLO));
        server.createContext("/health", ex -> send(ex, 200, "text/plain", OK));
        server.createContext("/json", ex -> send(ex, 200, "application/json", Json.hello()));
        server.createContext("/users/", ex -> {
            String path = ex.getRequestURI().getPath();
            send(ex, 200, "text/plain", path.substring("/users/".length()).getBytes(StandardCharsets.UTF_8));
        });
        server.createContext("/echo", ex -> {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            String type = ex.getRequestHeaders().getFirst("Content-Type");
            send(ex, 200, type != null ? type : "application/octet-stream", body);
        });
        server.createContext("/consume", ex -> {
            try (InputStream in = ex.getRequestBody()) {
                in.transferTo(OutputStream.nullOutputStream());
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
