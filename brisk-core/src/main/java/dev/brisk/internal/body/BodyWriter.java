package dev.brisk.internal.body;

import dev.brisk.internal.http.BodySink;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.ops.ServerStats.ShedReason;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;

/**
 * Collects one buffered request body where its {@link BodyStore} says: in memory ({@link HeldBody})
 * while it is at most {@code body-spool-threshold}, else in a temporary file ({@link SpooledBody}). A
 * declared length goes straight to its place and reserves all of its memory or disk up front, so a
 * body that does not fit is refused before any of it is read; a chunked body starts in memory,
 * reserves as it grows, and moves to a file once it passes the threshold.
 *
 * <pre>
 *   idle ──begin──▶ HELD ──past the threshold (chunked)──▶ SPOOLED ──finish──▶ idle (body handed over)
 *     │               └──────────────────────finish───────────────────────────▶ idle
 *     └──begin, declared past the threshold──▶ SPOOLED
 *   HELD / SPOOLED ──a budget spent (503), over the limit (413), I/O error (500), abort──▶ idle (all given back)
 * </pre>
 *
 * <p>One per connection, one body at a time; the connection's loop thread only.
 */
public final class BodyWriter implements BodySink {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private final BodyStore store;
    private final long spoolThreshold;
    private long limit;
    private long size;
    private HeldBody held;
    private SpooledBody spooled;
    private ShedReason refusal;

    public BodyWriter(BodyStore store) {
        this(store, store.spoolThreshold());
    }

    /**
     * A writer that spools past its own threshold rather than the store's {@code body-spool-threshold}
     * (multipart parts: {@code form-spool-threshold}); memory and disk still come from the store.
     */
    public BodyWriter(BodyStore store, long spoolThreshold) {
        this.store = store;
        this.spoolThreshold = spoolThreshold;
    }

    /**
     * Starts a body.
     *
     * @param declared its declared length, or -1 when chunked
     * @param limit the most bytes it may have (413 beyond)
     * @return null when it may be read, else the budget that refuses it (nothing is held then)
     * @throws HttpParseException 500 when its file cannot be created
     */
    public ShedReason begin(long declared, long limit) throws HttpParseException {
        abort();
        this.limit = limit;
        size = 0;
        refusal = null;
        if (declared >= 0 && store.spools(declared, spoolThreshold)) {
            if (!store.disk().tryReserve(declared)) {
                return refusal = ShedReason.BODY_DISK;
            }
            try {
                spooled = SpooledBody.create(store, declared);
            } catch (IOException e) {
                store.disk().release(declared);
                throw ioFailure(e);
            }
        } else if (declared >= 0) {
            long cost = store.heldCost(declared);
            if (!store.memory().tryReserve(cost)) {
                return refusal = ShedReason.BODY_MEMORY;
            }
            held = new HeldBody(store, declared, cost);
        } else {
            held = new HeldBody(store, -1, 0);
        }
        return null;
    }

    @Override
    public void ensureRoom(long more) throws HttpParseException {
        if (more > limit - size) {
            throw new HttpParseException(413, "Request body is larger than " + limit + " bytes");
        }
    }

    @Override
    public void append(byte[] b, int off, int len) throws HttpParseException {
        ensureRoom(len);
        try {
            if (held != null && store.spools(held.size() + len, spoolThreshold)) {
                spill();
            }
            if (spooled != null) {
                if (!spooled.append(b, off, len)) {
                    throw refuse(ShedReason.BODY_DISK);
                }
            } else if (!held.append(b, off, len)) {
                throw refuse(ShedReason.BODY_MEMORY);
            }
        } catch (IOException e) {
            throw ioFailure(e);
        }
        size += len;
    }

    /** A chunked body passed the threshold: what memory holds goes to a new file, and the memory back. */
    private void spill() throws IOException, HttpParseException {
        spooled = SpooledBody.create(store, 0);
        boolean copied = held.copyTo(spooled);
        held.release();
        held = null;
        if (!copied) {
            throw refuse(ShedReason.BODY_DISK);
        }
    }

    private HttpParseException refuse(ShedReason reason) {
        refusal = reason;
        return new HttpParseException(503, reason == ShedReason.BODY_DISK
                ? "Service Unavailable: no disk free for request bodies, retry shortly"
                : "Service Unavailable: no request-body memory free, retry shortly");
    }

    private static HttpParseException ioFailure(IOException e) {
        LOG.log(System.Logger.Level.WARNING, "spooling a request body failed", e);
        return new HttpParseException(500, "Request body could not be stored");
    }

    /** Why the last body was refused with 503 (a budget), or null. */
    public ShedReason refusal() {
        return refusal;
    }

    /**
     * The whole body, handed over to the caller (it holds it once: release it when done).
     *
     * @throws HttpParseException 500 when its file cannot be closed
     */
    public RequestBody finish() throws HttpParseException {
        RequestBody b;
        if (spooled != null) {
            try {
                spooled.finish();
            } catch (IOException e) {
                abort();
                throw ioFailure(e);
            }
            b = spooled;
        } else {
            b = held;
        }
        held = null;
        spooled = null;
        return b;
    }

    /** Drops the body being collected, giving back what it held (its file deleted). */
    public void abort() {
        if (held != null) {
            held.release();
            held = null;
        }
        if (spooled != null) {
            spooled.release();
            spooled = null;
        }
    }
}
