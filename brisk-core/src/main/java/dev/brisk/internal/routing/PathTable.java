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
            byte[] k = latin1(e.getKey());
            if (k == null) {
                continue;
            }
            int i = hash(k, 0, k.length) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = k;
            values[i] = e.getValue();
        }
    }

    /** The bytes a raw path made of {@code s}'s characters would have, or null when one is above U+00FF. */
    static byte[] latin1(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xFF) {
                return null;
            }
        }
        return s.getBytes(StandardCharsets.ISO_8859_1);
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
