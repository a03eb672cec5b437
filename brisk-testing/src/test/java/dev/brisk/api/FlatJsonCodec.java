package dev.brisk.api;

import dev.brisk.JsonCodec;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A test-only codec for flat maps of strings and numbers (brisk-testing cannot depend on brisk-jackson,
 * which tests with brisk-testing). Reading always fails, like a codec given invalid input.
 */
final class FlatJsonCodec implements JsonCodec {
    @Override
    public byte[] write(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("only maps: " + value);
        }
        String json = map.entrySet().stream()
                .map(e -> quote(String.valueOf(e.getKey())) + ":" + (e.getValue() instanceof Number n
                        ? n.toString() : quote(String.valueOf(e.getValue()))))
                .collect(Collectors.joining(",", "{", "}"));
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Override
    public <T> T read(byte[] json, Class<T> type) {
        throw new IllegalArgumentException("FlatJsonCodec does not read");
    }
}
