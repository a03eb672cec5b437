package dev.brisk.internal.form;

import dev.brisk.FormOptions;
import dev.brisk.HttpException;
import dev.brisk.Part;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.body.BodyWriter;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.web.BodyUnavailableException;
import dev.brisk.internal.web.RequestBody;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Every part of a multipart body, stored for {@code Context.parts()}: a part of at most
 * {@code form-spool-threshold} bytes in memory (reserved from {@code body-memory-budget}), a larger one
 * in a temporary file (under {@code body-spool-disk}), each through a {@link BodyWriter} as a buffered
 * request body is. A small part is read into a scratch array first, so it reserves exactly its size.
 * {@link #release} gives everything back (files deleted); a read that fails gives back at once what it
 * stored. Each part's head (and its share of the list and records) is charged to the same budget
 * through the form's {@link FormMemory}. The handler's thread only.
 */
final class StoredParts {
    private static final int SCRATCH = 8 * 1024;
    private final List<Stored> parts = new ArrayList<>();
    private final List<Part> view = Collections.unmodifiableList(parts);

    private StoredParts() {
    }

    /** Reads every part from {@code reader}; the caller must {@link #release} the result. */
    static StoredParts read(PartReader reader, BodyStore store, FormOptions limits, FormMemory memory) {
        StoredParts all = new StoredParts();
        byte[] scratch = new byte[SCRATCH];
        try {
            PartHead head;
            while ((head = reader.next()) != null) {
                memory.charge(head.heapCost(memory), "the form's part headers");
                all.parts.add(new Stored(head, store(reader, store, limits.spoolThreshold(), scratch)));
            }
        } catch (RuntimeException | Error e) { // an Error too (an OutOfMemoryError): the budget and files come back
            all.release();
            throw e;
        }
        return all;
    }

    private static RequestBody store(PartReader reader, BodyStore store, long threshold, byte[] scratch) {
        int n = 0;
        int r;
        while (n < scratch.length && (r = reader.read(scratch, n, scratch.length - n)) >= 0) {
            n += r;
        }
        BodyWriter w = new BodyWriter(store, threshold);
        try {
            boolean whole = !reader.inContent();
            if (w.begin(whole ? n : -1, Long.MAX_VALUE) != null) {
                throw unavailable(w);
            }
            w.append(scratch, 0, n);
            if (!whole) {
                while ((r = reader.read(scratch, 0, scratch.length)) >= 0) {
                    w.append(scratch, 0, r);
                }
            }
            return w.finish();
        } catch (HttpParseException e) {
            w.abort();
            throw e.status() == 503 ? unavailable(w) : new HttpException(e.status(), e.getMessage());
        } catch (RuntimeException | Error e) {
            w.abort();
            throw e;
        }
    }

    private static HttpException unavailable(BodyWriter w) {
        return new BodyUnavailableException(w.refusal() == dev.brisk.internal.ops.ServerStats.ShedReason.BODY_DISK
                ? "Service Unavailable: no disk free for uploaded parts, retry shortly"
                : "Service Unavailable: no request-body memory free for uploaded parts, retry shortly");
    }

    List<Part> parts() {
        return view;
    }

    /**
     * The handler answered with {@code response}, read after it returns and possibly from a part (itself
     * or through a wrapper): every part whose {@code content()} was opened gets a holder that
     * {@code response}'s close lets go.
     *
     * @return the stream to send in its place; closing it closes {@code response}, then lets go once
     */
    InputStream holdFor(InputStream response) {
        List<RequestBody> held = null;
        for (Stored p : parts) {
            if (p.opened && p.body.retain()) { // a part never read cannot be what the answer reads
                if (held == null) {
                    held = new ArrayList<>(2);
                }
                held.add(p.body);
            }
        }
        return held == null ? response : new HeldBy(response, held);
    }

    /** An answer's stream that holds the parts until it is closed. Closed once by the response's sender. */
    private static final class HeldBy extends FilterInputStream {
        private final List<RequestBody> held;
        private final AtomicBoolean open = new AtomicBoolean(true);

        HeldBy(InputStream in, List<RequestBody> held) {
            super(in);
            this.held = held;
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                if (open.compareAndSet(true, false)) {
                    held.forEach(RequestBody::release);
                }
            }
        }
    }

    /** Gives back the memory and files of every part (an answer's stream may still hold them, see {@link #holdFor}). */
    void release() {
        for (Stored p : parts) {
            p.body.release();
        }
        parts.clear();
    }

    /** A part held in memory or in a file; {@link #opened} once its content was asked for as a stream. */
    private static final class Stored implements Part {
        private final PartHead head;
        private final RequestBody body;
        private volatile boolean opened;

        Stored(PartHead head, RequestBody body) {
            this.head = head;
            this.body = body;
        }

        @Override
        public String name() {
            return head.name();
        }

        @Override
        public String filename() {
            return head.filename();
        }

        @Override
        public String contentType() {
            return head.contentType();
        }

        @Override
        public String header(String name) {
            return head.header(name);
        }

        @Override
        public long size() {
            return body.length();
        }

        @Override
        public InputStream content() {
            opened = true;
            return body.stream();
        }

        @Override
        public byte[] bytes() {
            return body.bytes();
        }

        @Override
        public String text() {
            return head.text(bytes());
        }

        @Override
        public String toString() {
            return "Part[name=" + head.name() + ", filename=" + head.filename() + ", size=" + body.length() + "]";
        }
    }
}
