package dev.brisk.internal.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the routes for a request path: a hash lookup for exact paths first, then a segment trie for
 * paths with parameters (at each level: literal child, then parameter, then wildcard, backtracking).
 * Built before start, then read-only and safe to share between threads.
 */
public final class Router {
    // exact paths map straight to a ready match: a hit allocates nothing
    private final Map<String, RouteMatch> exact = new HashMap<>();
    // built from exact on first lookup (routes are all added by then); immutable, so a racy build is safe
    private PathTable<RouteMatch> exactBytes;
    private final Node root = new Node();
    private final List<CompiledRoute> all = new java.util.ArrayList<>();

    private static final class Node {
        final Map<String, Node> literals = new HashMap<>();
        Node param;
        RouteEntry entry;
        RouteEntry wildcard;
    }

    /** Every route added, in order (for per-route metrics). */
    public List<CompiledRoute> routes() {
        return java.util.Collections.unmodifiableList(all);
    }

    /** Registers a route. Not for use after the router is shared. */
    public void add(CompiledRoute route) {
        all.add(route);
        PathTemplate t = PathTemplate.parse(route.template());
        if (!t.paramNames().equals(route.paramNames())) {
            throw new IllegalArgumentException("parameter names do not match template " + route.template());
        }
        if (t.isExact()) {
            exact.computeIfAbsent(t.path(), k -> new RouteMatch(new RouteEntry(), RouteMatch.NONE)).entry().add(route);
            exactBytes = null;
            return;
        }
        Node n = root;
        List<String> segs = t.segments();
        for (int i = 0; i < segs.size(); i++) {
            String s = segs.get(i);
            if (s.equals("*")) {
                if (n.wildcard == null) {
                    n.wildcard = new RouteEntry();
                }
                n.wildcard.add(route);
                return;
            }
            if (PathTemplate.isParam(s)) {
                if (n.param == null) {
                    n.param = new Node();
                }
                n = n.param;
            } else {
                n = n.literals.computeIfAbsent(s, k -> new Node());
            }
        }
        if (n.entry == null) {
            n.entry = new RouteEntry();
        }
        n.entry.add(route);
    }

    /** The parameter names a template declares, in order. */
    public static List<String> paramNames(String template) {
        return PathTemplate.parse(template).paramNames();
    }

    /** The entry for a raw request path (starting with {@code /}), or null when nothing matches. */
    public RouteMatch find(String path) {
        RouteMatch e = exact.get(path);
        if (e != null) {
            return e;
        }
        return findDynamic(path);
    }

    /**
     * The exact-path entry for the raw path {@code b[from..to)}, found from the bytes without making the
     * path's string; null when no exact path matches (then try {@link #findDynamic}).
     */
    public RouteMatch findExact(byte[] b, int from, int to) {
        PathTable<RouteMatch> t = exactBytes;
        if (t == null) {
            t = new PathTable<>(exact);
            exactBytes = t;
        }
        return t.get(b, from, to);
    }

    /** Like {@link #find} but skipping exact paths: for a method the exact entry lacks. */
    public RouteMatch findDynamic(String path) {
        ArrayList<String> params = new ArrayList<>(4);
        RouteEntry found = walk(root, path, 1, params);
        return found == null ? null : new RouteMatch(found, params.toArray(RouteMatch.NONE));
    }

    private static RouteEntry walk(Node n, String path, int from, ArrayList<String> params) {
        if (from > path.length()) {
            return n.entry;
        }
        int slash = path.indexOf('/', from);
        int end = slash < 0 ? path.length() : slash;
        if (!n.literals.isEmpty()) {
            Node child = n.literals.get(path.substring(from, end));
            if (child != null) {
                RouteEntry r = walk(child, path, end + 1, params);
                if (r != null) {
                    return r;
                }
            }
        }
        if (n.param != null && end > from) {
            params.add(path.substring(from, end));
            RouteEntry r = walk(n.param, path, end + 1, params);
            if (r != null) {
                return r;
            }
            params.remove(params.size() - 1);
        }
        if (n.wildcard != null) {
            params.add(path.substring(from));
            return n.wildcard;
        }
        return null;
    }
}
