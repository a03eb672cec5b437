package dev.brisk.testing;

import dev.brisk.JsonCodec;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A test-only codec for flat JSON objects of strings and integers, both ways (brisk-testing cannot
 * depend on brisk-jackson, which tests with brisk-testing). Strings must not contain quotes, commas
 * or colons: enough to see values cross the wire through the app's codec.
 */
final class FlatMapJsonCodec implements JsonCodec {
    @Override
    public byte[] write(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("only maps: " + value);
        }
        return map.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":" + (e.getValue() instanceof Number n ? n : "\"" + e.getValue() + "\""))
                .collect(Collectors.joining(",", "{", "}"))
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public <T> T read(byte[] json, Class<T> type) {
        String s = new String(json, StandardCharsets.UTF_8).strip();
        if (type != Map.class || !s.startsWith("{") || !s.endsWith("}")) {
            throw new IllegalArgumentException("not a flat JSON object: " + s);
        }
        Map<String, Object> map = new LinkedHashMap<>();
        String inner = s.substring(1, s.length() - 1).strip();
        if (!inner.isEmpty()) {
            for (String pair : inner.split(",")) {
                String[] kv = pair.split(":", 2);
                String k = kv[0].strip();
                String v = kv[1].strip();
                map.put(k.substring(1, k.length() - 1),
                        v.startsWith("\"") ? v.substring(1, v.length() - 1) : (Object) Long.valueOf(v));
            }
        }
        return type.cast(map);
    }
}
