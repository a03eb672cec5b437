package dev.brisk.internal.web;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses request {@code Cookie} header values into name/value pairs. Stateless. */
final class Cookies {
    private Cookies() {
    }

    /**
     * The cookies in {@code headerValues} ({@code a=1; b="2"}), in order, the first of a repeated name
     * winning; quotes around a value are removed, pairs without a name or an {@code =} are skipped.
     */
    static Map<String, String> parse(List<String> headerValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String h : headerValues) {
            int from = 0;
            while (from < h.length()) {
                int semi = h.indexOf(';', from);
                int end = semi < 0 ? h.length() : semi;
                int eq = h.indexOf('=', from);
                if (eq > from && eq < end) {
                    String n = h.substring(from, eq).trim();
                    String v = h.substring(eq + 1, end).trim();
                    if (v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"') {
                        v = v.substring(1, v.length() - 1);
                    }
                    if (!n.isEmpty()) {
                        m.putIfAbsent(n, v);
                    }
                }
                from = end + 1;
            }
        }
        return Collections.unmodifiableMap(m);
    }
}
