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

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read() {
        return -1;
    }
}
