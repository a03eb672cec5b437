package dev.brisk.internal.routing;

import dev.brisk.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/** The routes registered for one path template, one per method, and the {@code Allow} list they make. */
public final class RouteEntry {
    private final CompiledRoute[] byMethod = new CompiledRoute[Method.values().length];
    private String allow;
    // how many parameters a path matching this entry has (every route of an entry shares the template's shape)
    int paramCount;

    void add(CompiledRoute route) {
        if (byMethod[route.method().ordinal()] != null) {
            throw new IllegalArgumentException("duplicate route: " + route.method() + " " + route.template());
        }
        byMethod[route.method().ordinal()] = route;
        allow = null;
    }

    /** The route for {@code method}; HEAD falls back to GET. Null when none. */
    public CompiledRoute route(Method method) {
        CompiledRoute r = byMethod[method.ordinal()];
        if (r == null && method == Method.HEAD) {
            r = byMethod[Method.GET.ordinal()];
        }
        return r;
    }

    /** The routes of this entry, in {@link Method} order. */
    public List<CompiledRoute> routes() {
        List<CompiledRoute> out = new ArrayList<>();
        for (CompiledRoute r : byMethod) {
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    /** The value of the {@code Allow} header for this path. */
    public String allow() {
        String a = allow;
        if (a == null) {
            StringJoiner j = new StringJoiner(", ");
            for (Method m : Method.values()) {
                if (byMethod[m.ordinal()] != null || (m == Method.HEAD && byMethod[Method.GET.ordinal()] != null)
                        || m == Method.OPTIONS) {
                    j.add(m.name());
                }
            }
            a = j.toString();
            allow = a;
        }
        return a;
    }
}
