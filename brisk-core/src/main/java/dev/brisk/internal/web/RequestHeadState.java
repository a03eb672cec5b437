package dev.brisk.internal.web;

import dev.brisk.internal.http.Ascii;
import java.util.List;

/**
 * The request head of an {@link Exchange} as bytes: the head from {@code base} and four offsets per
 * header field relative to it ({@link RequestHead} does the lookups), either borrowed from the
 * connection's input buffer and the parser's offsets or copied into arrays of the exchange's own, which
 * it keeps for the next request when it is reused. A superclass rather than an object of its own, like
 * {@link ResponseState}, so that a request still costs one exchange object (HTTP/2 makes one per
 * stream); the split is of code only.
 *
 * <pre>
 *   {@link #head(byte[], int, int, int[], int) head(...)} ──▶ BORROWED ──{@link #own}──▶ OWNED
 *                            │                    │
 *                  {@link #release} │                    │ {@link #over}
 *                            ▼                    ▼
 *                          GONE: the request's reads fail (IllegalStateException) until the next head(...)
 * </pre>
 * {@link #over} ends a borrowed head too; {@link #release} leaves an owned one readable.
 *
 * <p>Threads: as its exchange's.
 */
abstract class RequestHeadState {
    private byte[] head; // null once gone
    private int[] fields;
    private int base; // where the request starts in head: 0 once owned
    private int headLength;
    private int fieldCount;
    private boolean borrowed;
    // what own() copies into, kept for the next request when the exchange is reused
    private byte[] ownHead;
    private int[] ownFields;

    /** A new request's head, borrowed: {@code head} from {@code base}, {@code fields} relative to it. */
    final void head(byte[] head, int base, int headLength, int[] fields, int fieldCount) {
        this.head = head;
        this.base = base;
        this.headLength = headLength;
        this.fields = fields;
        this.fieldCount = fieldCount;
        this.borrowed = true;
    }

    /**
     * Copies the borrowed head and field offsets (into the arrays kept from an earlier request when they
     * are large enough): the exchange may now outlive the buffer and the parser. A head released or over
     * already is left gone (nothing reads it any more).
     */
    public void own() {
        if (borrowed && head != null) {
            byte[] h = ownHead;
            if (h == null || h.length < headLength) {
                h = new byte[Math.max(headLength, 256)];
                ownHead = h;
            }
            System.arraycopy(head, base, h, 0, headLength);
            int n = fieldCount * 4;
            int[] f = ownFields;
            if (f == null || f.length < n) {
                f = new int[Math.max(n, 64)];
                ownFields = f;
            }
            System.arraycopy(fields, 0, f, 0, n);
            head = h;
            fields = f;
            base = 0;
            borrowed = false;
        }
    }

    /** Drops a borrowed head once the response is handed over: later request reads fail instead of lying. */
    public void release() {
        if (borrowed) {
            head = null;
        }
    }

    /**
     * The response is written and the request over: its request methods fail from now on instead of
     * answering, until the exchange is reused for the connection's next request.
     */
    public void over() {
        head = null;
    }

    /** The head's bytes, for a lookup from {@link #base()}. */
    final byte[] head() {
        byte[] h = head;
        if (h == null) {
            throw new IllegalStateException(
                    "this request is over: a Context may be used only until its handler returns");
        }
        return h;
    }

    /** Where the request starts in {@link #head()}. */
    final int base() {
        return base;
    }

    /** The head's bytes {@code [from, to)}, relative to {@link #base()}, as a Latin-1 string. */
    final String latin1(int from, int to) {
        return Ascii.latin1(head(), base + from, base + to);
    }

    /** {@return the request's {@code X-Request-Id} when it is a valid one, else a new id} */
    final String incomingOrNewRequestId() {
        return RequestIds.incomingOrNew(head(), base, fields, fieldCount);
    }

    /** The first value of the header {@code name}, or null (a {@link dev.brisk.Context} method). */
    public String header(String name) {
        return RequestHead.value(head(), base, fields, fieldCount, name);
    }

    /** Every value of the header {@code name} (a {@link dev.brisk.Context} method). */
    public List<String> headers(String name) {
        return RequestHead.values(head(), base, fields, fieldCount, name);
    }

    /** The header names, as sent (a {@link dev.brisk.Context} method). */
    public List<String> headerNames() {
        return RequestHead.names(head(), base, fields, fieldCount);
    }
}
