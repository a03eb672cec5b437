package dev.brisk.internal.form;

import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.web.BodyUnavailableException;

/**
 * What one request's form holds on the heap beyond its body's bytes, charged to
 * {@code body-memory-budget}: the decoded fields of a urlencoded form, the heads of stored parts, and
 * the text of a multipart form's fields. Without it a form of many small fields (a 64 MiB multipart body
 * of 8 KiB part heads, say) held several times its stored bytes outside the budget, bounded per request
 * but not per server. A charge that does not fit is a 503 with {@code Retry-After}, like a body that
 * does not fit; everything charged is given back once, by {@link #release}.
 *
 * <p>The figures are the heap's, roughly: a {@code String} by its object and its array (one byte per
 * char when every char fits in Latin-1, two otherwise, as compact strings store them), plus a fixed
 * {@link #ENTRY} for the collections that hold it.
 *
 * <p>Owned by one request's {@link RequestForm}; the handler's thread only.
 */
final class FormMemory {
    /** A String's object and its array's header. */
    private static final long STRING = 40;
    /** A field's or part's share of the map, list and records that hold it. */
    static final long ENTRY = 96;

    private final BodyStore store;
    private long reserved;

    /** @param store the server's; null outside a server (nothing charged) */
    FormMemory(BodyStore store) {
        this.store = store;
    }

    /**
     * Reserves {@code bytes}, or throws a 503 naming {@code what} (nothing reserved by this call).
     *
     * @throws BodyUnavailableException when the budget cannot take them
     */
    void charge(long bytes, String what) {
        if (store == null || bytes == 0) {
            return;
        }
        if (!store.memory().tryReserve(bytes)) {
            throw new BodyUnavailableException("Service Unavailable: no request-body memory free for " + what
                    + ", retry shortly");
        }
        reserved += bytes;
    }

    /** Charges {@code s}'s heap (see the class javadoc) and {@link #ENTRY}. */
    void chargeField(String s, String what) {
        charge(cost(s) + ENTRY, what);
    }

    /** {@return what {@code s} takes of the heap, roughly} */
    long cost(String s) {
        int n = s.length();
        long bytes = n;
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) > 0xff) {
                bytes = 2L * n;
                break;
            }
        }
        return STRING + (store == null ? bytes : store.arrayCost(bytes));
    }

    /** Gives back everything charged. Idempotent. */
    void release() {
        if (store != null) {
            store.memory().release(reserved);
        }
        reserved = 0;
    }

    /** {@return the bytes charged and not yet released} */
    long reserved() {
        return reserved;
    }
}
