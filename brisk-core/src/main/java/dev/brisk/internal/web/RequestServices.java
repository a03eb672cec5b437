package dev.brisk.internal.web;

import dev.brisk.Cors;
import dev.brisk.FormOptions;
import dev.brisk.JsonCodec;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.routing.CompiledRoute;
import java.util.Map;

/**
 * What an app lends each of its requests, set on the exchange by routing in one field: the JSON codec
 * (null when the app has none), the form limits, the server's body store, which stored multipart
 * parts draw from, and each route's CORS policy, for the answers the engine gives before a chain runs. Built at freeze; the store is set once by the server before it starts (its loops'
 * threads start after, so they see it). Shared by all requests.
 */
public final class RequestServices {
    private final JsonCodec codec;
    private final FormOptions forms;
    private final Map<CompiledRoute, Cors> cors;
    private BodyStore bodies;

    /** @param cors each route's innermost CORS middleware, by identity; not copied, never changed after */
    RequestServices(JsonCodec codec, FormOptions forms, Map<CompiledRoute, Cors> cors) {
        this.codec = codec;
        this.forms = forms;
        this.cors = cors;
    }

    /** {@return the CORS policy of {@code route}'s chain, or null} */
    Cors cors(CompiledRoute route) {
        return route == null ? null : cors.get(route);
    }

    JsonCodec codec() {
        return codec;
    }

    FormOptions forms() {
        return forms;
    }

    BodyStore bodies() {
        return bodies;
    }

    void bodies(BodyStore store) {
        this.bodies = store;
    }
}
