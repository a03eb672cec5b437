package dev.brisk.internal.ws;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Writes a server's frames (RFC 6455 section 5.2): unmasked, one frame per message (FIN set), header
 * and payload in one array, so a frame is one buffer to queue and one to write. Pure; any thread.
 */
final class Frames {
    private Frames() {
    }

    /** The header's size for a payload of {@code len} bytes (a server's frames carry no mask). */
    static int headerSize(int len) {
        return len <= 125 ? 2 : len <= 0xFFFF ? 4 : 10;
    }

    /**
     * A whole frame: FIN, {@code opcode}, RSV1 when {@code compressed}, and {@code payload[off..off+len)}.
     *
     * @return the frame, ready to be written (read mode)
     */
    static ByteBuffer frame(int opcode, boolean compressed, byte[] payload, int off, int len) {
        int h = headerSize(len);
        byte[] f = new byte[h + len];
        f[0] = (byte) (0x80 | (compressed ? 0x40 : 0) | opcode);
        if (len <= 125) {
            f[1] = (byte) len;
        } else if (len <= 0xFFFF) {
            f[1] = 126;
            f[2] = (byte) (len >>> 8);
            f[3] = (byte) len;
        } else {
            f[1] = 127;
            long l = len;
            for (int i = 0; i < 8; i++) {
                f[2 + i] = (byte) (l >>> (56 - 8 * i));
            }
        }
        System.arraycopy(payload, off, f, h, len);
        return ByteBuffer.wrap(f);
    }

    /**
     * A close frame with {@code code} and {@code reason} (cut to fit 123 bytes on a character
     * boundary), or an empty one when {@code code} is {@link CloseCodes#NO_STATUS}.
     */
    static ByteBuffer close(int code, String reason) {
        if (code == CloseCodes.NO_STATUS) {
            return frame(FrameParser.CLOSE, false, new byte[0], 0, 0);
        }
        byte[] r = reasonBytes(reason);
        byte[] p = new byte[2 + r.length];
        p[0] = (byte) (code >>> 8);
        p[1] = (byte) code;
        System.arraycopy(r, 0, p, 2, r.length);
        return frame(FrameParser.CLOSE, false, p, 0, p.length);
    }

    /** {@code reason} as UTF-8, at most 123 bytes, never ending inside a character. */
    static byte[] reasonBytes(String reason) {
        if (reason == null || reason.isEmpty()) {
            return new byte[0];
        }
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        if (r.length <= 123) {
            return r;
        }
        int n = 123;
        while (n > 0 && (r[n] & 0xC0) == 0x80) {
            n--; // r[n] continues a character: cut before that character starts
        }
        return java.util.Arrays.copyOf(r, n);
    }
}
