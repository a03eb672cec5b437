package dev.brisk.bench;

import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The JSON every server without a JSON library of its own uses for {@code /json}: one shared mapper. */
public final class Json {
    public static final JsonMapper MAPPER = JsonMapper.builder().build();
    public static final String MESSAGE = "Hello, World!";

    private Json() {
    }

    /** {@code {"message":"Hello, World!"}}, serialized now. */
    public static byte[] hello() {
        return MAPPER.writeValueAsBytes(Map.of("message", MESSAGE));
    }
}
