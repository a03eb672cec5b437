package dev.brisk.internal.http2;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A connection's open streams by id: open addressing over a power-of-two table (linear probing,
 * backward-shift deletion), so a lookup per frame boxes nothing. Loop thread only.
 */
final class StreamMap {
    private int[] keys = new int[16];
    private Http2Stream[] values = new Http2Stream[16];
    private int size;

    int size() {
        return size;
    }

    Http2Stream get(int id) {
        int mask = keys.length - 1;
        for (int i = hash(id) & mask; ; i = (i + 1) & mask) {
            int k = keys[i];
            if (k == id) {
                return values[i];
            }
            if (k == 0) {
                return null;
            }
        }
    }

    void put(int id, Http2Stream s) {
        if ((size + 1) * 2 > keys.length) {
            resize(keys.length * 2);
        }
        int mask = keys.length - 1;
        int i = hash(id) & mask;
        while (keys[i] != 0 && keys[i] != id) {
            i = (i + 1) & mask;
        }
        if (keys[i] == 0) {
            size++;
        }
        keys[i] = id;
        values[i] = s;
    }

    void remove(int id) {
        int mask = keys.length - 1;
        int i = hash(id) & mask;
        while (keys[i] != id) {
            if (keys[i] == 0) {
                return;
            }
            i = (i + 1) & mask;
        }
        size--;
        // shift back the entries after it that probed past this slot
        int gap = i;
        for (int j = (i + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
            int home = hash(keys[j]) & mask;
            if (((j - home) & mask) >= ((j - gap) & mask)) {
                keys[gap] = keys[j];
                values[gap] = values[j];
                gap = j;
            }
        }
        keys[gap] = 0;
        values[gap] = null;
    }

    /** Calls {@code action} on a snapshot of the streams (it may remove them). */
    void forEach(Consumer<Http2Stream> action) {
        if (size == 0) {
            return;
        }
        Http2Stream[] snapshot = new Http2Stream[size];
        int n = 0;
        for (Http2Stream s : values) {
            if (s != null) {
                snapshot[n++] = s;
            }
        }
        for (int i = 0; i < n; i++) {
            action.accept(snapshot[i]);
        }
    }

    void clear() {
        Arrays.fill(keys, 0);
        Arrays.fill(values, null);
        size = 0;
    }

    private void resize(int capacity) {
        int[] ok = keys;
        Http2Stream[] ov = values;
        keys = new int[capacity];
        values = new Http2Stream[capacity];
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != 0) {
                put(ok[i], ov[i]);
            }
        }
    }

    private static int hash(int id) {
        return (id >>> 1) * 0x9E3779B1 >>> 16 ^ id >>> 1;
    }
}
