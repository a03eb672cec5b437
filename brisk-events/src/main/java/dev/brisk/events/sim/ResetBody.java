package dev.brisk.events.sim;

import java.io.IOException;
import java.io.InputStream;

/**
 * A response body that delivers the start of the document and then fails. Brisk cannot report a
 * failed stream in-band, so it stops the chunked body and closes the connection: the client sees the
 * connection end mid-body, as with a provider that crashes while answering.
 */
final class ResetBody extends InputStream {
    private final byte[] doc;
    private final int cut;
    private int pos;

    /** Delivers {@code doc[0, cut)}, then throws. */
    ResetBody(byte[] doc, int cut) {
        this.doc = doc;
        this.cut = Math.max(0, Math.min(cut, doc.length));
    }

    @Override
    public int read() throws IOException {
        if (pos >= cut) {
            throw resetError();
        }
        return doc[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos >= cut) {
            throw resetError();
        }
        int n = Math.min(len, cut - pos);
        System.arraycopy(doc, pos, b, off, n);
        pos += n;
        return n;
    }

    private static IOException resetError() {
        return new IOException("simulated provider reset");
    }
}
