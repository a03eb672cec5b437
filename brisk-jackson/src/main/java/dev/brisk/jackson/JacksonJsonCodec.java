package dev.brisk.jackson;

import dev.brisk.JsonCodec;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link JsonCodec} on Jackson 3. Thread-safe; share one instance per app.
 *
 * <pre>{@code Brisk.create(cfg -> cfg.json(new JacksonJsonCodec()) ...)}</pre>
 */
public final class JacksonJsonCodec implements JsonCodec {
    private final JsonMapper mapper;

    /** A codec with Jackson's default mapper. */
    public JacksonJsonCodec() {
        this(JsonMapper.builder().build());
    }

    /**
     * A codec on a mapper configured by the caller.
     *
     * @param mapper used for every read and write; must not be reconfigured afterwards
     */
    public JacksonJsonCodec(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /** {@return the mapper this codec reads and writes with} */
    public JsonMapper mapper() {
        return mapper;
    }

    @Override
    public byte[] write(Object value) {
        return mapper.writeValueAsBytes(value);
    }

    @Override
    public <T> T read(byte[] json, Class<T> type) {
        return mapper.readValue(json, type);
    }
}
