package dev.brisk;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;

/**
 * One request and the response being built for it. A context belongs to one request: use it only on
 * the thread that runs the handler (or hand it on with care), never after the handler returned. On an
 * HTTP/1.1 connection, once its response is written, a context kept past that throws
 * {@link IllegalStateException} from every method, reads and writes alike, also after the connection
 * has gone on to its next request (which reuses the request object underneath, so that a request
 * allocates little: each request's handlers get a handle of their own on it, which never reaches the
 * next one). An HTTP/2 stream's request object is its own and never reused: a context kept past its
 * answer reaches no other request, and what is set on it then is not sent. Copy what must outlive the
 * handler. (A request without a body answered on the thread that read it, an event-loop handler or
 * the blocking engine, reads its headers straight from the connection's buffer, with no copy.)
 *
 * <p>Response methods set the body and content type; the response is written once the handler chain
 * returns. Setting a body twice replaces the first.
 *
 * <p>When a before filter or the handler throws, the exception is turned into the error answer (by the
 * app's exception handlers, else the exception's status) at the route's core, before control returns to
 * the middleware: see {@link Middleware} for which headers an error answer keeps. The framework's own
 * error answers (400, 404, 405, 415, 500...) are JSON, {@code {"status":404,"error":"Not Found",
 * "message":"..."}}, when the request's {@code Accept} prefers {@code application/json}, else plain text.
 */
public interface Context {

    // ---- request ----------------------------------------------------------------------------

    /** {@return the request method, e.g. {@code GET}} */
    String method();

    /** {@return the decoded request path, without the query string} */
    String path();

    /** {@return the raw query string without the leading {@code ?}, or an empty string} */
    String queryString();

    /**
     * {@return a decoded path parameter, or null when the route has none of that name}
     *
     * @param name {@code name} of {@code {name}} in the route template, or {@code *} for the wildcard
     */
    String pathParam(String name);

    /** {@return all path parameters of the matched route, in route order} */
    Map<String, String> pathParams();

    /**
     * {@return the first value of a decoded query parameter, or null when absent}
     *
     * @param name the parameter's decoded name
     */
    String queryParam(String name);

    /**
     * {@return the first value of a decoded query parameter, or {@code defaultValue} when absent}
     *
     * @param name the parameter's decoded name
     * @param defaultValue returned when the parameter is absent; may be null
     */
    default String queryParam(String name, String defaultValue) {
        String v = queryParam(name);
        return v == null ? defaultValue : v;
    }

    /**
     * {@return all values of a decoded query parameter, in order; empty (never null) when absent}
     *
     * @param name the parameter's decoded name
     */
    List<String> queryParams(String name);

    /** {@return all decoded query parameters} */
    Map<String, List<String>> queryParamMap();

    /**
     * {@return the first value of a request header, or null when absent}
     *
     * @param name the header's name, case-insensitive
     */
    String header(String name);

    /**
     * {@return all values of a request header, in order; empty (never null) when absent}
     *
     * @param name the header's name, case-insensitive
     */
    List<String> headers(String name);

    /** {@return the names of the request headers, as sent, in order, without repeats (case-insensitive)} */
    List<String> headerNames();

    /**
     * The value of a request cookie. Cookies are parsed strictly (RFC 6265), once per request, from
     * every {@code Cookie} header: a malformed pair is skipped, surrounding double quotes are removed,
     * the first of a repeated name wins (see {@link #cookies()}).
     *
     * @param name the cookie's name, case-sensitive
     * @return the value, or null when absent
     * @throws HttpException 400 when the request sends more than 200 well-formed cookies
     */
    String cookie(String name);

    /**
     * All request cookies, name to value, in the order sent. Pairs are separated by {@code ;} (spaces
     * or tabs around a pair are allowed); a pair whose name is not a token or whose value is not
     * cookie-octets (optionally quoted) is skipped, the others kept: {@code a=1, b=2}, {@code a = 1}
     * and a value with a space or a non-ASCII byte yield nothing. The obsolete RFC 2965 attributes
     * ({@code $Version}, {@code $Path}, {@code $Domain}, {@code $Port}) are not cookies and are skipped.
     *
     * @return the cookies, unmodifiable; empty when there are none
     * @throws HttpException 400 when the request sends more than 200 well-formed cookies
     */
    Map<String, String> cookies();

    // ---- typed parameters (see Param for the types, checks and messages) ----------------------

