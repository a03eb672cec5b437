package dev.brisk.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The load clients' minimal HTTP/1.1 response reader: one response at a time on one connection, framed
 * by {@code Content-Length} (what every Brisk response to a bench route carries). Not a general client:
 * a chunked or unframed response is reported as {@link #MALFORMED}.
 */
final class ResponseReader {
    /** {@link #feed} result: the response is not complete yet. */
    static final int INCOMPLETE = -1;
    /** {@link #feed} result: not a response this reader understands. */
    static final int MALFORMED = -2;

    private static final int MAX_HEAD = 8 * 1024;
    private final byte[] head = new byte[MAX_HEAD];
    private int headLen;
    private int status;
    private long bodyLeft = -1; // -1: still in the head

    /** {@code GET path HTTP/1.1} with a Host header and nothing else: a keep-alive request. */
    static byte[] get(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Consumes bytes from {@code in} (read mode) up to the end of the current response at most; returns
     * its status code once complete (the reader is then ready for the next one), else {@link #INCOMPLETE}
     * or {@link #MALFORMED}.
     */
    int feed(ByteBuffer in) {
        while (bodyLeft < 0) {
            if (!in.hasRemaining()) {
                return INCOMPLETE;
            }
            if (headLen == MAX_HEAD) {
                return MALFORMED;
            }
            head[headLen++] = in.get();
            if (headLen >= 4 && head[headLen - 1] == '\n' && head[headLen - 2] == '\r'
                    && head[headLen - 3] == '\n' && head[headLen - 4] == '\r') {
                if (!parseHead()) {
                    return MALFORMED;
                }
            }
        }
        int take = (int) Math.min(bodyLeft, in.remaining());
        in.position(in.position() + take);
        bodyLeft -= take;
        if (bodyLeft > 0) {
            return INCOMPLETE;
        }
        int s = status;
        headLen = 0;
        bodyLeft = -1;
        return s;
    }

    private boolean parseHead() {
        String text = new String(head, 0, headLen, StandardCharsets.US_ASCII);
        if (!text.startsWith("HTTP/1.") || text.length() < 12) {
            return false;
        }
        try {
            status = Integer.parseInt(text.substring(9, 12));
        } catch (NumberFormatException e) {
            return false;
        }
        long length = -1;
        for (String line : text.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("content-length")) {
                try {
                    length = Long.parseLong(line.substring(colon + 1).strip());
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        if (length < 0) {
            return false;
        }
        bodyLeft = length;
        return true;
    }
}
