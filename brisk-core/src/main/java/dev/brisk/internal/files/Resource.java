package dev.brisk.internal.files;

import java.io.IOException;
import java.io.InputStream;

/**
 * A file a {@link Source} found: its metadata, read once per request, and its bytes. Each request makes
 * its own; used by one thread.
 */
public interface Resource {
    /** {@return whether it is a directory (then only its index files can be served)} */
    boolean isDirectory();

    /** {@return its length in bytes} */
    long length();

    /** {@return when it last changed, in epoch milliseconds; -1 when unknown} */
    long lastModified();

    /**
     * {@return its strong entity tag, quoted, or null when none can be told}
     *
     * @param suffix text marking the representation (a precompressed sibling's coding), or empty
     */
    String etag(String suffix);

    /**
     * Bytes {@code [start, start + count)} as a response body, holding the file open until the body is
     * closed; {@code release} runs then, once.
     *
     * @throws IOException when the file cannot be opened (gone since it was looked up, not readable)
     */
    SizedBody open(long start, long count, Runnable release) throws IOException;

    /**
     * {@return bytes {@code [start, start + count)}, read now (fewer if it shrank meanwhile); for small counts only}
     *
     * @throws IOException when the file cannot be read (gone since it was looked up, not readable)
     */
    byte[] read(long start, int count) throws IOException;

    /**
     * {@return a value equal for every version of a resource with the same bytes, by which an encoding of
     * them may be reused (see {@link SizedBody#contentKey}); null when none can be told}
     */
    default Object contentKey() {
        return null;
    }

    /** A stream over the first {@code count} bytes of {@code in} from {@code start}, of known length. */
    static SizedBody slice(InputStream in, long start, long count, Runnable release) throws IOException {
        try {
            in.skipNBytes(start);
        } catch (IOException | RuntimeException e) {
            in.close();
            release.run();
            throw e instanceof IOException io ? io : new IOException(e);
        }
        return new StreamSlice(in, count, release);
    }
}
