package dev.brisk.bench.servers;

import dev.brisk.Brisk;
import dev.brisk.Compression;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import dev.brisk.IoMode;
import dev.brisk.StaticFiles;
import dev.brisk.StaticResponse;
import dev.brisk.ThreadMode;
import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;

/**
 * Brisk on one engine in one dispatch mode ({@code dispatch} is ignored by the blocking engine, which runs
 * handlers on the connection's thread); {@code /health} is fast-static (labelled so in reports). HTTP/2 is
 * Brisk's default: h2c with prior knowledge on the plain port, h2 by ALPN on the TLS port (PEM key).
 */
public final class BriskServer implements BenchServer {
    private final Dispatch dispatch;
    private final IoMode io;
    private final ThreadMode threads;
    private Brisk app;

    public BriskServer(Dispatch dispatch) {
        this(dispatch, IoMode.NIO, ThreadMode.VIRTUAL);
    }

    public BriskServer(Dispatch dispatch, IoMode io, ThreadMode threads) {
        this.dispatch = dispatch;
        this.io = io;
        this.threads = threads;
    }

    @Override
    public void start(int port, BenchTls tls) {
        app = Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.host("127.0.0.1").port(port).dispatch(dispatch);
            // enough connection threads for the 1,000-connection scenario on platform threads
            cfg.options().io(io).threads(threads).platformThreads(2_000);
            if (tls != null) {
                // TLS on `port` in Brisk's terms, the plain port beside it (h2c is on by default on both engines)
                cfg.port(tls.port());
                cfg.options().tlsPem(tls.certPem(), tls.keyPem()).plainPort(port);
            }
            cfg.fastGet("/health", StaticResponse.text("OK"));
            cfg.get("/hello", ctx -> ctx.text("Hello, World!"));
            cfg.get("/json", ctx -> ctx.bytes(Json.hello()).contentType("application/json"));
            cfg.get("/users/{id}", ctx -> ctx.text(ctx.pathParam("id")));
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()).contentType(ctx.contentType()));
            cfg.post("/consume", ctx -> {
                ctx.body();
                ctx.status(204);
            });
            if (BenchServer.staticDir() != null) {
                cfg.staticFiles("/static", StaticFiles.directory(BenchServer.staticDir()).precompressed(false))
                        .use(Compression.defaults());
            }
            cfg.ws("/ws/echo", ws -> ws
                    .onText((s, text) -> s.sendText(text))
                    .onBinary((s, data) -> s.sendBinary(data)));
        }).start();
    }

    @Override
    public void close() {
        app.close();
    }
}
