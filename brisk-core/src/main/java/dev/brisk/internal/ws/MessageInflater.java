package dev.brisk.internal.ws;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses one session's incoming compressed messages (RFC 7692 section 7.2.2): the message's
 * bytes plus the {@code 00 00 FF FF} the sender cut off, inflated with a bound: a message that would
 * inflate beyond {@code ws-max-message-size} fails with 1009 as soon as it passes it, so a small
 * "zip bomb" costs no more than the limit. The window is kept across messages (the client may refer
 * back unless it promised not to); the decompressor, about 40 KiB of native memory, is made at the
 * first compressed message and counted in {@code ws-memory} ({@link #CONTEXT_BYTES}) until {@link #end},
 * so many sessions cannot hold native memory no limit sees. Loop thread (or the session's reading
 * thread); {@link #end} once.
 */
final class MessageInflater {
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    /**
     * What a session's decompressor is counted as: zlib's state (about 7 KiB) and its 32 KiB window,
     * rounded up (2,000 sessions after one 44 KB message each held 82 MB more resident memory with
     * compression than without, about 41 KB each).
     */
    static final int CONTEXT_BYTES = 48 << 10;

    private final boolean clientNoContext;
    private final MemoryBudget budget;
    private Inflater inflater;

    MessageInflater(DeflateOffer offer, MemoryBudget budget) {
        this.clientNoContext = offer.clientNoContext();
        this.budget = budget;
    }

    /**
     * {@code data[0..len)} inflated.
     *
     * @param max the most bytes the message may inflate to
     * @throws ProtocolError 1009 past {@code max}, 1007 for data that is not deflate, 1013 when
     *     {@code ws-memory} cannot take the decompressor
     */
    byte[] inflate(byte[] data, int len, int max) throws ProtocolError {
        Inflater inf = inflater;
        if (inf == null) {
            if (!budget.reserveContext(CONTEXT_BYTES)) {
                throw new ProtocolError(CloseCodes.TRY_AGAIN_LATER, "the server holds too many messages");
            }
            inf = new Inflater(true);
            inflater = inf;
        }
        byte[] out = new byte[(int) Math.min(max + 1L, Math.max(256, (long) len * 4))];
        int n = 0;
        boolean tail = false;
        inf.setInput(data, 0, len);
        try {
            for (int rounds = 0; ; rounds++) {
                if (n == out.length) {
                    if (out.length > max) {
                        throw new ProtocolError(CloseCodes.TOO_BIG, "message inflates beyond " + max + " bytes");
                    }
                    out = Arrays.copyOf(out, (int) Math.min(max + 1L, out.length * 2L));
                }
                int k = inf.inflate(out, n, out.length - n);
                n += k;
                if (inf.finished()) {
                    inf.reset(); // the client ended its stream: the next message starts a new one
                    break;
                }
                if (k == 0 && inf.needsInput()) {
                    if (tail) {
                        break;
                    }
                    tail = true;
                    inf.setInput(TAIL);
                } else if (k == 0 && n < out.length && rounds > 1_000_000) {
                    throw new ProtocolError(CloseCodes.INVALID_DATA, "compressed data made no progress");
                }
            }
        } catch (DataFormatException e) {
            throw new ProtocolError(CloseCodes.INVALID_DATA, "invalid compressed data");
        }
        if (n > max) {
            throw new ProtocolError(CloseCodes.TOO_BIG, "message inflates beyond " + max + " bytes");
        }
        if (clientNoContext) {
            inf.reset();
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    void end() {
        if (inflater != null) {
            inflater.end();
            inflater = null;
            budget.releaseContext(CONTEXT_BYTES);
        }
    }
}
