package dev.brisk.internal.web;

import dev.brisk.Compression;
import dev.brisk.internal.compress.Coding;
import dev.brisk.internal.compress.EncodedFiles;
import dev.brisk.internal.compress.EncodingStream;
import dev.brisk.internal.files.KeyedBytes;
import dev.brisk.internal.files.SizedBody;
import dev.brisk.internal.files.UnsentBody;
import dev.brisk.internal.http.AcceptEncoding;
import dev.brisk.internal.http.FieldLists;
import dev.brisk.internal.transport.LoopThread;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Applies a {@link Compression} left on an exchange by the middleware, once its answer is final (after
 * the chain, the after filters and the error page), on the handler's thread: decides whether the
 * answer qualifies (see {@link Compression} for the rules), adds {@code Vary}, and replaces the body
 * with its encoding; a static file's encoding may come from, and go to, the server's {@link EncodedFiles}.
 * Stateless.
 */
final class ResponseCompression {
    /**
     * The largest sized stream encoded whole on the handler's thread (not on a loop's: there the
     * stream is encoded as it is sent); larger ones are encoded as they are sent, in bounded buffers.
     */
    static final long WHOLE_MAX = dev.brisk.internal.compress.Deflaters.WHOLE; // the size of the encoder's direct buffers

    private ResponseCompression() {
    }

