package dev.brisk;

import java.io.InputStream;

/**
 * One part of a {@code multipart/form-data} request body: a form field, or a file when it has a
 * {@link #filename()}. Parts come from {@link Context#multipart()} (streamed, one at a time, read
 * straight from the body) or {@link Context#parts()} (all of them, stored: small ones in memory, larger
 * ones in temporary files). Either way a part belongs to its request: use it only on the handler's
 * thread and only until the handler returns (a stored part's file is deleted then).
 *
 * <p>The name, file name and headers are decoded as UTF-8, as browsers send them; the file name is the
 * client's, unchecked: never use it as a path.
 */
public interface Part {
    /** {@return the field's name: the {@code name} parameter of its {@code Content-Disposition}} */
    String name();

    /**
     * The file name the client sent, which marks a file part: the {@code filename} parameter, or an RFC
     * 8187 {@code filename*} (UTF-8 or ISO-8859-1, percent-decoded), which wins when both are sent. It is
     * the client's text as sent and may hold {@code /}, {@code \} or {@code ..}: show it, never make a
     * file path of it (RFC 7578 section 4.2).
     *
     * @return the file name, empty when a file input was left empty; null for a plain field
     */
    String filename();

    /** {@return the part's {@code Content-Type}, or null when it has none (a field: text/plain)} */
    String contentType();

    /**
     * {@return the first value of one of the part's headers, or null when absent}
     *
     * @param name the header's name, case-insensitive
     */
    String header(String name);

    /**
     * The content's length in bytes.
     *
     * @return the length for a stored part; -1 for a streamed part (its length is known only once read)
     */
    long size();

    /**
     * The content as a stream. A streamed part has one stream, read from the body as it arrives: it
     * ends at the part's end, and asking for the next part skips what was not read. A stored part gives
     * a new stream at each call, valid until the handler returns — or, when the handler answers with a
     * stream ({@code ctx.stream(part.content())}, or any stream that reads from a part, such as a
     * {@code BufferedInputStream} around it), until that answer is sent: every stored part keeps its
     * memory or file until the answer's stream is closed.
     * Reads throw unchecked {@link HttpException}s (413 over a limit, 400 malformed) the handler lets
     * propagate.
     *
     * @return the content
     */
    InputStream content();

    /**
     * The content as one array.
     *
     * @return the content (a streamed part: what was not read yet)
     * @throws HttpException 413 when a streamed part is larger than {@code form-spool-threshold} (read
     *     it through {@link #content()}), 503 when the request-body memory budget cannot take a stored
     *     part's file
     */
    byte[] bytes();

    /**
     * The content as text, decoded with the charset of the part's {@code Content-Type}, else UTF-8: the
     * value of a form field. Bounded as {@link #bytes()}.
     *
     * @return the content as text
     * @throws HttpException as {@link #bytes()}; 400 when the bytes are not valid in that charset
     */
    String text();
}