    /**
     * A path parameter converted to {@code type}: {@code long id = ctx.pathParam("id", Long.class)}.
     *
     * @param name the parameter's name in the route ({@code {name}})
     * @param type the type to convert to (see {@link Param})
     * @param <T> the converted type
     * @return the converted value, never null
     * @throws HttpException 400 naming the parameter when it is absent or does not convert
     * @throws IllegalArgumentException when {@code type} is not supported
     */
    default <T> T pathParam(String name, Class<T> type) {
        String raw = pathParam(name);
        if (raw == null) {
            throw dev.brisk.internal.web.ParamConversions.missing("path parameter", name);
        }
        return dev.brisk.internal.web.ParamConversions.convert("path parameter", name, raw, type);
    }

    /**
     * The first value of a query parameter converted to {@code type}, to check and then require or
     * default: {@code ctx.queryParam("limit", Integer.class).check(n -> n <= 100, "must be at most
     * 100").orElse(20)}.
     *
     * @param name the parameter's name
     * @param type the type to convert to (see {@link Param})
     * @param <T> the converted type
     * @return the parameter, absent when the query does not carry it
     * @throws HttpException 400 naming the parameter when it is present and does not convert
     * @throws IllegalArgumentException when {@code type} is not supported
     */
    default <T> Param<T> queryParam(String name, Class<T> type) {
        return Param.of("query parameter", name, queryParam(name), type);
    }

    /**
     * The first value of a query parameter converted to {@code type}, or {@code defaultValue} when
     * absent: {@code int limit = ctx.queryParam("limit", Integer.class, 20)}.
     *
     * @param name the parameter's name
     * @param type the type to convert to (see {@link Param})
     * @param defaultValue the value when absent (may be null)
     * @param <T> the converted type
     * @return the converted value, or {@code defaultValue}
     * @throws HttpException 400 naming the parameter when it is present and does not convert
     * @throws IllegalArgumentException when {@code type} is not supported
     */
    default <T> T queryParam(String name, Class<T> type, T defaultValue) {
        String raw = queryParam(name);
        if (raw == null) {
            dev.brisk.internal.web.ParamConversions.requireSupported(type);
            return defaultValue;
        }
        return dev.brisk.internal.web.ParamConversions.convert("query parameter", name, raw, type);
    }

    /**
     * The first value of a request header converted to {@code type}, to check and then require or
     * default: {@code ctx.headerParam("X-Page-Size", Integer.class).orElse(50)}.
     *
     * @param name the header's name (case-insensitive)
     * @param type the type to convert to (see {@link Param})
     * @param <T> the converted type
     * @return the parameter, absent when the request has no such header
     * @throws HttpException 400 naming the header when it is present and does not convert
     * @throws IllegalArgumentException when {@code type} is not supported
     */
    default <T> Param<T> headerParam(String name, Class<T> type) {
        return Param.of("header", name, header(name), type);
    }

    /** {@return the request's {@code Content-Type}, or null} */
    default String contentType() {
        return header("Content-Type");
    }

    /**
     * The request body. For a request sent with {@code Expect: 100-continue}, the first call sends
     * {@code 100 Continue} and waits for the body; if no handler asks for the body, the final response
     * is sent at once and the connection is closed after it.
     *
     * <p>The body was read before the handler ran, within the route's limit ({@code max-body-size}, 1
     * MiB unless {@link Route#maxBodySize} says otherwise) and the server's request-body memory budget
     * ({@code body-memory-budget}); one larger than {@code body-spool-threshold} waits in a temporary
     * file, and this call reads it into memory (reserving it against the budget): prefer
     * {@link #bodyAsStream()} for large bodies.
     *
     * @return the whole body; empty (never null) when the request has none
     * @throws HttpException 413 when the body is over the limit, 400 when it is malformed, 503 (with
     *     {@code Retry-After}) when the memory budget cannot take it now
     * @throws IllegalStateException on a route that streams its body ({@link Route#streamBody})
     */
    byte[] body();

    /** {@return the body decoded with the charset of the {@code Content-Type}, else UTF-8} */
    String bodyAsString();

    /**
     * The body as a stream. On a route that {@link Route#streamBody() streams} its body, it is read from
     * the connection as the handler reads it, with backpressure to the client, and may be read once:
     * its reads block (so such a handler never runs on an event loop) and throw, unchecked,
     * {@link HttpException} (413 past the route's limit, 400 bad chunk framing, 408 the client stopped
     * sending) or {@link ClientDisconnectedException}; let them propagate. What the handler has not read
     * when it returns is not read any more, and the connection closes after the response. On any other
     * route it reads the body already received (from memory, or from its temporary file), without
     * copying it whole. Read it before the exchange ends (its response is sent; a response stream may
     * read it while it is sent): a stream over a body held off the heap (a declared one of 8 KiB up to
     * half a G1 region, a chunked one past 8 KiB) then fails with an {@code IOException}, since that
     * memory goes to other requests.
     *
     * @return the body as a stream; empty when the request has none
     */
    InputStream bodyAsStream();

