package dev.brisk.internal.web;

import dev.brisk.internal.routing.CompiledRoute;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A matched route's path parameters: the names its template declares paired, in order, with the raw
 * values the router cut from the path, decoded on demand. Stateless.
 */
final class PathParams {
    private PathParams() {
    }

    /** The decoded value of {@code name}, or null when {@code route} is null or has no such parameter. */
    static String get(CompiledRoute route, String[] raw, String name) {
        if (route == null) {
            return null;
        }
        List<String> names = route.paramNames();
        for (int i = 0; i < names.size() && i < raw.length; i++) {
            if (names.get(i).equals(name)) {
                return UriCodec.decode(raw[i], false);
            }
        }
        return null;
    }

    /** Every parameter, decoded, in template order; unmodifiable. */
    static Map<String, String> all(CompiledRoute route, String[] raw) {
        if (route == null || raw.length == 0) {
            return Map.of();
        }
        Map<String, String> m = new LinkedHashMap<>();
        List<String> names = route.paramNames();
        for (int i = 0; i < names.size() && i < raw.length; i++) {
            m.put(names.get(i), UriCodec.decode(raw[i], false));
        }
        return Collections.unmodifiableMap(m);
    }
}
