package dev.brisk.internal.http;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Writes a response head: status line, cached {@code Date}, framing and connection headers, then the
 * handler's headers. Header values were validated when set, so nothing here can inject a line.
 */
public final class ResponseEncoder {
    private ResponseEncoder() {
    }

    /** Framing of the body that follows the head. */
    public static final long CHUNKED = -1;
    /** No framing header: no body (1xx, 204, 304) or a body delimited by closing (HTTP/1.0 stream). */
    public static final long NO_LENGTH = -2;
    /** {@code connection}: keep-alive, HTTP/1.1 (no header). */
    public static final int KEEP_ALIVE = 0;
    /** {@code connection}: {@code Connection: close}. */
    public static final int CONNECTION_CLOSE = 1;
    /** {@code connection}: keep-alive for HTTP/1.0 ({@code Connection: keep-alive}). */
    public static final int KEEP_ALIVE_1_0 = 2;

    private static final byte[] CONTENT_TYPE = ascii("Content-Type: ");
    private static final byte[] CONTENT_LENGTH = ascii("Content-Length: ");
    private static final byte[] TE_CHUNKED = ascii("Transfer-Encoding: chunked\r\n");
    private static final byte[] CONN_CLOSE = ascii("Connection: close\r\n");
    private static final byte[] CONN_KEEP_ALIVE = ascii("Connection: keep-alive\r\n");
    private static final byte[] COLON = ascii(": ");
    private static final byte[] CRLF = ascii("\r\n");

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Whether a response with this status never has a body. */
    public static boolean bodyless(int status) {
        return status < 200 || status == 204 || status == 304;
    }

    /**
     * Encodes the head into {@code out}.
     *
     * @param length the Content-Length, {@link #CHUNKED} or {@link #NO_LENGTH}
     * @param connection {@link #KEEP_ALIVE}, {@link #CONNECTION_CLOSE} or {@link #KEEP_ALIVE_1_0}
     * @param headers name, value, name, value...
     * @return false when {@code out} is too small; its position is then undefined
     */
    public static boolean encodeHead(ByteBuffer out, int status, String contentType, List<String> headers,
                                     long length, int connection) {
        try {
            out.put(StatusLines.line(status));
            out.put(HttpDate.now().bytes());
            if (contentType != null && !bodyless(status)) {
                out.put(CONTENT_TYPE);
                putLatin1(out, contentType);
                out.put(CRLF);
            }
            if (length >= 0) {
                out.put(CONTENT_LENGTH);
                putLong(out, length);
                out.put(CRLF);
            } else if (length == CHUNKED) {
                out.put(TE_CHUNKED);
            }
            if (connection == CONNECTION_CLOSE) {
                out.put(CONN_CLOSE);
            } else if (connection == KEEP_ALIVE_1_0) {
                out.put(CONN_KEEP_ALIVE);
            }
            for (int i = 0, n = headers.size(); i < n; i += 2) {
                putLatin1(out, headers.get(i));
                out.put(COLON);
                putLatin1(out, headers.get(i + 1));
                out.put(CRLF);
            }
            out.put(CRLF);
            return true;
        } catch (java.nio.BufferOverflowException e) {
            return false;
        }
    }

    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) copies Latin-1 chars as they are
    private static void putLatin1(ByteBuffer out, String s) {
        int n = s.length();
        if (n > out.remaining()) {
            throw new java.nio.BufferOverflowException();
        }
        if (out.hasArray()) {
            // header values were checked to be Latin-1 when set, so the low byte of each char is the byte
            s.getBytes(0, n, out.array(), out.arrayOffset() + out.position());
            out.position(out.position() + n);
        } else {
            for (int i = 0; i < n; i++) {
                out.put((byte) s.charAt(i));
            }
        }
    }

    static void putLong(ByteBuffer out, long v) {
        if (v == 0) {
            out.put((byte) '0');
            return;
        }
        int digits = 0;
        for (long t = v; t > 0; t /= 10) {
            digits++;
        }
        int pos = out.position() + digits;
        if (pos > out.limit()) {
            throw new java.nio.BufferOverflowException();
        }
        if (out.hasArray()) {
            // straight into the backing array: no per-digit bounds checks (this runs once per response)
            byte[] a = out.array();
            for (int i = out.arrayOffset() + pos - 1; v > 0; i--) {
                a[i] = (byte) ('0' + (v % 10));
                v /= 10;
            }
        } else {
            for (int i = pos - 1; v > 0; i--) {
                out.put(i, (byte) ('0' + (v % 10)));
                v /= 10;
            }
        }
        out.position(pos);
    }

    /** The size line of a chunk of {@code n} bytes: hex digits and CRLF. */
    public static byte[] chunkHeader(int n) {
        return (Integer.toHexString(n) + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
