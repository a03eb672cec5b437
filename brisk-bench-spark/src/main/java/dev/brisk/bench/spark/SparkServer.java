package dev.brisk.bench.spark;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import spark.Service;

/**
 * Spark (sparkjava 2.9) as its docs set it up: a {@link Service} with routes as lambdas, on its embedded
 * Jetty 9.4 with its default thread pool. Each route returns its body; Spark writes it.
 */
public final class SparkServer implements BenchServer {
    private Service http;

    @Override
    public void start(int port, BenchTls tls) {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        http = Service.ignite().ipAddress("127.0.0.1").port(port);
        http.get("/hello", (req, res) -> {
            res.type("text/plain");
            return "Hello, World!";
        });
        http.get("/json", (req, res) -> {
            res.type("application/json");
            return Json.hello();
        });
        http.get("/users/:id", (req, res) -> {
            res.type("text/plain");
            return req.params(":id");
        });
        http.post("/echo", (req, res) -> {
            String type = req.contentType();
            res.type(type != null ? type : "application/octet-stream");
            return req.bodyAsBytes();
        });
        http.post("/consume", (req, res) -> {
            req.bodyAsBytes();
            res.status(204);
            return "";
        });
        http.get("/health", (req, res) -> {
            res.type("text/plain");
            return "OK";
        });
        http.awaitInitialization();
    }

    @Override
    public void close() {
        http.stop();
        http.awaitStop();
    }
}
