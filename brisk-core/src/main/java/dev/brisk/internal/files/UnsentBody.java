package dev.brisk.internal.files;

/**
 * The body of a response to {@code HEAD}: only its length is sent, as {@code Content-Length}, so no
 * file is opened for it. Read as a stream (by a wrapper that does not know), it is empty.
 */
public final class UnsentBody extends SizedBody {
    private final long length;

    public UnsentBody(long length) {
        this.length = length;
    }

    /**
     * {@return the body of a {@code HEAD} answer whose {@code GET} length is known only once its content
     * is made (a file compressed whole): {@link #length} is -1, and the answer carries neither
     * {@code Content-Length} nor {@code Transfer-Encoding} (RFC 9110 section 9.3.2 lets a server omit
     * fields it determines only while generating the content)}
     */
    public static UnsentBody unknownLength() {
        return new UnsentBody(-1);
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read() {
        return -1;
    }
}
