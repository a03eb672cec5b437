package dev.brisk.bench;

import dev.brisk.Dispatch;
import dev.brisk.IoMode;
import dev.brisk.ThreadMode;
import dev.brisk.bench.servers.BriskServer;
import dev.brisk.bench.servers.HelidonServer;
import dev.brisk.bench.servers.JdkHttpServer;
import dev.brisk.bench.servers.JettyServer;
import dev.brisk.bench.servers.UndertowServer;
import dev.brisk.bench.servers.MicrohttpServer;
import dev.brisk.bench.servers.NettyServer;
import dev.brisk.bench.servers.NettyIoUringServer;
import dev.brisk.bench.servers.GrizzlyServer;
import dev.brisk.bench.servers.Http4kServer;
import dev.brisk.bench.servers.JlhttpServer;
import dev.brisk.bench.servers.KtorServer;
import dev.brisk.bench.servers.NanoHttpdServer;
import dev.brisk.bench.servers.PekkoHttpServer;
import dev.brisk.bench.servers.VertxServer;
import java.util.List;
import java.util.function.Supplier;

/**
 * Starts one server under test: {@code ServerMain <name> <port> <statsPort>}, as a {@link ServerProcess}
 * (the stats port, the ready line, until SIGTERM). With {@code BENCH_TLS_DIR} and {@code BENCH_TLS_PORT} set (see {@link BenchTls}), a server
 * of {@link #tlsNames()} serves TLS on that port too.
 */
public final class ServerMain {
    private ServerMain() {
    }

    /** Every server the harness knows, by name. */
    public static List<String> names() {
        return List.of("brisk-event-loop", "brisk-virtual-threads", "brisk-worker-pool", "brisk-blocking-virtual",
                "brisk-blocking-platform", "jdk-httpserver",
                "undertow", "jetty", "helidon",
                "netty", "vertx", "microhttp",
                "brisk-uring", "netty-iouring",
                "grizzly", "ktor-cio", "ktor-netty", "nanohttpd", "http4k", "jlhttp", "pekko-http");
    }

    /** The servers that speak h2c with prior knowledge on their plain port (the harness's h2c-* scenarios). */
    public static List<String> h2cNames() {
        return List.of("brisk-event-loop", "brisk-virtual-threads", "brisk-worker-pool", "brisk-blocking-virtual",
                "brisk-blocking-platform", "brisk-uring", "undertow", "jetty", "helidon", "netty", "vertx");
    }

    /** The servers that serve HTTP/1.1 and h2 over TLS when given a {@link BenchTls} (the tls-* and h2-* scenarios). */
    public static List<String> tlsNames() {
        return h2cNames();
    }

    static Supplier<BenchServer> server(String name) {
        return switch (name) {
            case "brisk-event-loop" -> () -> new BriskServer(Dispatch.EVENT_LOOP);
            case "brisk-virtual-threads" -> () -> new BriskServer(Dispatch.VIRTUAL_THREADS);
            case "brisk-worker-pool" -> () -> new BriskServer(Dispatch.WORKER_POOL);
            case "brisk-blocking-virtual" -> () -> new BriskServer(Dispatch.VIRTUAL_THREADS, IoMode.BLOCKING, ThreadMode.VIRTUAL);
            case "brisk-blocking-platform" -> () -> new BriskServer(Dispatch.VIRTUAL_THREADS, IoMode.BLOCKING, ThreadMode.PLATFORM);
            case "jdk-httpserver" -> JdkHttpServer::new;
            case "undertow" -> UndertowServer::new;
            case "jetty" -> JettyServer::new;
            case "helidon" -> HelidonServer::new;
            case "netty" -> NettyServer::new;
            case "vertx" -> VertxServer::new;
            case "microhttp" -> MicrohttpServer::new;
            // strict: a run labelled io_uring never falls back to NIO quietly
            case "brisk-uring" -> () -> new BriskServer(Dispatch.EVENT_LOOP, IoMode.URING_ONLY, ThreadMode.VIRTUAL);
            case "netty-iouring" -> NettyIoUringServer::new;
            case "grizzly" -> GrizzlyServer::new;
            case "ktor-cio" -> () -> new KtorServer(KtorServer.Engine.CIO);
            case "ktor-netty" -> () -> new KtorServer(KtorServer.Engine.NETTY);
            case "nanohttpd" -> NanoHttpdServer::new;
            case "http4k" -> Http4kServer::new;
            case "jlhttp" -> JlhttpServer::new;
            case "pekko-http" -> PekkoHttpServer::new;
            default -> throw new IllegalArgumentException("unknown server " + name + "; known: " + names());
        };
    }

    /**
     * {@return why the server {@code name} cannot run on this machine, or empty when it can}: the io_uring
     * servers refuse to start without io_uring (the conformance test skips them then, saying why)
     */
    static java.util.Optional<String> unavailable(String name) {
        return switch (name) {
            case "brisk-uring" -> IoMode.uringUnavailable();
            case "netty-iouring" -> NettyIoUringServer.unavailable();
            default -> java.util.Optional.empty();
        };
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--list")) {
            System.out.println(String.join(",", names()));
            return;
        }
        if (args.length == 1 && args[0].equals("--list-h2c")) {
            System.out.println(String.join(",", h2cNames()));
            return;
        }
        if (args.length == 1 && args[0].equals("--list-tls")) {
            System.out.println(String.join(",", tlsNames()));
            return;
        }
        if (args.length != 3) {
            System.err.println("usage: ServerMain <name> <port> <statsPort>; names: " + names());
            System.exit(2);
        }
        BenchServer server = server(args[0]).get();
        // TLS on a second port only when the harness runs a TLS scenario (BENCH_TLS_DIR, BENCH_TLS_PORT) and
        // the server speaks it; the others run as always and the harness skips them there
        BenchTls tls = BenchTls.fromEnv();
        ServerProcess.run(args[0], server, Integer.parseInt(args[1]), Integer.parseInt(args[2]),
                tls != null && tlsNames().contains(args[0]) ? tls : null);
    }
}
