package dev.brisk.internal.web;

/**
 * {@code json} or {@code bodyAsJson} in an app without a codec: a server mistake, answered {@code 500}
 * and logged loudly once per app rather than once per request.
 */
final class MissingJsonCodec extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    MissingJsonCodec() {
        super("no JsonCodec configured: add brisk-jackson and call cfg.json(new JacksonJsonCodec())",
                null);
    }
}