    /**
     * The body read as JSON through the app's {@link JsonCodec}. A request without {@code Content-Type}
     * is read as JSON; one with a type other than {@code application/json} or a {@code +json} type
     * (such as {@code application/merge-patch+json}; parameters allowed) is refused before its body is read.
     *
     * @param <T> the type to read
     * @param type the class to read the body as
     * @return the value the codec read
     * @throws HttpException 400 when the body is not valid JSON for {@code type} (the message says where
     *     and why when the codec throws a {@link JsonBindingException}), 415 when the
     *     {@code Content-Type} is not JSON
     * @throws IllegalStateException when the app has no codec ({@code cfg.json(...)}): a {@code 500}
     */
    <T> T bodyAsJson(Class<T> type);

    /**
     * The body read as JSON into a generic type, such as {@code List<Todo>}: pass a
     * {@link java.lang.reflect.ParameterizedType} (for instance a field's or method's generic type, or
     * Jackson's {@code TypeReference.getType()}). Otherwise as {@link #bodyAsJson(Class)}. The default
     * reads plain classes only; the framework's own context reads any type its codec can.
     *
     * @param <T> the type read
     * @param type the type to bind to
     * @return the value read
     * @throws HttpException 400 when the body is not valid JSON for {@code type}, 415 when the
     *     {@code Content-Type} is not JSON
     * @throws UnsupportedOperationException when this context or the codec cannot read generic types
     */
    @SuppressWarnings("unchecked")
    default <T> T bodyAsJson(java.lang.reflect.Type type) {
        if (type instanceof Class<?> c) {
            return (T) bodyAsJson(c);
        }
        throw new UnsupportedOperationException(getClass().getName() + " reads no generic JSON types");
    }

    // ---- forms (see FormOptions for the limits) -----------------------------------------------

    /**
     * The first value of a form field. The form is the request body, read once on first use and kept:
     * an {@code application/x-www-form-urlencoded} body (within the route's body limit; its bytes are
     * percent-decoded strictly, {@code +} is a space, and decoded in the {@code Content-Type}'s charset,
     * else UTF-8), or the parts without a file name of a {@code multipart/form-data} body, as text (read
     * as {@link #parts()} reads them). Any other {@code Content-Type}, or none, is refused with 415.
     *
     * @param name the field's decoded name
     * @return the value, or null when the form has no such field
     * @throws HttpException 415 when the body is not a form; 400 when it is malformed (a {@code %} not
     *     followed by two hex digits, bytes not valid in the charset, a broken multipart body); 413 past
     *     the route's body limit or the {@code form-*} limits; 503 when the body budgets cannot take it
     * @throws IllegalStateException for a urlencoded body on a route that {@link Route#streamBody()
     *     streams} its body, as {@link #body()} (a multipart body's fields are read there as well); for a
     *     multipart body whose parts {@link #multipart()} began reading one by one (they cannot be read
     *     again: take the fields from those parts, or call this first)
     */
    String formParam(String name);

    /**
     * The first value of a form field, or {@code defaultValue} when absent; see {@link #formParam(String)}.
     *
     * @param name the field's decoded name
     * @param defaultValue returned when the field is absent; may be null
     * @return the value, or {@code defaultValue}
     * @throws HttpException as {@link #formParam(String)}
     */
    default String formParam(String name, String defaultValue) {
        String v = formParam(name);
        return v == null ? defaultValue : v;
    }

    /**
     * All values of a form field, in order; see {@link #formParam(String)}.
     *
     * @param name the field's decoded name
     * @return the values; empty (never null) when absent
     * @throws HttpException as {@link #formParam(String)}
     */
    List<String> formParams(String name);

    /**
     * All form fields, name to values, in the order first sent; see {@link #formParam(String)}.
     *
     * @return the fields, unmodifiable
     * @throws HttpException as {@link #formParam(String)}
     */
    Map<String, List<String>> formParamMap();

