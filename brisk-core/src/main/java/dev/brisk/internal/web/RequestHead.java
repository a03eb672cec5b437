package dev.brisk.internal.web;

import dev.brisk.internal.http.Ascii;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Header lookups over a request head kept as bytes: {@code head} holds the request from {@code base},
 * and {@code fields} four offsets per header field, relative to {@code base}: name start, name end,
 * value start, value end. Any protocol can produce this shape (HTTP/1.1 parses it in place; an HTTP/2
 * stream would write its decoded fields the same way), so nothing here knows the wire syntax.
 *
 * <p>Static and stateless: the exchange keeps the bytes and offsets in its own fields, so a request
 * costs no head object of its own. Names compare ASCII case-insensitively; values are Latin-1 strings
 * made on demand.
 */
final class RequestHead {
    private RequestHead() {
    }

    /** The first value of the field {@code name}, or null. */
    static String value(byte[] head, int base, int[] fields, int count, String name) {
        for (int i = 0; i < count; i++) {
            if (nameIs(head, base, fields, i, name)) {
                return valueOf(head, base, fields, i);
            }
        }
        return null;
    }

    /** Every value of the field {@code name}, in order; an unmodifiable list, empty when absent. */
    static List<String> values(byte[] head, int base, int[] fields, int count, String name) {
        List<String> out = null;
        for (int i = 0; i < count; i++) {
            if (nameIs(head, base, fields, i, name)) {
                if (out == null) {
                    out = new ArrayList<>(2);
                }
                out.add(valueOf(head, base, fields, i));
            }
        }
        return out == null ? List.of() : Collections.unmodifiableList(out);
    }

    /** The field names as sent, in order, without repeats (case-insensitive); unmodifiable. */
    static List<String> names(byte[] head, int base, int[] fields, int count) {
        List<String> names = new ArrayList<>(count);
        outer:
        for (int i = 0; i < count; i++) {
            String name = Ascii.latin1(head, base + fields[i * 4], base + fields[i * 4 + 1]);
            for (int j = 0; j < i; j++) {
                if (nameIs(head, base, fields, j, name)) {
                    continue outer;
                }
            }
            names.add(name);
        }
        return Collections.unmodifiableList(names);
    }

    private static String valueOf(byte[] head, int base, int[] fields, int field) {
        return Ascii.latin1(head, base + fields[field * 4 + 2], base + fields[field * 4 + 3]);
    }

    private static boolean nameIs(byte[] head, int base, int[] fields, int field, String name) {
        int s = base + fields[field * 4];
        int e = base + fields[field * 4 + 1];
        if (e - s != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            int a = head[s + i];
            int b = name.charAt(i);
            if (a != b) {
                if (a >= 'A' && a <= 'Z') {
                    a += 32;
                }
                if (b >= 'A' && b <= 'Z') {
                    b += 32;
                }
                if (a != b) {
                    return false;
                }
            }
        }
        return true;
    }
}
