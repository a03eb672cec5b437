package dev.brisk.internal.routing;

import dev.brisk.internal.http.Ascii;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the routes for a request path: a hash lookup for exact paths first, then a segment trie for
 * paths with parameters (at each level: literal child, then parameter, then wildcard, backtracking).
 * Both are walked over the request's raw path bytes in place: a lookup makes no string but the
 * parameter values it returns. Built before start, then read-only and safe to share between threads.
 */
public final class Router {
    // exact paths map straight to a ready match: a hit allocates nothing
    private final Map<String, RouteMatch> exact = new HashMap<>();
    // built from exact on first lookup (routes are all added by then); immutable, so a racy build is safe
    private PathTable<RouteMatch> exactBytes;
    private final Node root = new Node();
    private final List<CompiledRoute> all = new ArrayList<>();
    // the most parameters any parameterized template has: the size of a lookup's scratch array
    private int maxParams;

    private static final class Node {
        final Map<String, Node> literals = new HashMap<>();
        // literals keyed by segment bytes, built on first lookup; immutable, so a racy build is safe
        PathTable<Node> literalBytes;
        Node param;
        RouteEntry entry;
        RouteEntry wildcard;

        PathTable<Node> literalBytes() {
            PathTable<Node> t = literalBytes;
            if (t == null) {
                t = new PathTable<>(literals);
                literalBytes = t;
            }
            return t;
        }
    }

    /** Every route added, in order (for per-route metrics). */
    public List<CompiledRoute> routes() {
        return Collections.unmodifiableList(all);
    }

    /**
     * The distinct {@code Allow} values of all paths, in no particular order: the app builds its 405 and
     * OPTIONS answers for each at start-up. Call once every route is added.
     */
    public Set<String> allowValues() {
        Set<String> out = new LinkedHashSet<>();
        for (RouteEntry e : entries()) {
            out.add(e.allow());
        }
        return out;
    }

    /** Every path's entry (the routes of one template, by method), in no particular order. Call once every route is added. */
    public List<RouteEntry> entries() {
        List<RouteEntry> out = new ArrayList<>();
        for (RouteMatch m : exact.values()) {
            out.add(m.entry());
        }
        collectEntries(root, out);
        return out;
    }

    private static void collectEntries(Node n, List<RouteEntry> out) {
        if (n.entry != null) {
            out.add(n.entry);
        }
        if (n.wildcard != null) {
            out.add(n.wildcard);
        }
        for (Node child : n.literals.values()) {
            collectEntries(child, out);
        }
        if (n.param != null) {
            collectEntries(n.param, out);
        }
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
        maxParams = Math.max(maxParams, t.paramNames().size());
        Node n = root;
        List<String> segs = t.segments();
        for (int i = 0; i < segs.size(); i++) {
            String s = segs.get(i);
            if (s.equals("*")) {
                if (n.wildcard == null) {
                    n.wildcard = new RouteEntry();
                    n.wildcard.paramCount = t.paramNames().size();
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
                n.literalBytes = null;
                n = n.literals.computeIfAbsent(s, k -> new Node());
            }
        }
        if (n.entry == null) {
            n.entry = new RouteEntry();
            n.entry.paramCount = t.paramNames().size();
        }
        n.entry.add(route);
    }

    /** The parameter names a template declares, in order. */
    public static List<String> paramNames(String template) {
        return PathTemplate.parse(template).paramNames();
    }

    /**
     * The entry for a raw request path (starting with {@code /}, as the Latin-1 string of its bytes),
     * or null when nothing matches. For tools and tests: the server looks up the bytes in place.
     */
    public RouteMatch find(String path) {
        RouteMatch e = exact.get(path);
        if (e != null) {
            return e;
        }
        return findDynamic(path);
    }

    /**
     * The exact-path entry for the raw path {@code b[from..to)}, found from the bytes without making the
     * path's string; null when no exact path matches (then try {@link #findDynamic(byte[], int, int)}).
     */
    public RouteMatch findExact(byte[] b, int from, int to) {
        PathTable<RouteMatch> t = exactBytes;
        if (t == null) {
            t = new PathTable<>(exact);
            exactBytes = t;
        }
        return t.get(b, from, to);
    }

    /** {@link #findDynamic(byte[], int, int)} for a path string; a character above U+00FF never matches. */
    public RouteMatch findDynamic(String path) {
        byte[] b = PathTable.latin1(path);
        return b == null ? null : findDynamic(b, 0, b.length);
    }

    /**
     * The parameterized route entry for the raw path {@code b[from..to)} (starting with {@code /}),
     * skipping exact paths (also for a method the exact entry lacks), or null. The returned parameter
     * values are strings of their own (still percent-encoded): {@code b} may be reused afterwards.
     */
    public RouteMatch findDynamic(byte[] b, int from, int to) {
        String[] params = maxParams == 0 ? RouteMatch.NONE : new String[maxParams];
        RouteEntry found = findDynamic(b, from, to, params);
        if (found == null) {
            return null;
        }
        int k = found.paramCount;
        return new RouteMatch(found, k == params.length ? params : Arrays.copyOf(params, k));
    }

    /**
     * {@link #findDynamic(byte[], int, int)} writing the parameter values into {@code params} (at least
     * {@link #maxParams()} long, e.g. an array the caller reuses): its first {@code paramCount} slots
     * are the entry's values; the slots after them may hold anything. Null when no route matches.
     */
    public RouteEntry findDynamic(byte[] b, int from, int to, String[] params) {
        return walk(root, b, from + 1, to, params, 0);
    }

    /** The most parameters any route's template declares: how long a parameter array must be. */
    public int maxParams() {
        return maxParams;
    }

    // the segment starting at from ends at the next '/' or at to; from > to: the path is used up.
    // A failed branch may leave values in params beyond the winner's count: only its count is kept.
    private static RouteEntry walk(Node n, byte[] b, int from, int to, String[] params, int depth) {
        if (from > to) {
            return n.entry;
        }
        int end = from;
        while (end < to && b[end] != '/') {
            end++;
        }
        if (!n.literals.isEmpty()) {
            Node child = n.literalBytes().get(b, from, end);
            if (child != null) {
                RouteEntry r = walk(child, b, end + 1, to, params, depth);
                if (r != null) {
                    return r;
                }
            }
        }
        if (n.param != null && end > from) {
            params[depth] = Ascii.latin1(b, from, end);
            RouteEntry r = walk(n.param, b, end + 1, to, params, depth + 1);
            if (r != null) {
                return r;
            }
        }
        if (n.wildcard != null) {
            params[depth] = Ascii.latin1(b, from, to);
            return n.wildcard;
        }
        return null;
    }
}
