package dev.brisk.internal.web;

import dev.brisk.Context;
import dev.brisk.internal.http.Ascii;
import dev.brisk.internal.http.HeaderRules;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The response half of an {@link Exchange}: status, content type, {@link ResponseHeaders} and one body
 * (ASCII text, bytes, a shared buffer or a stream), with the {@link Context} methods that set them and
 * the getters the connection reads back to write the answer.
 *
 * <p>A superclass rather than an object of its own so that a request still costs one exchange object:
 * every request has a response, so a separate one could never be saved. The split is of code only;
 * {@link Exchange} is the one type the rest of the server sees.
 *
 * <p>Threads: written by the handler's thread, read by the connection after
 * {@link ExchangeOwner#complete} (see {@link Exchange}).
 */
abstract class ResponseState extends RequestHeadState implements Context {
    static final byte[] NO_BODY = new byte[0];
    static final String TEXT = "text/plain; charset=utf-8";
    private static final String OCTETS = "application/octet-stream";

    private int status = 200;
    private String contentType;
    private ResponseHeaders headers; // made on the first header
    private byte[] responseBody = NO_BODY;
    /** An ASCII text body, encoded straight into the output (no byte[] of its own), or null. */
    private String responseText;
    /** A body given as a buffer (shared, never written through), or null: then {@link #responseBody}. */
    private ByteBuffer responseBuffer;
    private InputStream responseStream;
    /** The handler accepted a protocol switch: the response is its {@code 101}. Else null. */
    private ProtocolSwitch protocolSwitch;
    /** Makes the trailer fields once the body is out ({@link #trailers}), or null. */
    private Supplier<Map<String, String>> trailers;

    // ---- engine-facing ----

    /** Name, value, name, value... of the response headers but {@code Content-Type}. */
    public List<String> responseHeaders() {
        return headers == null ? List.of() : headers;
    }

    public String responseContentType() {
        return contentType;
    }

    /** The body's bytes: empty when it is {@link #responseText text}, a buffer, a stream, or none. */
    public byte[] responseBody() {
        return responseBody;
    }

    /** The body when it is ASCII text given to {@link #text}: its chars are its bytes. Else null. */
    public String responseText() {
        return responseText;
    }

    /** The body given as a buffer, or null when it is {@link #responseBody()} (or a stream). */
    public ByteBuffer responseBuffer() {
        return responseBuffer;
    }

    public InputStream responseStream() {
        return responseStream;
    }

    /** What makes the trailer fields ({@link Context#trailers}), or null for none. */
    public Supplier<Map<String, String>> responseTrailers() {
        return trailers;
    }

    /** Forgets the trailers set so far: the body they were made for is replaced (an error page). */
    void dropTrailers() {
        trailers = null;
    }

    /** The protocol switch the response answers with ({@code 101}), or null for a normal response. */
    public ProtocolSwitch protocolSwitch() {
        return status == 101 ? protocolSwitch : null;
    }

    /** The response becomes {@code s}'s {@code 101}: no body, and the connection changes protocol after it. */
    void switchProtocols(ProtocolSwitch s) {
        clearBody();
        contentType = null;
        status = 101;
        protocolSwitch = s;
    }

    /**
     * Adds {@code X-Request-Id} with {@link #requestId()} to the response, unless the handler set that
     * header itself. Called by the engine once the handler is done.
     */
    public void echoRequestId() {
        if (responseHeader(RequestIds.HEADER) == null) {
            addHeader(RequestIds.HEADER, requestId());
        }
    }

    // ---- app-facing ----

    /** The handler starts: headers set from now on are its own (see {@link HandlerStart}). */
    void markHeaders() {
        if (headers != null) {
            headers.mark(); // none yet: a list made later starts with its mark at 0
        }
    }

    /**
     * Clears the response for an error answer: status, body, content type and the headers the handler
     * set. Headers set before the handler ran (by middleware or before filters: a request id, CORS)
     * stay, so they reach error responses too.
     */
    void resetResponse() {
        status = 200;
        protocolSwitch = null;
        trailers = null;
        contentType = null;
        if (headers != null) {
            headers.dropHandlerFields();
        }
        clearBody();
    }

    /**
     * Back to a new response, for an exchange reused for the connection's next request: its header list
     * is kept (emptied). The body was sent (or closed) with the previous response: it is only dropped.
     */
    void clearForReuse() {
        status = 200;
        protocolSwitch = null;
        trailers = null;
        contentType = null;
        if (headers != null) {
            headers.clear();
        }
        responseBody = NO_BODY;
        responseText = null;
        responseBuffer = null;
        responseStream = null;
    }

    private void clearBody() {
        responseBody = NO_BODY;
        responseText = null;
        responseBuffer = null;
        closeQuietly(responseStream);
        responseStream = null;
    }

    /** Replaces the body with its encoded bytes (compression), keeping the content type and headers. */
    void encodedBody(ByteBuffer encoded) {
        responseBody = NO_BODY;
        responseText = null;
        responseBuffer = encoded;
    }

    /**
     * Replaces the body stream with its encoded bytes (compression), closing the stream (which the
     * encoding has read whole). Content type and headers stay.
     */
    void encodedWhole(ByteBuffer encoded) {
        closeQuietly(responseStream);
        responseStream = null;
        encodedBody(encoded);
    }

    /**
     * Replaces the body stream with one that wraps and owns it (an encoding, a hold on stored parts):
     * the old one is not closed here; closing the new one closes it. Content type and headers stay.
     */
    void ownedStream(InputStream wrapper) {
        responseStream = wrapper;
    }

    /** Sets a byte body of {@code type}, replacing any other body. */
    Context body(String type, byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("response body must not be null");
        }
        clearBody();
        contentType = type;
        responseBody = bytes;
        return this;
    }

    // ---- Context: response ----

    @Override
    public Context status(int status) {
        if (status < 200 || status > 599) {
            // 1xx are interim answers the server sends itself; a final status is 200-599
            throw new IllegalArgumentException("status must be 200-599: " + status);
        }
        this.status = status;
        return this;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public Context header(String name, String value) {
        return putHeader(name, value, true);
    }

    @Override
    public Context addHeader(String name, String value) {
        return putHeader(name, value, false);
    }

    @Override
    public Context trailers(Supplier<Map<String, String>> fields) {
        if (fields == null) {
            throw new IllegalArgumentException("trailers must not be null");
        }
        trailers = fields;
        return this;
    }

    @Override
    public Context removeHeader(String name) {
        HeaderRules.checkName(name);
        if (name.equalsIgnoreCase("Content-Type")) {
            contentType = null;
            return this;
        }
        if (ResponseHeaders.isFraming(name)) {
            throw new IllegalArgumentException(name + " is set by the server, not by handlers");
        }
        removeResponseHeader(name);
        return this;
    }

    private Context putHeader(String name, String value, boolean replace) {
        HeaderRules.checkName(name);
        value = HeaderRules.value(value);
        if (name.equalsIgnoreCase("Content-Type")) {
            contentType = value; // one slot: a response has one content type
            return this;
        }
        if (ResponseHeaders.isFraming(name)) {
            throw new IllegalArgumentException(name + " is set by the server, not by handlers");
        }
        ResponseHeaders h = headers;
        if (h == null) {
            h = new ResponseHeaders();
            headers = h;
        }
        if (replace) {
            h.set(name, value);
        } else {
            h.add(name, value);
        }
        return this;
    }

    /** Removes every response field named {@code name} (not the content type). */
    void removeResponseHeader(String name) {
        if (headers != null) {
            headers.remove(name);
        }
    }

    @Override
    public String responseHeader(String name) {
        if (name.equalsIgnoreCase("Content-Type")) {
            return contentType;
        }
        return headers == null ? null : headers.first(name);
    }

    @Override
    public Context contentType(String contentType) {
        this.contentType = contentType == null ? null : HeaderRules.value(contentType);
        return this;
    }

    @Override
    public Context text(String text) {
        if (text != null && Ascii.isAscii(text)) {
            body(TEXT, NO_BODY);
            responseText = text;
            return this;
        }
        return body(TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Context html(String html) {
        return body("text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Context bytes(byte[] bytes) {
        return body(contentType != null ? contentType : OCTETS, bytes);
    }

    @Override
    public Context bytes(ByteBuffer buffer) {
        if (buffer == null) {
            throw new IllegalArgumentException("response body must not be null");
        }
        body(contentType != null ? contentType : OCTETS, NO_BODY);
        responseBuffer = buffer;
        return this;
    }

    @Override
    public Context stream(InputStream in) {
        if (in == null) {
            throw new IllegalArgumentException("stream must not be null");
        }
        clearBody();
        responseStream = in;
        if (contentType == null) {
            contentType = OCTETS;
        }
        return this;
    }

    @Override
    public Context redirect(String location, int status) {
        if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) {
            throw new IllegalArgumentException("not a redirect status: " + status);
        }
        header("Location", RedirectLocation.of(location));
        status(status);
        return body(TEXT, NO_BODY);
    }

    /** Closes a response stream nobody will read, ignoring failures. */
    public static void closeQuietly(java.io.InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (Exception ignored) {
                // nothing to do: the stream is abandoned
            }
        }
    }
}