    /**
     * The parts of a {@code multipart/form-data} body, read one at a time as they arrive, none held
     * whole: for uploads up to {@code form-max-part-size} each and {@code form-max-size} in all (options,
     * which bound a form whatever the route's body limit). Best on a route that {@link Route#streamBody() streams} its body
     * (the parts come off the connection, with backpressure); elsewhere they are read from the body
     * already received. The same reader on every call; once {@link #parts()} has stored the parts, a
     * reader over those.
     *
     * @return the parts' reader
     * @throws HttpException 415 when the body is not {@code multipart/form-data}, 400 when its
     *     {@code boundary} is missing or invalid (the reader throws 400 and 413 as it reads)
     */
    Multipart multipart();

    /**
     * Every part of a {@code multipart/form-data} body, read on the first call and kept: a part of at most
     * {@code form-spool-threshold} bytes (64 KiB) in memory, drawn from {@code body-memory-budget}, a
     * larger one in a temporary file under {@code body-spool-dir} and {@code body-spool-disk}. The memory
     * and files are given back when the handler returns (also when it throws); a read that fails gives
     * them back at once.
     *
     * @return the parts in the order sent, unmodifiable
     * @throws HttpException 415 when the body is not {@code multipart/form-data}; 400 when it is
     *     malformed (boundary missing or invalid, no closing delimiter, bad part headers, a part without
     *     a name); 413 past the route's body limit or the {@code form-*} limits; 503 (with
     *     {@code Retry-After}) when the memory or disk budget cannot take a part
     * @throws IllegalStateException when {@link #multipart()} is already reading the body part by part
     */
    List<Part> parts();

