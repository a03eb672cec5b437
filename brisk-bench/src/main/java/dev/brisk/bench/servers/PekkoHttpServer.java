package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Pekko HTTP (the open fork of Akka HTTP) with its Java routing DSL, as its Java quick start sets it up: an
 * {@code ActorSystem}, a {@code Route} built from directives, {@code Http.get(system).newServerAt(...).bind}.
 * Bodies arrive as streams: {@code /echo} collects the entity ({@code toStrict}), {@code /consume} drains it.
 */
public final class PekkoHttpServer extends AllDirectives implements BenchServer {
    private static final long STRICT_TIMEOUT_MS = 5_000;

    private ActorSystem system;
    private ServerBinding binding;

    @Override
    public void start(int port, BenchTls tls) throws Exception {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        system = ActorSystem.create("bench");
        binding = Http.get(system).newServerAt("127.0.0.1", port).bind(routes())
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private Route routes() {
        return concat(
                path("hello", () -> get(() -> complete(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, "Hello, World!")))),
                path("json", () -> get(() -> complete(HttpEntities.create(ContentTypes.APPLICATION_JSON, Json.hello())))),
                path(PathMatchers.segment("users").slash(PathMatchers.segment()), id ->
                        get(() -> complete(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, id)))),
                path("echo", () -> post(() -> extractRequestEntity(entity ->
                        onSuccess(entity.toStrict(STRICT_TIMEOUT_MS, system), strict ->
                                complete(HttpResponse.create().withEntity(strict)))))),
                path("consume", () -> post(() -> extractRequestEntity(entity ->
                        onSuccess(entity.discardBytes(system).completionStage(), done ->
                                complete(StatusCodes.NO_CONTENT))))),
                path("health", () -> get(() -> complete(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, "OK")))));
    }

    @Override
    public void close() throws Exception {
        binding.terminate(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
