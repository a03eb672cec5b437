package dev.brisk.internal.form;

import dev.brisk.FormOptions;
import dev.brisk.HttpException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code multipart/form-data} body (RFC 7578, RFC 2046 section 5.1) from a stream, part by
 * part, holding one fixed buffer and never a whole part: the heads are parsed into {@link PartHead}s,
 * the contents handed out as read. Every byte taken from the stream counts against
 * {@code form-max-size}, each part's content against {@code form-max-part-size}, each header block
 * against {@code form-max-part-header-size}, the parts against {@code form-max-parts} (413 beyond
 * each); a body that breaks the syntax is a 400.
 *
 * <pre>
 *   PREAMBLE ──delimiter──▶ AFTER_DELIMITER ──"--"──▶ DONE (the epilogue read and dropped)
 *                              │   ▲
 *                  padding, CRLF, head   └──delimiter── CONTENT
 *                              └────────────────────────▶ CONTENT
 *   any state but DONE ──the stream ends──▶ 400 (no closing delimiter)
 * </pre>
 *
 * <p>The delimiter is {@code CRLF "--" boundary}; the buffer starts with a CRLF of its own so the
 * first one, at the very start of the body, is found like the others. Content is handed out only up
 * to where a delimiter could begin, so a delimiter split across reads (at any byte) is still found,
 * and no byte is scanned twice.
 *
 * <p>One thread at a time (the handler's); not thread-safe.
 */
final class PartReader {
    private static final int BUFFER = 16 * 1024;

    private enum State { PREAMBLE, CONTENT, AFTER_DELIMITER, DONE }

    private final InputStream in;
    private final byte[] delimiter;
    private final FormOptions limits;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int lim;
    /** buf[pos, safeEnd) belongs to the current content; at safeEnd a delimiter starts when {@link #delimiterAt}. */
    private int safeEnd;
    private boolean delimiterAt;
    private boolean eof;
    private long total;
    private int parts;
    private long partBytes;
    private String partName;
    private State state = State.PREAMBLE;

    /**
     * @param boundary the boundary, already checked ({@link Boundary})
     */
    PartReader(InputStream in, String boundary, FormOptions limits) {
        this.in = in;
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        this.limits = limits;
        buf[0] = '\r';
        buf[1] = '\n';
        lim = 2;
    }

    /**
     * Moves to the next part, skipping what is left of the current one (or the preamble).
     *
     * @return the next part's head, or null once the closing delimiter was read (the epilogue dropped)
     */
    PartHead next() {
        if (state == State.DONE) {
            return null;
        }
        if (state != State.AFTER_DELIMITER) {
            while (read(null, 0, Integer.MAX_VALUE) >= 0) {
                // skipped
            }
        }
        int c = readByte();
        if (c == '-') {
            if (readByte() != '-') {
                throw malformed("a boundary delimiter is followed by '-' and not '--'");
            }
            closeDelimiterLine(); // before DONE: a caller that catches its 400 and asks again must not see a clean end
            state = State.DONE;
            drainEpilogue();
            return null;
        }
        while (c == ' ' || c == '\t') {
            c = readByte(); // transport padding
        }
        if (c != '\r' || readByte() != '\n') {
            throw malformed("a boundary delimiter is followed by more than padding on its line");
        }
        if (++parts > limits.maxParts()) {
            throw new HttpException.PayloadTooLarge("Multipart body has more than " + limits.maxParts() + " parts");
        }
        PartHead head = PartHead.parse(this::readByte, limits.maxPartHeaderSize());
        state = State.CONTENT;
        partBytes = 0;
        partName = head.name();
        safeEnd = pos;
        delimiterAt = false;
        return head;
    }

    /**
     * Reads the current part's content (or skips it when {@code b} is null).
     *
     * @return bytes read, or -1 at the part's end (the reader then stands after its delimiter)
     */
    int read(byte[] b, int off, int len) {
        if (state != State.CONTENT && state != State.PREAMBLE) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        while (true) {
            if (pos < safeEnd) {
                int n = Math.min(len, safeEnd - pos);
                if (b != null) {
                    System.arraycopy(buf, pos, b, off, n);
                }
                pos += n;
                if (state == State.CONTENT) {
                    partBytes += n;
                    if (partBytes > limits.maxPartSize()) {
                        throw new HttpException.PayloadTooLarge("Part '" + partName + "' is larger than "
                                + limits.maxPartSize() + " bytes");
                    }
                }
                return n;
            }
            if (delimiterAt) {
                pos += delimiter.length;
                delimiterAt = false;
                state = State.AFTER_DELIMITER;
                return -1;
            }
            scan();
        }
    }

    /** Whether the reader stands inside a part's content (not after its end). */
    boolean inContent() {
        return state == State.CONTENT;
    }

    /**
     * Finds how far from {@code pos} the content reaches: to a delimiter, else to where a delimiter
     * could begin at the end of what is buffered; reads more when that is nothing.
     */
    private void scan() {
        int d = delimiter.length;
        while (true) {
            int found = find(pos, lim);
            if (found >= 0) {
                safeEnd = found;
                delimiterAt = true;
                return;
            }
            int safe = Math.max(pos, lim - d + 1);
            while (safe < lim && !prefixAt(safe, lim - safe)) {
                safe++;
            }
            if (safe > pos) {
                safeEnd = safe;
                return;
            }
            if (!fill()) {
                throw malformed("the body ends before the closing boundary delimiter");
            }
        }
    }

    /** The first full delimiter in buf[from, to), or -1. */
    private int find(int from, int to) {
        byte first = delimiter[0];
        for (int i = from, last = to - delimiter.length; i <= last; i++) {
            if (buf[i] == first && prefixAt(i, delimiter.length)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether buf[at, at + n) equals the delimiter's first {@code n} bytes. */
    private boolean prefixAt(int at, int n) {
        for (int k = 0; k < n; k++) {
            if (buf[at + k] != delimiter[k]) {
                return false;
            }
        }
        return true;
    }

    /** One byte of a delimiter's line or a part's head. */
    private int readByte() {
        if (pos == lim && !fill()) {
            throw malformed("the body ends before the closing boundary delimiter");
        }
        return buf[pos++] & 0xff;
    }

    /**
     * The rest of the close delimiter's line (RFC 2046 5.1.1): padding, then the body's end or a CRLF
     * before the epilogue. Anything else would make the rest of the body vanish unread as "epilogue".
     */
    private void closeDelimiterLine() {
        int c;
        do {
            if (pos == lim && !fill()) {
                return; // the body ends with the close delimiter
            }
            c = buf[pos++] & 0xff;
        } while (c == ' ' || c == '\t');
        if (c != '\r' || readByteOrEnd() != '\n') {
            throw malformed("the closing boundary delimiter is followed by more than padding on its line");
        }
    }

    private int readByteOrEnd() {
        return pos == lim && !fill() ? -1 : buf[pos++] & 0xff;
    }

    /** What follows the closing delimiter is not the form's: read and dropped, within {@code form-max-size}. */
    private void drainEpilogue() {
        pos = lim;
        while (fill()) {
            pos = lim;
        }
    }

    /** Moves what is unread to the buffer's start and reads more after it; false at the stream's end. */
    private boolean fill() {
        if (eof) {
            return false;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            safeEnd = Math.max(0, safeEnd - pos);
            pos = 0;
        }
        int n;
        try {
            do {
                n = in.read(buf, lim, buf.length - lim);
            } while (n == 0);
        } catch (IOException e) {
            throw new UncheckedIOException("reading a multipart body failed", e);
        }
        if (n < 0) {
            eof = true;
            return false;
        }
        total += n;
        if (total > limits.maxSize()) {
            throw new HttpException.PayloadTooLarge("Multipart body is larger than " + limits.maxSize() + " bytes");
        }
        lim += n;
        return true;
    }

    static HttpException malformed(String why) {
        return new HttpException.BadRequest("Malformed multipart body: " + why);
    }
}
