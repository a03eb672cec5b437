package dev.brisk.internal.routing;

import java.util.ArrayList;
import java.util.List;

/** A parsed route path: literal segments, {@code {name}} parameters and a trailing {@code *}. */
record PathTemplate(String path, List<String> segments, List<String> paramNames, boolean wildcard) {

    static PathTemplate parse(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException("route path must start with '/': " + path);
        }
        List<String> segments = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean wildcard = false;
        if (path.length() > 1) {
            int from = 1;
            while (true) {
                int slash = path.indexOf('/', from);
                String seg = slash < 0 ? path.substring(from) : path.substring(from, slash);
                if (wildcard) {
                    throw new IllegalArgumentException("'*' must be the last segment: " + path);
                }
                if (seg.equals("*")) {
                    wildcard = true;
                    names.add("*");
                } else if (seg.startsWith("{") && seg.endsWith("}")) {
                    String name = seg.substring(1, seg.length() - 1);
                    if (name.isEmpty() || names.contains(name) || name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
                        throw new IllegalArgumentException("empty, repeated or malformed parameter name in " + path);
                    }
                    names.add(name);
                } else if (seg.indexOf('{') >= 0 || seg.indexOf('}') >= 0 || seg.indexOf('*') >= 0) {
                    throw new IllegalArgumentException("a parameter must fill a whole segment: " + path);
                }
                segments.add(seg);
                if (slash < 0) {
                    break;
                }
                from = slash + 1;
            }
        }
        return new PathTemplate(path, List.copyOf(segments), List.copyOf(names), wildcard);
    }

    boolean isExact() {
        return paramNames.isEmpty();
    }

    static boolean isParam(String segment) {
        return segment.startsWith("{");
    }
}
