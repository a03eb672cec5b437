package dev.brisk.testing;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.ConfigSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Starts an app on a free loopback port for a test and hands it a client; close it after.
 *
 * <pre>{@code
 * try (var t = BriskTestServer.start(cfg -> cfg.get("/hi", ctx -> ctx.text("hi")))) {
 *     assertEquals("hi", t.get("/hi").body());
 *     try (var raw = t.raw()) { raw.send("GET /hi HTTP/1.1\r\nHost: x\r\n\r\n"); ... }
 * }
 * }</pre>
 *
 * Outside configuration (environment, system properties, {@code brisk.properties}) is ignored, so a
 * {@code BRISK_PORT} set in the shell cannot move the test server.
 */
public final class BriskTestServer implements AutoCloseable {
    private final Brisk app;
    private final HttpClient client;

    private BriskTestServer(Brisk app) {
        this.app = app;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /**
     * Declares the app with {@code config} (after the test defaults: port 0, loopback) and starts it.
     *
     * @param config declares the app's routes and options, as for {@link Brisk#create}
     * @return the running server; close it after the test
     */
    public static BriskTestServer start(Consumer<BriskConfig> config) {
        Brisk app = Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.host("127.0.0.1").port(0);
            config.accept(cfg);
        }).start();
        return new BriskTestServer(app);
    }

    /**
     * Like {@link #start(Consumer)}, on {@code engine} (see {@link Engine}).
     *
     * @param engine the engine options, applied before {@code config}
     * @param config declares the app's routes and options
     * @return the running server; close it after the test
     */
    public static BriskTestServer start(Engine engine, Consumer<BriskConfig> config) {
        return start(cfg -> {
            engine.apply(cfg);
            config.accept(cfg);
        });
    }

    /** {@return the running app, e.g. for its metrics or readiness} */
    public Brisk app() {
        return app;
    }

    /** {@return the port the app listens on, on 127.0.0.1} */
    public int port() {
        return app.port();
    }

    /**
     * {@return the app's URI for {@code pathAndQuery}}
     *
     * @param pathAndQuery starts with {@code /}; used as given, so encode it first
     */
    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port() + pathAndQuery);
    }

    /** {@return the shared HTTP/1.1 client (connection reuse on), closed with this server} */
    public HttpClient client() {
        return client;
    }

    /**
     * {@return a request builder for {@code pathAndQuery} with a 10 s timeout}
     *
     * @param pathAndQuery starts with {@code /}
     */
    public HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(10));
    }

    /**
     * {@return the response to a {@code GET}, body decoded as text}
     *
     * @param pathAndQuery starts with {@code /}
     */
    public HttpResponse<String> get(String pathAndQuery) {
        return send(request(pathAndQuery).GET().build());
    }

    /**
     * {@return the response to a {@code POST}, body decoded as text}
     *
     * @param pathAndQuery starts with {@code /}
     * @param contentType the request's {@code Content-Type}
     * @param body the request body, sent as UTF-8
     */
    public HttpResponse<String> post(String pathAndQuery, String contentType, String body) {
        return send(request(pathAndQuery).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /**
     * Sends {@code request} with the shared client and waits for the whole response.
     *
     * @param request the request, e.g. from {@link #request(String)}
     * @return the response, body decoded as text
     * @throws UncheckedIOException when the exchange fails
     * @throws IllegalStateException when the thread is interrupted (its flag is set again)
     */
    public HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@return a new raw socket to the server, for writing exact bytes; the caller closes it} */
    public RawConnection raw() {
        return RawConnection.open("127.0.0.1", port());
    }

    /** Closes the app (gracefully, see {@link Brisk#close}) and the client. */
    @Override
    public void close() {
        app.close();
        client.close();
    }
}
