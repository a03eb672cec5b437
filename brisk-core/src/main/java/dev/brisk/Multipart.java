package dev.brisk;

/**
 * The parts of a {@code multipart/form-data} request body read one at a time, as they arrive
 * ({@link Context#multipart()}): no part is held whole, so a handler can take uploads as large as the
 * limits allow ({@code form-max-part-size} a part, {@code form-max-size} in all, whatever the route's
 * body limit). Iterate with {@code for (Part p : ctx.multipart())} or call {@link #next()} until
 * it returns null. Each part's content must be read before the next part is asked for; what is left
 * unread is skipped (still counted against the limits). On a route that streams its body
 * ({@link Route#streamBody()}) the parts come straight off the connection; on any other route from
 * the body already received.
 *
 * <p>Bad input throws unchecked {@link HttpException}s the handler lets propagate: {@code 400} for a
 * malformed body (no closing delimiter, bad part headers, a part without a name) and {@code 413} past
 * the limits ({@code form-max-parts}, {@code form-max-part-size}, {@code form-max-size},
 * {@code form-max-part-header-size}, and the route's body limit).
 *
 * <p>One reader per request, on the handler's thread; its iterators share its position.
 */
public interface Multipart extends Iterable<Part> {
    /**
     * Moves to the next part, skipping the rest of the current one.
     *
     * @return the next part, or null after the last one
     * @throws HttpException 400 when the body is malformed, 413 past a limit
     */
    Part next();
}
