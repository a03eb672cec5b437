package dev.brisk.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A {@code multipart/byteranges} body (RFC 9110 section 14.6): for each range a boundary line, its
 * {@code Content-Type} and {@code Content-Range}, the bytes; then the closing boundary. The ranges
 * are ascending and disjoint ({@link ByteRanges}), so one pass over the representation's stream, with
 * skips, reads them all. Its length is known before the first byte. Owns the stream (closed once).
 * One reader at a time.
 */
public final class MultipartRanges extends SizedBody {
    private final InputStream source;
    private final long[] ranges;
    private final byte[][] partHeads;
    private final byte[] closing;
    private final long length;
    /** Which part is being read: its head, then its bytes. {@code ranges.length / 2} means the closing line. */
    private int part;
    /** Within the current part: head bytes read, then body bytes read. */
    private int headRead;
    private long bodyRead;
    private int closingRead;
    /** Where the source stream stands. */
    private long position;
    private boolean closed;

    /**
     * @param source the representation from its first byte, owned from now on
     * @param ranges first, last, first, last... inclusive, ascending and disjoint
     * @param boundary the boundary, also in the response's {@code Content-Type}
     * @param contentType each part's {@code Content-Type}
     * @param total the representation's length, for {@code Content-Range}
     */
    public MultipartRanges(InputStream source, long[] ranges, String boundary, String contentType, long total) {
        this.source = source;
        this.ranges = ranges;
        int parts = ranges.length / 2;
        this.partHeads = new byte[parts][];
        long len = 0;
        for (int k = 0; k < parts; k++) {
            String head = (k == 0 ? "" : "\r\n") + "--" + boundary + "\r\nContent-Type: " + contentType
                    + "\r\nContent-Range: bytes " + ranges[2 * k] + "-" + ranges[2 * k + 1] + "/" + total + "\r\n\r\n";
            partHeads[k] = head.getBytes(StandardCharsets.ISO_8859_1);
            len += partHeads[k].length + (ranges[2 * k + 1] - ranges[2 * k] + 1);
        }
        this.closing = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
        this.length = len + closing.length;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        int parts = partHeads.length;
        while (part < parts) {
            byte[] head = partHeads[part];
            if (headRead < head.length) {
                int n = Math.min(len, head.length - headRead);
                System.arraycopy(head, headRead, b, off, n);
                headRead += n;
                return n;
            }
            long first = ranges[2 * part];
            long size = ranges[2 * part + 1] - first + 1;
            if (bodyRead < size) {
                if (position < first + bodyRead) {
                    source.skipNBytes(first + bodyRead - position);
                    position = first + bodyRead;
                }
                int n = source.read(b, off, (int) Math.min(len, size - bodyRead));
                if (n < 0) {
                    throw new IOException("the file ended before its range " + first + "-" + ranges[2 * part + 1]);
                }
                bodyRead += n;
                position += n;
                return n;
            }
            part++;
            headRead = 0;
            bodyRead = 0;
        }
        if (closingRead < closing.length) {
            int n = Math.min(len, closing.length - closingRead);
            System.arraycopy(closing, closingRead, b, off, n);
            closingRead += n;
            return n;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            source.close();
        }
    }
}
