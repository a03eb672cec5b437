package dev.brisk.internal.form;

import dev.brisk.Context;
import dev.brisk.FormOptions;
import dev.brisk.HttpException;
import dev.brisk.Multipart;
import dev.brisk.Part;
import dev.brisk.internal.body.BodyStore;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The form of one request, read on first use and kept: the fields of a urlencoded body, the parts of
 * a multipart one (streamed through {@link #multipart} or stored through {@link #parts}), or the
 * failure that reading met, which asking again repeats (the body is read once). A body of another
 * type, or none, is a 415 naming the types a form may have.
 *
 * <pre>
 *   NEW ──fields, urlencoded──▶ FIELDS
 *    ├──parts / fields, multipart──▶ STORED ──release (the handler returned)──▶ RELEASED (files deleted,
 *    │                                   or once an answer's stream that holds them is closed)
 *    ├──multipart──▶ STREAMED (parts() then refused: the body is being read part by part)
 *    └──a read fails──▶ FAILED (what was stored given back; the same exception again)
 * </pre>
 *
 * <p>What the form holds beyond its body's bytes (decoded fields, stored parts' heads) is charged to
 * {@code body-memory-budget} through {@link FormMemory}, a 503 when it does not fit, and given back by
 * {@link #release}.
 *
 * <p>Owned by its exchange; the handler's thread only.
 */
public final class RequestForm {
    private static final String URLENCODED = "application/x-www-form-urlencoded";
    private static final String MULTIPART = "multipart/form-data";

    private final FormOptions limits;
    private final BodyStore store;
    private final FormMemory memory;
    private Map<String, List<String>> fields;
    private StoredParts stored;
    private Multipart streamed;
    private RuntimeException failure;

    /** @param store where stored parts live; null when the server has none (a context outside a server) */
    public RequestForm(FormOptions limits, BodyStore store) {
        this.limits = limits;
        this.store = store;
        this.memory = new FormMemory(store);
    }

    /** The fields: a urlencoded body's pairs, or a multipart body's parts without a file name, as text. */
    public Map<String, List<String>> fields(Context ctx) {
        if (fields != null) {
            return fields;
        }
        rethrow();
        String ct = ctx.contentType();
        String type = mediaType(ct);
        if (URLENCODED.equals(type)) {
            try {
                fields = UrlEncodedForm.parse(ctx.body(), Context.charsetOf(ct, StandardCharsets.UTF_8),
                        limits.maxParts(), memory);
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        } else if (MULTIPART.equals(type)) {
            Map<String, List<String>> m = new LinkedHashMap<>();
            for (Part p : parts(ctx)) {
                if (p.filename() == null) {
                    String text = p.text();
                    try {
                        memory.chargeField(text, "the form's fields"); // the stored bytes are charged, not their text
                    } catch (RuntimeException e) {
                        failure = e; // asked again, the same answer: the texts charged so far are not charged twice
                        throw e;
                    }
                    m.computeIfAbsent(p.name(), k -> new java.util.ArrayList<>(1)).add(text);
                }
            }
            m.replaceAll((k, v) -> Collections.unmodifiableList(v));
            fields = Collections.unmodifiableMap(m);
        } else {
            throw notAForm(ct, URLENCODED + " or " + MULTIPART);
        }
        return fields;
    }

    /** The parts one at a time, read as they arrive; over the stored ones when {@link #parts} was called first. */
    public Multipart multipart(Context ctx) {
        if (streamed != null) {
            return streamed;
        }
        rethrow();
        if (stored != null) {
            streamed = over(stored.parts());
            return streamed;
        }
        String boundary = boundary(ctx.contentType());
        streamed = new StreamedParts(new PartReader(ctx.bodyAsStream(), boundary, limits), limits.spoolThreshold());
        return streamed;
    }

    /** Every part, stored; released by {@link #release}. */
    public List<Part> parts(Context ctx) {
        if (stored != null) {
            return stored.parts();
        }
        rethrow();
        if (streamed != null) {
            throw new IllegalStateException("the multipart body is being read part by part (multipart()): "
                    + "parts() cannot read it again");
        }
        String boundary = boundary(ctx.contentType());
        if (store == null) {
            throw new IllegalStateException("parts() needs a running server's body store");
        }
        try {
            stored = StoredParts.read(new PartReader(ctx.bodyAsStream(), boundary, limits), store, limits, memory);
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        }
        return stored.parts();
    }

    /**
     * The handler answered with {@code response}, a stream read after it returns: stored parts stay
     * until it is closed (it may read from one of them). On the handler's thread, before {@link #release}.
     *
     * @return the stream to send instead (the same when no part is stored)
     */
    public java.io.InputStream holdFor(java.io.InputStream response) {
        return stored == null ? response : stored.holdFor(response);
    }

    /** The handler is done: stored parts give back their memory and files, the fields theirs. Once. */
    public void release() {
        if (stored != null) {
            stored.release();
        }
        memory.release();
    }

    private void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }

    /** The boundary of a {@code multipart/form-data} type: 415 for another type, 400 when it has none fit. */
    private static String boundary(String ct) {
        if (!MULTIPART.equals(mediaType(ct))) {
            throw notAForm(ct, MULTIPART);
        }
        Map<String, String> params = new LinkedHashMap<>();
        Disposition.parse(ct, params, "multipart/form-data Content-Type");
        String b = params.get("boundary");
        if (b == null) {
            throw new HttpException.BadRequest("multipart/form-data Content-Type has no boundary parameter");
        }
        if (b.isEmpty() || b.length() > 70 || b.endsWith(" ")) {
            throw new HttpException.BadRequest("multipart/form-data boundary must be 1 to 70 characters, "
                    + "not ending in a space");
        }
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "'()+_,-./:=? ".indexOf(c) >= 0)) {
                throw new HttpException.BadRequest("multipart/form-data boundary holds a character RFC 2046 "
                        + "does not allow: '" + c + "'");
            }
        }
        return b;
    }

    /** The type and subtype of {@code ct}, lower-cased, or null. */
    private static String mediaType(String ct) {
        if (ct == null) {
            return null;
        }
        int semi = ct.indexOf(';');
        return (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(java.util.Locale.ROOT);
    }

    private static HttpException notAForm(String ct, String wanted) {
        return new HttpException.UnsupportedMediaType("Request body must be " + wanted + ", not "
                + (ct == null ? "a body without Content-Type" : ct.isBlank() ? "an empty Content-Type" : ct));
    }

    /** Stored parts as a {@link Multipart}: what {@link #multipart} gives once {@link #parts} has read them. */
    private static Multipart over(List<Part> parts) {
        Iterator<Part> it = parts.iterator();
        return new Multipart() {
            @Override
            public Part next() {
                return it.hasNext() ? it.next() : null;
            }

            @Override
            public Iterator<Part> iterator() {
                return it;
            }
        };
    }
}
