package dev.brisk.testing;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.ConfigSource;
import dev.brisk.JsonCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Starts an app on a free loopback port for a test and hands it a client; close it after. Every
 * method sends one request with the JDK {@link HttpClient} (HTTP/1.1, connections reused) and waits
 * for the whole answer. Request headers are given as name, value pairs at the end of any call
 * ({@code get("/me", "Authorization", "Bearer t")}); the client refuses a few ({@code Host},
 * {@code Connection}, {@code Content-Length}, {@code Expect}, {@code Upgrade}): write those with
 * {@link #raw()}. JSON goes in and out through the app's own {@link JsonCodec}.
 *
 * <pre>{@code
 * import static org.junit.jupiter.api.Assertions.assertEquals;
 *
 * import dev.brisk.jackson.JacksonJsonCodec;
 * import dev.brisk.testing.BriskTestServer;
 * import java.util.Map;
 * import org.junit.jupiter.api.Test;
 *
 * class UsersTest {
 *     @Test
 *     void createsAndFindsUsers() {
 *         try (var t = BriskTestServer.start(cfg -> {
 *             cfg.json(new JacksonJsonCodec());
 *             cfg.post("/users", ctx -> ctx.status(201).json(ctx.bodyAsJson(Map.class)));
 *             cfg.get("/users/{id}", ctx -> ctx.json(Map.of("id", ctx.pathParam("id", Long.class))));
 *             cfg.delete("/users/{id}", ctx -> ctx.status(204));
 *             cfg.get("/me", ctx -> ctx.text("token " + ctx.header("Authorization")));
 *         })) {
 *             assertEquals(201, t.postJson("/users", Map.of("name", "Ada")).statusCode());
 *             assertEquals(Map.of("id", 42), t.getJson("/users/42", Map.class));
 *             assertEquals(400, t.get("/users/abc").statusCode());
 *             assertEquals("token t1", t.get("/me", "Authorization", "t1").body());
 *             assertEquals(204, t.delete("/users/42").statusCode());
 *             assertEquals(405, t.put("/me", "text/plain", "x").statusCode());
 *             try (var raw = t.raw()) {                                       // exact bytes
 *                 assertEquals(200, raw.send("GET /me HTTP/1.1\r\nHost: x\r\n\r\n").read().status());
 *             }
 *         }
 *     }
 * }
 * }</pre>
 *
 * Outside configuration (environment, system properties, {@code brisk.properties}) is ignored, so a
 * {@code BRISK_PORT} set in the shell cannot move the test server.
 */
public final class BriskTestServer implements AutoCloseable {
    private static final String JSON = "application/json";
    private static final String[] NO_HEADERS = new String[0];

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
     * @param config the app's declaration, as given to {@link Brisk#create}
     * @return the running server
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
     * @param engine the engine options to apply before {@code config}
     * @param config the app's declaration
     * @return the running server
     */
    public static BriskTestServer start(Engine engine, Consumer<BriskConfig> config) {
        return start(cfg -> {
            engine.apply(cfg);
            config.accept(cfg);
        });
    }

    /**
     * The app under test.
     *
     * @return the running app
     */
    public Brisk app() {
        return app;
    }

    /**
     * The port the app listens on.
     *
     * @return the bound port
     */
    public int port() {
        return app.port();
    }

    /**
     * An absolute URI on the server.
     *
     * @param pathAndQuery the path, with a query if any, e.g. {@code /users?limit=5}
     * @return {@code http://127.0.0.1:<port>} followed by {@code pathAndQuery}
     */
    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port() + pathAndQuery);
    }

    /**
     * A shared HTTP/1.1 client (connection reuse on).
     *
     * @return the client every method here sends with
     */
    public HttpClient client() {
        return client;
    }

    /**
     * A request builder for {@code pathAndQuery} with a 10 s timeout, for anything the methods here do
     * not cover; send it with {@link #send(HttpRequest)}.
     *
     * @param pathAndQuery the path, with a query if any
     * @return a new builder
     */
    public HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(10));
    }

    // ---- text in, text out -------------------------------------------------------------------

    /**
     * Sends {@code GET}.
     *
     * @param pathAndQuery the path, with a query if any
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> get(String pathAndQuery) {
        return get(pathAndQuery, NO_HEADERS);
    }

    /**
     * Sends {@code GET} with request headers.
     *
     * @param pathAndQuery the path, with a query if any
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> get(String pathAndQuery, String... headers) {
        return send(build("GET", pathAndQuery, null, null, headers));
    }

    /**
     * Sends {@code HEAD}.
     *
     * @param pathAndQuery the path, with a query if any
     * @param headers name, value pairs
     * @return the response (its body is empty)
     */
    public HttpResponse<String> head(String pathAndQuery, String... headers) {
        return send(build("HEAD", pathAndQuery, null, null, headers));
    }

    /**
     * Sends {@code OPTIONS}.
     *
     * @param pathAndQuery the path, with a query if any
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> options(String pathAndQuery, String... headers) {
        return send(build("OPTIONS", pathAndQuery, null, null, headers));
    }

    /**
     * Sends {@code DELETE} without a body (for one, use {@link #sendBytes}).
     *
     * @param pathAndQuery the path, with a query if any
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> delete(String pathAndQuery, String... headers) {
        return send(build("DELETE", pathAndQuery, null, null, headers));
    }

    /**
     * Sends {@code POST} with a text body.
     *
     * @param pathAndQuery the path, with a query if any
     * @param contentType the body's {@code Content-Type}
     * @param body the body, sent as UTF-8
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> post(String pathAndQuery, String contentType, String body) {
        return post(pathAndQuery, contentType, body, NO_HEADERS);
    }

    /**
     * Sends {@code POST} with a text body and request headers.
     *
     * @param pathAndQuery the path, with a query if any
     * @param contentType the body's {@code Content-Type}
     * @param body the body, sent as UTF-8
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> post(String pathAndQuery, String contentType, String body, String... headers) {
        return send(build("POST", pathAndQuery, contentType, utf8(body), headers));
    }

    /**
     * Sends {@code PUT} with a text body.
     *
     * @param pathAndQuery the path, with a query if any
     * @param contentType the body's {@code Content-Type}
     * @param body the body, sent as UTF-8
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> put(String pathAndQuery, String contentType, String body, String... headers) {
        return send(build("PUT", pathAndQuery, contentType, utf8(body), headers));
    }

    /**
     * Sends {@code PATCH} with a text body.
     *
     * @param pathAndQuery the path, with a query if any
     * @param contentType the body's {@code Content-Type}
     * @param body the body, sent as UTF-8
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8
     */
    public HttpResponse<String> patch(String pathAndQuery, String contentType, String body, String... headers) {
        return send(build("PATCH", pathAndQuery, contentType, utf8(body), headers));
    }

    // ---- JSON through the app's codec ----------------------------------------------------------

    /**
     * Sends {@code POST} with {@code value} written as JSON by the app's codec.
     *
     * @param pathAndQuery the path, with a query if any
     * @param value what to send
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8 (read it with {@link #readJson})
     * @throws IllegalStateException when the app has no {@link JsonCodec}
     */
    public HttpResponse<String> postJson(String pathAndQuery, Object value, String... headers) {
        return send(build("POST", pathAndQuery, JSON, codec().write(value), headers));
    }

    /**
     * Sends {@code PUT} with {@code value} written as JSON by the app's codec.
     *
     * @param pathAndQuery the path, with a query if any
     * @param value what to send
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8 (read it with {@link #readJson})
     * @throws IllegalStateException when the app has no {@link JsonCodec}
     */
    public HttpResponse<String> putJson(String pathAndQuery, Object value, String... headers) {
        return send(build("PUT", pathAndQuery, JSON, codec().write(value), headers));
    }

    /**
     * Sends {@code PATCH} with {@code value} written as JSON by the app's codec.
     *
     * @param pathAndQuery the path, with a query if any
     * @param value what to send
     * @param headers name, value pairs
     * @return the response, its body decoded as UTF-8 (read it with {@link #readJson})
     * @throws IllegalStateException when the app has no {@link JsonCodec}
     */
    public HttpResponse<String> patchJson(String pathAndQuery, Object value, String... headers) {
        return send(build("PATCH", pathAndQuery, JSON, codec().write(value), headers));
    }

    /**
     * Sends {@code GET} with {@code Accept: application/json} and reads a {@code 2xx} answer's body as
     * {@code type} through the app's codec.
     *
     * @param pathAndQuery the path, with a query if any
     * @param type what the body holds
     * @param headers name, value pairs
     * @param <T> what the body holds
     * @return the body, read
     * @throws AssertionError when the status is not {@code 2xx} (the message has status and body)
     * @throws IllegalStateException when the app has no {@link JsonCodec}
     */
    public <T> T getJson(String pathAndQuery, Class<T> type, String... headers) {
        String[] withAccept = new String[headers.length + 2];
        withAccept[0] = "Accept";
        withAccept[1] = JSON;
        System.arraycopy(headers, 0, withAccept, 2, headers.length);
        HttpResponse<String> r = send(build("GET", pathAndQuery, null, null, withAccept));
        if (r.statusCode() / 100 != 2) {
            throw new AssertionError("GET " + pathAndQuery + " answered " + r.statusCode() + ": " + r.body());
        }
        return readJson(r, type);
    }

    /**
     * Reads a response's body as {@code type} through the app's codec, whatever its status.
     *
     * @param response a response from this server
     * @param type what the body holds
     * @param <T> what the body holds
     * @return the body, read
     * @throws IllegalStateException when the app has no {@link JsonCodec}
     */
    public <T> T readJson(HttpResponse<String> response, Class<T> type) {
        return codec().read(response.body().getBytes(StandardCharsets.UTF_8), type);
    }

    // ---- raw bytes -----------------------------------------------------------------------------

    /**
     * Sends {@code GET} and keeps the body as bytes.
     *
     * @param pathAndQuery the path, with a query if any
     * @param headers name, value pairs
     * @return the response, its body as received
     */
    public HttpResponse<byte[]> getBytes(String pathAndQuery, String... headers) {
        return send(build("GET", pathAndQuery, null, null, headers), HttpResponse.BodyHandlers.ofByteArray());
    }

    /**
     * Sends any method with a body of bytes and keeps the answer's body as bytes.
     *
     * @param method the request method, e.g. {@code PUT}
     * @param pathAndQuery the path, with a query if any
     * @param contentType the body's {@code Content-Type}, or null for none
     * @param body the body, or null for none
     * @param headers name, value pairs
     * @return the response, its body as received
     */
    public HttpResponse<byte[]> sendBytes(String method, String pathAndQuery, String contentType, byte[] body,
                                          String... headers) {
        return send(build(method, pathAndQuery, contentType, body, headers), HttpResponse.BodyHandlers.ofByteArray());
    }

    // ---- any request ---------------------------------------------------------------------------

    /**
     * Sends a request built by the test (see {@link #request}).
     *
     * @param request the request
     * @return the response, its body decoded as UTF-8
     * @throws UncheckedIOException when the exchange fails
     */
    public HttpResponse<String> send(HttpRequest request) {
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Sends a request built by the test, its answer's body read by {@code bodyHandler}.
     *
     * @param request the request
     * @param bodyHandler how to read the body
     * @param <B> the body's type
     * @return the response
     * @throws UncheckedIOException when the exchange fails
     */
    public <B> HttpResponse<B> send(HttpRequest request, HttpResponse.BodyHandler<B> bodyHandler) {
        try {
            return client.send(request, bodyHandler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A new raw socket to the server, for writing exact bytes.
     *
     * @return an open connection; close it after
     */
    public RawConnection raw() {
        return RawConnection.open("127.0.0.1", port());
    }

    /** Stops the app (gracefully) and closes the client. */
    @Override
    public void close() {
        app.close();
        client.close();
    }

    private HttpRequest build(String method, String pathAndQuery, String contentType, byte[] body, String[] headers) {
        if (headers.length % 2 != 0) {
            throw new IllegalArgumentException("headers are name, value pairs: " + headers.length + " strings");
        }
        HttpRequest.Builder b = request(pathAndQuery);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (method.equals("GET") && body == null) {
            return b.GET().build(); // as before: no body, no Content-Length
        }
        return b.method(method, body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    private static byte[] utf8(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private JsonCodec codec() {
        JsonCodec c = app.jsonCodec();
        if (c == null) {
            throw new IllegalStateException("the app has no JsonCodec: call cfg.json(...) in the test's app");
        }
        return c;
    }
}
