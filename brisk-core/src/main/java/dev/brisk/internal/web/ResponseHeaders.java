package dev.brisk.internal.web;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A response's header fields other than {@code Content-Type}, as the flat list the encoder walks:
 * name, value, name, value... (names as given, matched case-insensitively). Values are validated by
 * the caller before they get here.
 *
 * <p>It also holds the handler mark: the fields added before {@link #mark} (by middleware and before
 * filters: a request id, CORS) survive {@link #dropHandlerFields}, which an error answer calls to
 * discard what the failed handler had set.
 *
 * <p>Made on the first header a response gets (one object and its array, like the {@code ArrayList}
 * it replaces); used by one thread at a time, like its exchange.
 */
final class ResponseHeaders extends AbstractList<String> implements RandomAccess {
    private String[] pairs = new String[8];
    private int size;
    private int mark;

    /** Whether handlers may not set {@code name}: the server frames the response itself. */
    static boolean isFraming(String name) {
        return name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                || name.equalsIgnoreCase("Connection") || name.equalsIgnoreCase("Date");
    }

    @Override
    public String get(int index) {
        Objects.checkIndex(index, size);
        return pairs[index];
    }

    @Override
    public int size() {
        return size;
    }

    /** Adds a field, keeping earlier ones of the same name. */
    void add(String name, String value) {
        if (size + 2 > pairs.length) {
            pairs = Arrays.copyOf(pairs, pairs.length * 2);
        }
        pairs[size++] = name;
        pairs[size++] = value;
        modCount++;
    }

    /** Replaces every field named {@code name} with this one, added last. */
    void set(String name, String value) {
        remove(name);
        add(name, value);
    }

    /** Removes every field named {@code name}. */
    void remove(String name) {
        int w = 0;
        for (int r = 0; r < size; r += 2) {
            if (pairs[r].equalsIgnoreCase(name)) {
                continue;
            }
            pairs[w++] = pairs[r];
            pairs[w++] = pairs[r + 1];
        }
        Arrays.fill(pairs, w, size, null);
        size = w;
    }

    /** The first value of {@code name}, or null. */
    String first(String name) {
        for (int i = 0; i < size; i += 2) {
            if (pairs[i].equalsIgnoreCase(name)) {
                return pairs[i + 1];
            }
        }
        return null;
    }

    /** Empties the list for the next response of the same exchange; its array is kept. */
    @Override
    public void clear() {
        Arrays.fill(pairs, 0, size, null);
        size = 0;
        mark = 0;
        modCount++;
    }

    /** The handler starts: fields added from now on are its own. */
    void mark() {
        mark = size;
    }

    /**
     * Removes the fields past the mark (all of them when it was never set). The mark is a count, not
     * a field: when {@link #set} removed a field before it, the first field after it is kept too.
     */
    void dropHandlerFields() {
        if (mark < size) {
            Arrays.fill(pairs, mark, size, null);
            size = mark;
            modCount++;
        }
    }
}
