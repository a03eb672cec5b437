package dev.brisk.internal.http;

/**
 * Incremental decoder of a chunked request body (RFC 9112 section 7.1): bytes in, data out, no socket.
 * Chunk extensions are skipped but bounded; trailer fields are checked for syntax, bounded by the
 * header-size limit, and dropped. Sizes must be plain hex (no sign, no {@code 0x}): at most 15
 * significant digits after any leading zeros, at most {@value #MAX_SIZE_DIGITS} digits in all.
 */
public final class ChunkedDecoder {
    private static final int SIZE = 0;
    private static final int SIZE_BWS = 1;
    private static final int EXT = 2;
    private static final int SIZE_LF = 3;
    private static final int DATA = 4;
    private static final int DATA_CR = 5;
    private static final int DATA_LF = 6;
    private static final int TRAILER_START = 7;
    private static final int TRAILER_NAME = 8;
    private static final int TRAILER_VALUE = 9;
    private static final int TRAILER_LF = 10;
    private static final int END_LF = 11;
    private static final int DONE = 12;

    private final int maxExtension;
    private final int maxTrailer;
    private int state = SIZE;
    private long remaining;
    /** The most digits a chunk size may have, leading zeros included: a bound on the line. */
    private static final int MAX_SIZE_DIGITS = 64;
    private int digits;
    private int extBytes;
    private int trailerBytes;

    public ChunkedDecoder(int maxExtension, int maxTrailer) {
        this.maxExtension = maxExtension;
        this.maxTrailer = maxTrailer;
    }

    public boolean done() {
        return state == DONE;
    }

    /**
     * Decodes {@code b[off..end)} into {@code out}.
     *
     * @return the offset after the last byte consumed; equals {@code end} unless the body ended first
     */
    public int decode(byte[] b, int off, int end, BodySink out) throws HttpParseException {
        int i = off;
        while (i < end && state != DONE) {
            if (state == DATA) {
                int n = (int) Math.min(remaining, end - i);
                out.append(b, i, n);
                i += n;
                remaining -= n;
                if (remaining == 0) {
                    state = DATA_CR;
                }
                continue;
            }
            byte c = b[i++];
            switch (state) {
                case SIZE -> {
                    int v = hex(c);
                    if (v >= 0) {
                        if (++digits > MAX_SIZE_DIGITS) {
                            throw new HttpParseException(400, "Chunk size has too many digits");
                        }
                        if (remaining >= 1L << 56) {
                            throw new HttpParseException(400, "Chunk size too large"); // a 16th significant digit
                        }
                        remaining = remaining * 16 + v;
                    } else if (digits == 0) {
                        throw new HttpParseException(400, "Invalid chunk size");
                    } else if (c == '\r') {
                        state = SIZE_LF;
                    } else if (c == ';') {
                        state = EXT;
                    } else if (c == ' ' || c == '\t') {
                        state = SIZE_BWS;
                    } else {
                        throw new HttpParseException(400, "Invalid chunk size");
                    }
                }
                case SIZE_BWS -> {
                    if (c == ';') {
                        state = EXT;
                    } else if (c != ' ' && c != '\t') {
                        throw new HttpParseException(400, "Invalid chunk size line");
                    }
                }
                case EXT -> {
                    if (c == '\r') {
                        state = SIZE_LF;
                    } else if (!Ascii.isFieldChar(c)) {
                        throw new HttpParseException(400, "Invalid character in chunk extension");
                    } else if (++extBytes > maxExtension) {
                        throw new HttpParseException(400, "Chunk extension longer than " + maxExtension + " bytes");
                    }
                }
                case SIZE_LF -> {
                    expectLf(c);
                    out.ensureRoom(remaining);
                    digits = 0;
                    extBytes = 0;
                    state = remaining == 0 ? TRAILER_START : DATA;
                }
                case DATA_CR -> {
                    if (c != '\r') {
                        throw new HttpParseException(400, "Chunk data not followed by CRLF");
                    }
                    state = DATA_LF;
                }
                case DATA_LF -> {
                    expectLf(c);
                    state = SIZE;
                }
                case TRAILER_START -> {
                    countTrailer();
                    if (c == '\r') {
                        state = END_LF;
                    } else if (Ascii.isTchar(c)) {
                        state = TRAILER_NAME;
                    } else {
                        throw new HttpParseException(400, "Invalid trailer field");
                    }
                }
                case TRAILER_NAME -> {
                    countTrailer();
                    if (c == ':') {
                        state = TRAILER_VALUE;
                    } else if (!Ascii.isTchar(c)) {
                        throw new HttpParseException(400, "Invalid trailer field name");
                    }
                }
                case TRAILER_VALUE -> {
                    countTrailer();
                    if (c == '\r') {
                        state = TRAILER_LF;
                    } else if (!Ascii.isFieldChar(c)) {
                        throw new HttpParseException(400, "Invalid character in trailer field");
                    }
                }
                case TRAILER_LF -> {
                    expectLf(c);
                    state = TRAILER_START;
                }
                case END_LF -> {
                    expectLf(c);
                    state = DONE;
                }
                default -> throw new IllegalStateException("state " + state);
            }
        }
        return i;
    }

    private void countTrailer() throws HttpParseException {
        if (++trailerBytes > maxTrailer) {
            throw new HttpParseException(431, "Trailer section larger than " + maxTrailer + " bytes");
        }
    }

    private static void expectLf(byte c) throws HttpParseException {
        if (c != '\n') {
            throw new HttpParseException(400, "Bare CR in chunked body");
        }
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