    /** @param files the server's kept encodings of static files */
    static void apply(Exchange ex, EncodedFiles files) {
        if (!(ex.attribute(Compression.ATTRIBUTE) instanceof Compression c) || !c.enabled()) {
            return;
        }
        int status = ex.status();
        if (status == 304) {
            weakenRevalidated(ex, c);
            return;
        }
        if (status < 200 || status == 204 || status == 206) {
            return;
        }
        if (ex.responseHeader("Content-Encoding") != null || ex.responseHeader("Content-Range") != null
                || !c.compresses(ex.responseContentType()) || noTransform(ex)) {
            return;
        }
        InputStream stream = ex.responseStream();
        long size = stream == null ? bodySize(ex) : stream instanceof SizedBody sized ? sized.length() : Long.MAX_VALUE;
        if (size < c.minSize()) {
            return;
        }
        if (!varies(ex)) {
            ex.addHeader("Vary", "Accept-Encoding");
        }
        String name;
        try {
            name = coding(ex, c);
        } catch (IllegalStateException released) {
            return; // the request's head is gone (it cannot be on this path; kept safe)
        }
        if (name == null) {
            return;
        }
        Coding coding = name.equals("gzip") ? Coding.gzip(c.level()) : Coding.deflate(c.level());
        boolean whole = stream != null && size <= WHOLE_MAX && !(Thread.currentThread() instanceof LoopThread);
        if (whole && stream instanceof UnsentBody head) {
            // HEAD: its GET's length is known once encoded; from a kept encoding, at once
            Object content = files.enabled() ? head.contentKey() : null;
            ByteBuffer kept = content != null ? files.peek(content, coding) : null;
            ex.ownedStream(kept != null ? new UnsentBody(kept.remaining()) : UnsentBody.unknownLength());
        } else if (whole) {
            // a sized stream (a file) of modest size is encoded here and now, as bytes: one write of the
            // answer with its Content-Length, instead of a pump's hand-offs between threads per piece
            // (a 100 KiB JSON file: 16 context switches per request, and 15 % more CPU, before)
            try {
                ex.encodedWhole(encodeWhole(stream, size, coding, files));
            } catch (IOException e) {
                // part of the body is read already: it cannot go out as it is
                System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, "reading a body to compress it failed", e);
                // the handler's fields (ETag, Last-Modified, Vary, ...) described the file, not this answer
                ex.resetResponse();
                ErrorBodies.answer(ex, 500, "Internal Server Error");
                return;
            }
        } else if (stream != null) {
            ex.ownedStream(new EncodingStream(stream, coding));
        } else {
            ex.encodedBody(encodeBytes(ex, coding, files));
        }
        ex.header("Content-Encoding", name);
        // ranges are served from the unencoded bytes only: this representation has none to offer
        ex.removeResponseHeader("Accept-Ranges");
        String etag = ex.responseHeader("ETag");
        if (etag != null && !etag.startsWith("W/")) {
            ex.header("ETag", "W/" + etag); // another byte sequence of the same resource
        }
    }

    /** {@code stream}'s encoding: kept from an earlier answer with the same bytes, or made now (and kept). */
    private static ByteBuffer encodeWhole(InputStream stream, long size, Coding coding, EncodedFiles files)
            throws IOException {
        Object content = files.enabled() && stream instanceof SizedBody sized ? sized.contentKey() : null;
        if (content == null) {
            return coding.encode(stream, size);
        }
        ByteBuffer kept = files.get(content, coding);
        return kept != null ? kept : files.put(content, coding, coding.encode(stream, size));
    }

    /** The byte body's encoding: kept from an earlier answer with a static file's same bytes, or made now. */
    private static ByteBuffer encodeBytes(Exchange ex, Coding coding, EncodedFiles files) {
        if (files.enabled() && ex.attribute(KeyedBytes.ATTRIBUTE) instanceof KeyedBytes file
                && file.bytes() == ex.responseBody()) {
            ByteBuffer kept = files.get(file.key(), coding);
            return kept != null ? kept : files.put(file.key(), coding, coding.encode(ByteBuffer.wrap(file.bytes())));
        }
        return coding.encode(body(ex));
    }

    /**
     * A 304 carries the entity tag and the {@code Vary} its 200 would have (RFC 9110 15.4.5). Its 200
     * may have been encoded, which depends on the request's {@code Accept-Encoding}: the 304 says
     * {@code Vary: Accept-Encoding} (a body's type and size are not known here; varying where the 200 did
     * not only narrows what a cache shares). The tag is the encoded one's (weakened) when this client
     * would be sent an encoding and names that form in {@code If-None-Match}, so that a cache does not
     * store the unencoded representation's strong tag with the encoded bytes (and later splice ranges
     * of the other into them); a client that takes no coding gets the file's own tag.
     */
    private static void weakenRevalidated(Exchange ex, Compression c) {
        String etag = ex.responseHeader("ETag");
        if (!varies(ex)) {
            ex.addHeader("Vary", "Accept-Encoding");
        }
        if (etag == null || etag.startsWith("W/")) {
            return;
        }
        String inm;
        boolean encoded;
        try {
            inm = FieldLists.joined(ex.headers("If-None-Match"));
            encoded = coding(ex, c) != null;
        } catch (IllegalStateException released) {
            return;
        }
        if (encoded && inm != null && inm.contains("W/" + etag)) {
            ex.header("ETag", "W/" + etag);
        }
    }

    /**
     * The coding this request's {@code Accept-Encoding} gets of those {@code c} offers, or null for none.
     *
     * @throws IllegalStateException when the request's head is gone
     */
    private static String coding(Exchange ex, Compression c) {
        String accept = FieldLists.joined(ex.headers("Accept-Encoding"));
        return c.gzip() && c.deflate() ? AcceptEncoding.choose(accept, "gzip", "deflate")
                : AcceptEncoding.choose(accept, c.gzip() ? "gzip" : "deflate");
    }

    private static long bodySize(Exchange ex) {
        ByteBuffer b = ex.responseBuffer();
        if (b != null) {
            return b.remaining();
        }
        String t = ex.responseText();
        return t != null ? t.length() : ex.responseBody().length;
    }

    private static ByteBuffer body(Exchange ex) {
        ByteBuffer b = ex.responseBuffer();
        if (b != null) {
            return b;
        }
        String t = ex.responseText();
        return ByteBuffer.wrap(t != null ? t.getBytes(StandardCharsets.US_ASCII) : ex.responseBody());
    }

    /** Whether a {@code Vary} field already names {@code Accept-Encoding} or {@code *}. */
    private static boolean varies(Exchange ex) {
        List<String> h = ex.responseHeaders();
        for (int i = 0; i < h.size(); i += 2) {
            if (h.get(i).equalsIgnoreCase("Vary")) {
                String v = h.get(i + 1).toLowerCase(Locale.ROOT);
                if (v.contains("accept-encoding") || v.trim().equals("*")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean noTransform(Exchange ex) {
        List<String> h = ex.responseHeaders();
        for (int i = 0; i < h.size(); i += 2) {
            if (h.get(i).equalsIgnoreCase("Cache-Control") && h.get(i + 1).toLowerCase(Locale.ROOT).contains("no-transform")) {
                return true;
            }
        }
        return false;
    }
}