    /**
     * The first stored part of a name; see {@link #parts()}.
     *
     * @param name the part's field name
     * @return the part, or null when there is none of that name
     * @throws HttpException as {@link #parts()}
     */
    default Part part(String name) {
        for (Part p : parts()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /** {@return the remote address as {@code host:port}} */
    String remoteAddress();

    /**
     * What the TLS handshake of this request's connection settled: the TLS version, the cipher suite,
     * the server name the client asked for (SNI), the ALPN protocol and the client's certificates.
     *
     * @return the connection's TLS, or null when it is plain HTTP
     */
    TlsInfo tls();

    /**
     * The matched route's template (e.g. {@code /users/{id}}), for logs and metrics where the raw path
     * would be unbounded.
     *
     * @return the template, or null when no route matched (404, 405)
     */
    String routeTemplate();

    /**
     * This request's id, the same on every call: the incoming {@code X-Request-Id} when it is valid
     * (1 to 128 characters, each a letter, a digit or one of {@code - _ . : / + = @}), else one
     * generated for this request (at most once, when first needed). With the option {@code request-ids}
     * on, the response carries it back as {@code X-Request-Id} unless the handler set that header; the
     * access log shows it either way. An invalid incoming value is never returned.
     *
     * @return the id; never null
     */
    String requestId();

    /**
     * {@return a value stored on this request by middleware, or null}
     *
     * @param name the name it was stored under
     */
    Object attribute(String name);

    /**
     * Stores a value on this request for later middleware or the handler.
     *
     * @param name the name to store it under; replaces an earlier value
     * @param value the value; may be null
     * @return this context
     */
    Context attribute(String name, Object value);

    // ---- response ---------------------------------------------------------------------------

    /**
     * Sets the final response status (200-599, default 200).
     *
     * @param status the status code
     * @return this context
     * @throws IllegalArgumentException for anything else: interim 1xx answers are the server's
     */
    Context status(int status);

    /** {@return the response status set so far} */
    int status();

    /**
     * Sets a response header, replacing earlier values.
     *
     * @param name the header's name
     * @param value the header's value
     * @return this context
     * @throws IllegalArgumentException when the name is not a token or the value contains CR, LF or
     *     another control character: such a header is never written
     */
    Context header(String name, String value);

    /**
     * Adds a response header value, keeping earlier ones (e.g. {@code Set-Cookie}).
     *
     * @param name the header's name
     * @param value the added value
     * @return this context
     * @throws IllegalArgumentException as {@link #header(String, String)}
     */
    Context addHeader(String name, String value);

    /**
     * Removes every value of a response header set so far (for example an {@code ETag} that
     * {@link #notModified} put on an answer that turned out to be an error). Removing a header that is
     * not set does nothing. {@code Content-Type} is removed too; the framing fields, which handlers never
     * set, are refused as by {@link #header(String, String)}.
     *
     * @param name the header's name, case-insensitive
     * @return this context
     * @throws IllegalArgumentException when the name is not a token or names a framing field
     */
    Context removeHeader(String name);

    /**
     * Sets a response cookie: adds one {@code Set-Cookie} header with {@link Cookie#headerValue()},
     * keeping earlier ones (two cookies of the same name are both sent; browsers keep the last).
     * Delete a cookie with {@code ctx.cookie(Cookie.expire(name).path(...).build())}.
     *
     * @param cookie the cookie, validated when it was built
     * @return this context
     * @throws IllegalArgumentException when {@code cookie} is null
     */
    default Context cookie(Cookie cookie) {
        if (cookie == null) {
            throw new IllegalArgumentException("cookie must not be null");
        }
        return addHeader("Set-Cookie", cookie.headerValue());
    }

    /**
     * Trailer fields, sent after the body: gRPC's {@code grpc-status}, a checksum or a
     * {@code Server-Timing} measured over the whole body. {@code fields} is called once, after the body's
     * last byte is produced (a stream's end included), on the connection's I/O thread, so it must not
     * block; the request is over by then, so it must not use this context (capture what it needs).
     * Setting it again replaces it. Over HTTP/2 every answer that may have content carries them
     * (a {@code HEADERS} frame that ends the stream, after the body's {@code DATA}, the answer then without
     * {@code content-length}); over HTTP/1.1 the body is then sent chunked, a sized one too, with them
     * after the last chunk. An HTTP/1.0 request, a
     * {@code HEAD} request and a status without content (204, 304) get none, nor does an error answer
     * that replaces the handler's. Announce them with {@code header("Trailer", names)} where clients need
     * to know in advance (RFC 9110 6.6.2).
     *
     * <p>A field that may not be a trailer (the framing fields, {@code Content-Type},
     * {@code Content-Encoding}, {@code Content-Range}, {@code Trailer}), a name that is not a token, a
     * value with a control character, or an exception from {@code fields} ends the answer as a failing
     * body stream does: logged, and the client sees an incomplete answer (HTTP/1.1: the connection closes
     * without the last chunk; HTTP/2: the stream is reset).
     *
     * @param fields makes the trailer fields, names to values; an empty map sends none
     * @return this context
     * @throws IllegalArgumentException when {@code fields} is null
     */
    Context trailers(java.util.function.Supplier<java.util.Map<String, String>> fields);

    /**
     * {@return the first value of a response header set so far, or null}
     *
     * @param name the header's name, case-insensitive
     */
    String responseHeader(String name);

    /**
     * Sets the response {@code Content-Type}.
     *
     * @param contentType the media type; null removes it
     * @return this context
     */
    Context contentType(String contentType);

    /**
     * A {@code text/plain; charset=utf-8} body.
     *
     * @param text the body, encoded as UTF-8
     * @return this context
     */
    Context text(String text);

    /**
     * A {@code text/html; charset=utf-8} body.
     *
     * @param html the body, encoded as UTF-8
     * @return this context
     */
    Context html(String html);

    /**
     * A JSON body written through the app's {@link JsonCodec}, with {@code Content-Type: application/json}.
     *
     * @param value the value to write; encoded at once, on the calling thread
     * @return this context
     */
    Context json(Object value);

    /**
     * A raw body; the content type defaults to {@code application/octet-stream}.
     *
     * @param body the bytes, not copied: do not change them after the call
     * @return this context
     */
    Context bytes(byte[] body);

    /**
     * A raw body: the bytes between {@code body}'s position and limit. The buffer is neither consumed
     * nor copied; the server writes from a view of its own, so one buffer (best read-only) can answer
     * many requests at once, and must stay unchanged until they are written. A direct buffer reaches
     * the socket without the copy the JDK makes of heap bytes: worth it for a large body rendered once
     * and sent often. The content type defaults to {@code application/octet-stream}.
     *
     * @param body the bytes to send
     * @return this context
     */
    Context bytes(ByteBuffer body);

    /**
     * A body streamed from {@code in} with chunked transfer coding, closed once written. The stream is
     * read on a virtual thread, one chunk in flight at a time.
     *
     * @param in the body; the server reads and closes it
     * @return this context
     */
    Context stream(InputStream in);

    /**
     * Answers with a Server-Sent Events stream ({@code text/event-stream}, not cached, sent as it is
     * written): once the response head is out, {@code handler} runs on a virtual thread of its own with
     * the stream's {@link SseSink}. The stream stays open after {@code handler} returns, so the sink may
     * be kept and used from elsewhere (a broadcast), until {@link SseSink#close} or the client leaves;
     * {@link SseSink#onClose} tells which ended it. The sink's {@link SseSink#lastEventId} is this
     * request's {@code Last-Event-ID}. Read what {@code handler} needs from this context before the
     * call: it runs once the response head is out, when the request may be over (its methods may then
     * throw {@link IllegalStateException}, and headers or cookies set are not sent). It runs exactly once:
     * where the client left before the stream could start (or the request was a {@code HEAD}), with the
     * sink already closed, so sends return false and {@link SseSink#onClose} callbacks run at once.
     *
     * @param handler runs once with the open stream; may send and block (each send waits for the client)
     * @return this context
     */
    default Context sse(java.util.function.Consumer<SseSink> handler) {
        if (handler == null) {
            throw new IllegalArgumentException("the SSE handler must not be null");
        }
        dev.brisk.internal.sse.EventStream events = new dev.brisk.internal.sse.EventStream(header("Last-Event-ID"), handler);
        header("Cache-Control", "no-cache");
        header("X-Accel-Buffering", "no"); // a proxy that buffers would hold events back
        stream(events);
        return contentType("text/event-stream; charset=utf-8");
    }

    /**
     * A conditional {@code GET}: gives the answer the entity tag {@code etag} and says whether the client
     * already has that representation. When the request is a {@code GET} or {@code HEAD} whose
     * {@code If-None-Match} names the tag (weak comparison, or {@code *}; RFC 9110 13.1.2), the status
     * becomes {@code 304 Not Modified} and this returns true: the handler then answers nothing more,
     * and the costly body is never made. Otherwise it returns false and the handler answers as usual,
     * the tag already on the answer. A tag must change whenever the body would, for every client that
     * may compare it: a tag of data versions from several server processes should name the process.
     *
     * <pre>{@code
     * if (ctx.notModified("\"v" + catalog.version() + "\"")) {
     *     return;
     * }
     * ctx.json(catalog.render());
     * }</pre>
     *
     * @param etag an entity tag: {@code "opaque"} or {@code W/"opaque"}, the quotes included
     * @return true when {@code 304} was set and nothing more should be answered
     * @throws IllegalArgumentException when {@code etag} is not an entity tag (RFC 9110 8.8.3)
     */
    default boolean notModified(String etag) {
        if (!dev.brisk.internal.files.EntityTags.isTag(etag)) {
            throw new IllegalArgumentException("not an entity tag (\"opaque\" or W/\"opaque\", quotes included): "
                    + etag);
        }
        header("ETag", etag);
        String m = method();
        if (!m.equals("GET") && !m.equals("HEAD")) {
            return false;
        }
        String inm = dev.brisk.internal.http.FieldLists.joined(headers("If-None-Match"));
        if (inm == null || !dev.brisk.internal.files.EntityTags.matches(inm, etag, false)) {
            return false;
        }
        status(304);
        return true;
    }

    /**
     * A {@code 302 Found} redirect to {@code location}, encoded as {@link #redirect(String, int)} says.
     *
     * @param location the target, absolute or relative
     * @return this context
     */
    default Context redirect(String location) {
        return redirect(location, 302);
    }

    /**
     * A redirect to {@code location}. What a URI may not hold is percent-encoded as UTF-8 (non-ASCII
     * characters, spaces, {@code " < > \ ^ ` { | }}, a {@code %} that starts no escape), so
     * {@code redirect("/search?q=café")} sends {@code Location: /search?q=caf%C3%A9}; escapes and the
     * URI's delimiters are kept, so a valid URI is sent unchanged. A component made of user text must be
     * encoded by the caller ({@code URLEncoder.encode(term, UTF_8)} for a query value): its {@code &},
     * {@code #} or {@code %} would otherwise be read as the URI's own. A host is not converted to
     * ASCII: give an internationalised one as its {@code xn--} form.
     *
     * @param location the target, absolute or relative
     * @param status 301, 302, 303, 307 or 308
     * @return this context
     * @throws IllegalArgumentException for another status, or a location with a control character (CR,
     *     LF, ...) or an unpaired surrogate
     */
    Context redirect(String location, int status);

    /**
     * {@return the charset named by a content type's {@code charset} parameter, or {@code fallback}}
     *
     * @param contentType a {@code Content-Type} value; may be null
     * @param fallback returned when there is no parameter or it names no charset this JVM knows
     */
    static Charset charsetOf(String contentType, Charset fallback) {
        return dev.brisk.internal.web.MediaTypes.charset(contentType, fallback);
    }
}
