package dev.brisk.examples;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.StaticResponse;
import dev.brisk.jackson.JacksonJsonCodec;
import java.util.Map;

/**
 * The example app: the routes the benchmarks use ({@code ./brisk example}).
 *
 * <ul>
 *   <li>{@code GET /health} fast-static {@code OK}</li>
 *   <li>{@code GET /hello} {@code Hello, World!} (a normal route)</li>
 *   <li>{@code GET /json} {@code {"message":"Hello, World!"}} serialized per request</li>
 *   <li>{@code GET /users/{id}} the id as text</li>
 *   <li>{@code POST /echo} the request body and its content type</li>
 *   <li>{@code POST /consume} 204 after reading the body</li>
 * </ul>
 */
public final class ExampleApp {
    private ExampleApp() {
    }

    /** Declares the example routes on {@code cfg}. */
    public static void routes(BriskConfig cfg) {
        cfg.json(new JacksonJsonCodec());
        cfg.fastGet("/health", StaticResponse.text("OK"));
        cfg.get("/hello", ctx -> ctx.text("Hello, World!"));
        cfg.get("/json", ctx -> ctx.json(Map.of("message", "Hello, World!")));
        cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
        cfg.post("/echo", ctx -> {
            String type = ctx.contentType();
            ctx.bytes(ctx.body()).contentType(type != null ? type : "application/octet-stream");
        });
        cfg.post("/consume", ctx -> {
            ctx.body();
            ctx.status(204);
        });
    }

    public static void main(String[] args) throws InterruptedException {
        Brisk app = Brisk.create(ExampleApp::routes).start().closeOnShutdown();
        String host = app.options().host().equals("0.0.0.0") ? "localhost" : app.options().host();
        String base = "http://" + host + ":" + app.port();
        System.out.println("Brisk example app" + " listening on " + base
                + " (" + app.options().ioThreads() + " I/O threads, dispatch " + app.options().dispatch() + ")");
        System.out.println("Try:");
        System.out.println("  curl " + base + "/hello");
        System.out.println("  curl " + base + "/json");
        System.out.println("  curl '" + base + "/users/42?active=true'");
        System.out.println("  curl -d 'hi there' -H 'Content-Type: text/plain' " + base + "/echo");
        System.out.println("  curl -i -d @README.md " + base + "/consume");
        System.out.println("  curl " + base + "/health");
        System.out.println("Stop with Ctrl-C.");
        app.awaitClose();
    }
}
