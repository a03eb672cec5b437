package dev.brisk.internal.web;

import dev.brisk.FormOptions;
import dev.brisk.JsonCodec;
import dev.brisk.internal.body.BodyStore;

/**
 * What an app lends each of its requests, set on the exchange by routing in one field: the JSON codec
 * (null when the app has none), the form limits and the server's body store, which stored multipart
 * parts draw from. Built at freeze; the store is set once by the server before it starts (its loops'
 * threads start after, so they see it). Shared by all requests.
 */
public final class RequestServices {
    private final JsonCodec codec;
    private final FormOptions forms;
    private BodyStore bodies;

    RequestServices(JsonCodec codec, FormOptions forms) {
        this.codec = codec;
        this.forms = forms;
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
