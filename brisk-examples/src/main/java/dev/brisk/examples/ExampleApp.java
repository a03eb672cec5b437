package dev.brisk.examples;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.Compression;
import dev.brisk.ConfigSource;
import dev.brisk.Context;
import dev.brisk.Cors;
import dev.brisk.Dispatch;
import dev.brisk.HttpException;
import dev.brisk.StaticFiles;
import dev.brisk.jackson.JacksonJsonCodec;
import dev.brisk.micrometer.MetricsServer;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The example app: the routes the benchmarks use ({@code ./brisk example}).
 *
 * <ul>
 *   <li>{@code GET /health} liveness and {@code GET /ready} readiness ({@code cfg.health}): 200
 *       {@code {"status":"UP"}}, readiness 503 from the start of shutdown; {@code /health} is fast-static</li>
 *   <li>{@code GET /hello} {@code Hello, World!} (a normal route)</li>
 *   <li>{@code GET /json} {@code {"message":"Hello, World!"}} serialized per request</li>
 *   <li>{@code GET /users/{id}} the id as text</li>
 *   <li>{@code POST /echo} the request body and its content type</li>
 *   <li>{@code POST /consume} 204 after reading the body</li>
 *   <li>{@code POST /form} a form ({@code application/x-www-form-urlencoded} or {@code multipart/form-data})
 *       answered as a JSON object of its fields: a field sent once maps to its value, one sent more than
 *       once to the array of its values, in order; any other body is a 415</li>
 *   <li>{@code POST /upload} a body of up to {@link #MAX_UPLOAD} bytes. A {@code multipart/form-data} body
 *       is read part by part ({@code ctx.multipart()}) and answered as a JSON array with, for each part,
 *       its {@code name}, {@code filename} (null for a plain field), {@code size} and {@code sha256} (hex);
 *       any other body is read whole ({@code ctx.body()}: held in memory, or spooled to a temporary file
 *       past {@code body-spool-threshold}), then {@code received N bytes}</li>
 *   <li>{@code POST /upload/stream} a body of any size read as a stream while it arrives
 *       ({@code Route.streamBody}), then {@code received N bytes}</li>
 *   <li>{@code GET /sleep?ms=N} blocks its thread for N ms (0..60000), then {@code slept N ms}: a
 *       handler that waits, for overload benchmarks. It always runs on a virtual thread, whatever the
 *       app's dispatch, because on an event loop it would stall every connection of that loop.</li>
 *   <li>{@code GET /cpu?work=N} does N units of {@link CpuWork} (0..1000000, about 2.85 µs a unit on
 *       the 2-core build machine), then {@code work=N checksum=<16 hex digits>}: a handler that burns
 *       CPU. It runs on the app's dispatch, so a benchmark can also load an event loop with it.</li>
 *   <li>{@code GET /api/hello} {@code {"message":"Hello, World!"}} behind {@link #API_CORS}: pages from
 *       {@code https://example.com} may read it (its preflights are answered too); other origins get
 *       no CORS headers, and their preflights a 403.</li>
 *   <li>{@code GET /static/*} the {@link SampleFiles} ({@code hello.txt}, {@code big.bin} of 1 MiB,
 *       {@code app.js} with its precompressed {@code app.js.gz}, {@code data.json}, {@code index.html}):
 *       ranges, validators, {@code Cache-Control: public, max-age=60}, and gzip or deflate for text
 *       without a sibling ({@link Compression} on this mount only)</li>
 *   <li>{@code GET /chat} a browser page with a WebSocket chat room ({@code /ws/chat}), a counter fed by
 *       Server-Sent Events ({@code /sse/ticks}) and a WebSocket echo ({@code /ws/echo}): {@link RealtimeRoutes}</li>
 * </ul>
 *
 * <p>With the option {@code metrics-port} set ({@code BRISK_METRICS_PORT}), {@link #main} also serves
 * Prometheus {@code GET /metrics} on that port ({@link ExampleMetrics}); the routes above never include it.
 *
 * <p>{@code ms} and {@code work} are required and must be plain decimal integers in range; anything
 * else (missing, empty, signed, non-ASCII digits, too large) is a 400 whose text names the parameter
 * and its range. Missing is an error rather than 0 so that a misspelt parameter cannot silently turn a
 * benchmark into one of an empty handler.
 */
public final class ExampleApp {
    /** The CORS policy of the {@code /api} routes: the origin {@code https://example.com} only. */
    public static final Cors API_CORS = Cors.builder()
            .allowOrigin("https://example.com")
            .allowHeaders("Content-Type")
            .maxAge(Duration.ofMinutes(10))
            .build();

    /** The longest accepted {@code /sleep}, in milliseconds. */
    public static final int MAX_SLEEP_MS = 60_000;
    /** The largest body {@code POST /upload} takes (16 MiB); other routes keep {@code max-body-size}. */
    public static final long MAX_UPLOAD = 16L << 20;

    private ExampleApp() {
    }

    /** Declares the example routes on {@code cfg}. */
    public static void routes(BriskConfig cfg) {
        cfg.json(new JacksonJsonCodec());
        cfg.health(h -> { });
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
        cfg.post("/form", ctx -> ctx.json(fields(ctx)));
        cfg.post("/upload", ExampleApp::upload).maxBodySize(MAX_UPLOAD);
        cfg.post("/upload/stream", ExampleApp::countStream).streamBody();
        cfg.get("/sleep", ExampleApp::sleep).dispatch(Dispatch.VIRTUAL_THREADS);
        cfg.get("/cpu", ctx -> {
            int work = intParam(ctx, "work", CpuWork.MAX_WORK);
            ctx.text("work=" + work + " checksum=" + String.format("%016x", CpuWork.run(work)));
        });
        cfg.group("/api", api -> {
            api.use(API_CORS);
            api.get("/hello", ctx -> ctx.json(Map.of("message", "Hello, World!")));
        });
        cfg.staticFiles("/static", StaticFiles.directory(SampleFiles.directory()).maxAge(Duration.ofSeconds(60)))
                .use(Compression.defaults());
        RealtimeRoutes.routes(cfg);
    }

    /** The form's fields: a single value as itself, repeated values as their list. */
    private static Map<String, Object> fields(Context ctx) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        ctx.formParamMap().forEach((name, values) -> out.put(name, values.size() == 1 ? values.get(0) : values));
        return out;
    }

    /** A multipart body: each part's name, file name, size and SHA-256, read as a stream; else the raw body's size. */
    private static void upload(Context ctx) throws java.io.IOException {
        String type = ctx.contentType();
        if (type == null || !type.regionMatches(true, 0, "multipart/form-data", 0, 19)) {
            ctx.text("received " + ctx.body().length + " bytes");
            return;
        }
        java.util.List<Map<String, Object>> out = new java.util.ArrayList<>();
        byte[] buf = new byte[16 * 1024];
        for (dev.brisk.Part p : ctx.multipart()) {
            java.security.MessageDigest sha = sha256();
            long n = 0;
            try (java.io.InputStream in = p.content()) {
                for (int r; (r = in.read(buf)) >= 0; ) {
                    sha.update(buf, 0, r);
                    n += r;
                }
            }
            Map<String, Object> part = new java.util.LinkedHashMap<>();
            part.put("name", p.name());
            part.put("filename", p.filename());
            part.put("size", n);
            part.put("sha256", java.util.HexFormat.of().formatHex(sha.digest()));
            out.add(part);
        }
        ctx.json(out);
    }

    private static java.security.MessageDigest sha256() {
        try {
            return java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Reads the streamed body to its end, holding no more of it than one buffer. */
    private static void countStream(Context ctx) throws java.io.IOException {
        long n = 0;
        byte[] buf = new byte[16 * 1024];
        try (java.io.InputStream in = ctx.bodyAsStream()) {
            for (int r; (r = in.read(buf)) >= 0; ) {
                n += r;
            }
        }
        ctx.text("received " + n + " bytes");
    }

    private static void sleep(Context ctx) {
        int ms = intParam(ctx, "ms", MAX_SLEEP_MS);
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            // only a server shutting down interrupts a handler: keep the flag and answer 503
            Thread.currentThread().interrupt();
            throw new HttpException.ServiceUnavailable("interrupted after less than " + ms + " ms");
        }
        ctx.text("slept " + ms + " ms");
    }

    /**
     * The query parameter {@code name} as an int in 0..{@code max}.
     *
     * @throws HttpException.BadRequest naming the parameter and the range when it is missing, empty, not
     *     plain ASCII digits (so no sign, and none of the other Unicode digits that
     *     {@link Integer#parseInt} would take), or above {@code max}
     */
    static int intParam(Context ctx, String name, int max) {
        return intParam(ctx, name, 0, max);
    }

    /** {@code name}'s value, an integer from {@code min} to {@code max}, else a 400 that says so. */
    static int intParam(Context ctx, String name, int min, int max) {
        String v = ctx.queryParam(name);
        String digits = Integer.toString(max);
        // longer than max's digits can only be out of range (or padded with zeros: rejected too), and
        // the bound keeps the long below from overflowing
        boolean ok = v != null && !v.isEmpty() && v.length() <= digits.length();
        long n = 0;
        for (int i = 0; ok && i < v.length(); i++) {
            char c = v.charAt(i);
            ok = c >= '0' && c <= '9';
            n = n * 10 + (c - '0');
        }
        if (!ok || n > max || n < min) {
            String got = v == null ? "none" : "'" + (v.length() > 20 ? v.substring(0, 20) + "..." : v) + "'";
            throw new HttpException.BadRequest(name + " must be an integer " + min + ".." + max + ", got " + got);
        }
        return (int) n;
    }

    /** The engine as the banner names it: the blocking engine has no I/O loops to dispatch from. */
    private static String engine(dev.brisk.ServerOptions o) {
        if (o.io() == dev.brisk.IoMode.BLOCKING) {
            return "blocking engine, a " + o.threads().toString().toLowerCase(java.util.Locale.ROOT)
                    + " thread per connection";
        }
        return o.ioThreads() + " I/O threads, dispatch " + o.dispatch();
    }

    /**
     * Runs the example app until SIGTERM or Ctrl-C; with {@code metrics-port} set, also the metrics port
     * ({@link ExampleMetrics}).
     */
    public static void main(String[] args) throws InterruptedException {
        Brisk app;
        OptionalInt metricsPort;
        try {
            // read before anything listens: a bad value fails the start instead of leaving a half-started app
            metricsPort = ExampleMetrics.port(ConfigSource.load());
            app = Brisk.create(ExampleApp::routes).start().closeOnShutdown();
            SampleFiles.deleteAfter(app::close);
        } catch (IllegalArgumentException e) {
            // a value out of its range or unreadable, named with its variable: a usage mistake
            System.err.println("brisk example: " + e.getMessage());
            System.exit(2);
            return;
        } catch (java.io.UncheckedIOException e) {
            System.err.println("brisk example: " + e.getCause().getMessage()); // the port is taken, say
            System.exit(1);
            return;
        }
        String host = app.options().host().equals("0.0.0.0") ? "localhost" : app.options().host();
        boolean tls = app.options().tls().enabled();
        String base = (tls ? "https://" : "http://") + host + ":" + app.port();
        String plain = app.plainPort() >= 0 ? " and http://" + host + ":" + app.plainPort() : "";
        System.out.println("Brisk example app" + " listening on " + base + plain
                + " (" + engine(app.options()) + ")");
        if (metricsPort.isPresent()) {
            MetricsServer metrics;
            try {
                metrics = ExampleMetrics.start(app, metricsPort.getAsInt());
            } catch (RuntimeException e) {
                app.close(); // its threads would otherwise keep the JVM up without the asked-for metrics
                System.err.println("brisk example: the metrics port (BRISK_METRICS_PORT) " + metricsPort.getAsInt()
                        + " cannot be used: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
                System.exit(1);
                return;
            }
            // after the app: a scrape during the drain sees it (close() returns once the app's own hook is done)
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                app.close();
                metrics.close();
            }, "brisk-metrics-shutdown"));
            System.out.println("Metrics (Prometheus) on " + metrics.url());
        }
        System.out.println("Try:");
        if (tls) {
            java.nio.file.Path cert = app.options().tls().certificate();
            // curl checks the certificate: say how it can trust this one, or that it cannot
            System.out.println(cert != null
                    ? "  (if the certificate is self-signed, as ./brisk cert makes one: add --cacert " + cert + " to each curl)"
                    : "  (a certificate from a key store: add --cacert <its CA's PEM> to each curl, or -k to skip the check)");
        }
        System.out.println("  curl " + base + "/hello");
        System.out.println("  curl " + base + "/json");
        System.out.println("  curl '" + base + "/users/42?active=true'");
        System.out.println("  curl -d 'hi there' -H 'Content-Type: text/plain' " + base + "/echo");
        System.out.println("  curl -i -d @README.md " + base + "/consume");
        System.out.println("  curl --data-binary @README.md " + base + "/upload/stream");
        System.out.println("  curl -d 'name=Ada&lang=en&lang=fr' " + base + "/form");
        System.out.println("  curl -F title=notes -F file=@README.md " + base + "/upload");
        System.out.println("  curl " + base + "/health " + base + "/ready");
        System.out.println("  curl '" + base + "/sleep?ms=250'");
        System.out.println("  curl '" + base + "/cpu?work=1000'");
        System.out.println("  curl -i -H 'Origin: https://example.com' " + base + "/api/hello");
        System.out.println("  curl -i --compressed " + base + "/static/app.js");
        System.out.println("  curl -r 0-99 " + base + "/static/big.bin | xxd | head -3");
        System.out.println("  open " + base + "/chat in two browser windows (WebSocket chat, SSE counter)");
        System.out.println("  curl -N '" + base + "/sse/ticks?every=500'");
        if (base.startsWith("http:")) {
            System.out.println("  curl --http2-prior-knowledge " + base + "/hello     (HTTP/2, same port)");
        } else {
            System.out.println("  curl --http2 " + base + "/hello     (HTTP/2 by ALPN)");
        }
        System.out.println("Stop with Ctrl-C.");
        app.awaitClose();
    }
}
