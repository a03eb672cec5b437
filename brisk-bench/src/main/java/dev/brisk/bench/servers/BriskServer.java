package dev.brisk.bench.servers;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import dev.brisk.StaticResponse;
import dev.brisk.bench.BenchServer;
import dev.brisk.bench.Json;

/** Brisk in one dispatch mode; {@code /health} is fast-static (labelled so in reports). */
public final class BriskServer implements BenchServer {
    private final Dispatch dispatch;
    private Brisk app;

    public BriskServer(Dispatch dispatch) {
        this.dispatch = dispatch;
    }

    @Override
    public void start(int port) {
        app = Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.host("127.0.0.1").port(port).dispatch(dispatch);
            cfg.fastGet("/health", StaticResponse.text("OK"));
            cfg.get("/hello", ctx -> ctx.text("Hello, World!"));
            cfg.get("/json", ctx -> ctx.bytes(Json.hello()).contentType("application/json"));
            cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()).contentType(ctx.contentType()));
            cfg.post("/consume", ctx -> {
                ctx.body();
                ctx.status(204);
            });
        }).start();
    }

    @Override
    public void close() {
        app.close();
    }
}
