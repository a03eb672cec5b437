package dev.brisk.internal.routing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Values keyed by a raw path, looked up by the request's bytes in place (open addressing, linear
 * probing): a lookup allocates nothing, not even the path's string. A raw path is ASCII on the wire;
 * a key with a character above {@code U+00FF} can never equal one and is left out. Read-only once
 * built, so safe to share between threads.
 */
final class PathTable<V> {
    private final byte[][] keys;
    private final Object[] values;
    private final int mask;

    PathTable(Map<String, V> entries) {
        int cap = Integer.highestOneBit(Math.max(4, entries.size() * 4) - 1) << 1; // at most a quarter full
        keys = new byte[cap][];
        values = new Object[cap];
        mask = cap - 1;
        for (Map.Entry<String, V> e : entries.entrySet()) {
            String path = e.getKey();
            if (path.chars().anyMatch(c -> c > 0xFF)) {
                continue;
            }
            byte[] k = path.getBytes(StandardCharsets.ISO_8859_1);
            int i = hash(k, 0, k.length) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = k;
            values[i] = e.getValue();
        }
    }

    /** The value for the path {@code b[from..to)}, or null. */
    @SuppressWarnings("unchecked")
    V get(byte[] b, int from, int to) {
        int i = hash(b, from, to) & mask;
        byte[] k;
        while ((k = keys[i]) != null) {
            if (k.length == to - from && Arrays.equals(k, 0, k.length, b, from, to)) {
                return (V) values[i];
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    private static int hash(byte[] b, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        return h ^ (h >>> 16);
    }
}
