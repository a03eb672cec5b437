package dev.brisk.internal.web;

import java.io.InputStream;

/**
 * A request body as the engine hands it to an {@link Exchange}: held in memory, spooled to a file, or
 * streamed from the connection as it arrives. What it holds (budgeted memory, a file, a stream window)
 * is shared by two holders: the connection, from the moment it hands the body over until the exchange
 * ends (response written, connection closed), and the handler, from its first use of the body
 * ({@link #retain}) until it returns ({@link Exchange#releaseBody}). The last {@link #release} gives
 * everything back: budget, file, window.
 *
 * <p>Threads: {@link #bytes} and {@link #stream} on the handler's thread; {@link #retain} and
 * {@link #release} on any thread, once per holder.
 */
public interface RequestBody {
    /** {@return the body's length in bytes, or -1 while it is not known (a stream still arriving)} */
    long length();

    /**
     * The whole body as one array, made once (later calls return the same array).
     *
     * @throws dev.brisk.HttpException 503 when the memory budget cannot take the array, 413 when the body
     *     is too large for one array
     * @throws IllegalStateException when the body is streamed
     */
    byte[] bytes();

    /** {@return the body as a stream: a new one over held or spooled bytes, the one live stream otherwise} */
    InputStream stream();

    /** {@return whether a new holder was added: false once everything was given back (the connection is gone)} */
    boolean retain();

    /** One holder lets go; the last one gives back everything the body holds. */
    void release();
}
