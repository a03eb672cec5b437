package dev.brisk.events.feed;

import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * Checks a feed's bytes on their way to the XML parser, for what the parser lets through:
 * <ul>
 * <li>UTF-8, strictly (RFC 3629): no overlong form, no surrogate, nothing past U+10FFFF. Aalto decodes
 * {@code C0 80} as U+0000, {@code C0 BC} as {@code <} and {@code F4 90 80 80} as a lone surrogate pair,
 * characters the document never held (a NUL in a title then fails every PostgreSQL write of the poll).
 * Checked only when the document is UTF-8: no UTF-16 or UTF-32 byte-order mark or layout, and an XML
 * declaration (read from the first {@value #PROLOG_MAX} bytes) that names no other encoding.
 * <li>No token longer than {@value #MAX_TOKEN} bytes: the bytes between one {@code <} or {@code >} and
 * the next, a tag with its attributes or a text. The parser holds a token whole (an attribute value as
 * chars, twice its bytes), so one 200 MB attribute inside the size bound ran a 512 MiB heap out of memory
 * and killed the poller.
 * </ul>
 * A fault ends the read with a {@link CharConversionException}, sticky, and {@link #fault} says what it
 * was, for the parser's message. Closing it does not close the underlying stream.
 *
 * <p>Threads: the parsing thread only.
 */
final class FeedBytesGuard extends InputStream {
    /** The longest token (a tag with its attributes, or a text) a feed may have, in bytes. */
    static final int MAX_TOKEN = 1 << 20;
    /** How far into the document its encoding is looked for. */
    static final int PROLOG_MAX = 256;
    private static final int UNKNOWN = 0;
    private static final int UTF8 = 1;
    private static final int OTHER = 2;

    private final InputStream in;
    private final int maxToken;
    private int encoding = UNKNOWN;
    /** The first bytes, while the encoding is not known yet. */
    private final byte[] prolog = new byte[PROLOG_MAX];
    private int prologLength;
    /** Bytes checked as UTF-8 so far (the position of the next). */
    private long position;
    /** Continuation bytes the current UTF-8 sequence still needs, and the range its next one must be in. */
    private int need;
    private int low = 0x80;
    private int high = 0xBF;
    private int token;
    private String fault;

    FeedBytesGuard(InputStream in) {
        this(in, MAX_TOKEN);
    }

    FeedBytesGuard(InputStream in, int maxToken) {
        this.in = Objects.requireNonNull(in, "in");
        this.maxToken = maxToken;
    }

    /** What the guard refused, or null. */
    String fault() {
        return fault;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n <= 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (fault != null) {
            throw new CharConversionException(fault);
        }
        int n = in.read(b, off, len);
        if (n > 0) {
            check(b, off, n);
        } else if (n < 0) {
            if (encoding == UNKNOWN) {
                decide(true);
                if (encoding == UTF8) {
                    utf8(prolog, 0, prologLength);
                }
            }
            if (encoding == UTF8 && need > 0) {
                fail("feed is not valid UTF-8: a sequence cut short at byte " + position);
            }
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    private void check(byte[] b, int off, int n) throws IOException {
        for (int i = off; i < off + n; i++) {
            byte c = b[i];
            if (c == '<' || c == '>') {
                token = 0;
            } else if (++token > maxToken) {
                fail("feed has a tag or text longer than " + maxToken + " bytes");
            }
        }
        if (encoding == UNKNOWN) {
            int take = Math.min(n, PROLOG_MAX - prologLength);
            System.arraycopy(b, off, prolog, prologLength, take);
            prologLength += take;
            decide(false);
            if (encoding == UTF8) {
                utf8(prolog, 0, prologLength); // what was held back while the encoding was not known
                utf8(b, off + take, n - take);
            }
        } else if (encoding == UTF8) {
            utf8(b, off, n);
        }
    }

    /** Settles the encoding from the prolog when it can (or must: {@code end}, or the prolog full). */
    private void decide(boolean end) {
        byte[] p = prolog;
        int n = prologLength;
        if (n >= 2 && ((p[0] == (byte) 0xFE && p[1] == (byte) 0xFF) || (p[0] == (byte) 0xFF && p[1] == (byte) 0xFE))
                || n >= 2 && (p[0] == 0 || p[1] == 0)) {
            encoding = OTHER; // UTF-16 or UTF-32, with a byte-order mark or by the layout of "<?"
            return;
        }
        int start = n >= 3 && p[0] == (byte) 0xEF && p[1] == (byte) 0xBB && p[2] == (byte) 0xBF ? 3 : 0;
        String head = new String(p, start, n - start, StandardCharsets.ISO_8859_1);
        if (!"<?xml".startsWith(head) && !head.startsWith("<?xml")) {
            encoding = UTF8; // no declaration: UTF-8 by XML's rule
            return;
        }
        int close = head.indexOf("?>");
        if (close < 0) {
            if (end || n == PROLOG_MAX) {
                encoding = UTF8; // no end to the declaration within reach: the parser refuses it anyway
            }
            return;
        }
        String declaration = head.substring(0, close);
        int at = declaration.indexOf("encoding");
        if (at < 0) {
            encoding = UTF8;
            return;
        }
        int q = at + "encoding".length();
        while (q < declaration.length() && (declaration.charAt(q) == ' ' || declaration.charAt(q) == '='
                || declaration.charAt(q) == '\t' || declaration.charAt(q) == '\r' || declaration.charAt(q) == '\n')) {
            q++;
        }
        if (q >= declaration.length() || (declaration.charAt(q) != '"' && declaration.charAt(q) != '\'')) {
            encoding = UTF8; // malformed: the parser refuses it
            return;
        }
        int e = declaration.indexOf(declaration.charAt(q), q + 1);
        String name = e < 0 ? "" : declaration.substring(q + 1, e).toLowerCase(Locale.ROOT);
        encoding = name.equals("utf-8") || name.equals("utf8") ? UTF8 : OTHER;
    }

    /** Checks {@code n} bytes from {@code off} as the continuation of the document's UTF-8. */
    private void utf8(byte[] b, int off, int n) throws IOException {
        for (int i = off; i < off + n; i++, position++) {
            int c = b[i] & 0xff;
            if (need > 0) {
                if (c < low || c > high) {
                    fail("feed is not valid UTF-8 at byte " + position);
                }
                need--;
                low = 0x80;
                high = 0xBF;
            } else if (c >= 0x80) {
                lead(c);
            }
        }
    }

    /** The first byte of a multi-byte sequence: how many follow, and the range of the next (RFC 3629). */
    private void lead(int c) throws IOException {
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            low = c == 0xE0 ? 0xA0 : 0x80; // E0 80..9F: overlong
            high = c == 0xED ? 0x9F : 0xBF; // ED A0..BF: a surrogate
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            low = c == 0xF0 ? 0x90 : 0x80; // F0 80..8F: overlong
            high = c == 0xF4 ? 0x8F : 0xBF; // F4 90..: past U+10FFFF
        } else {
            // a continuation byte without a lead, C0/C1 (always overlong), F5..FF
            fail("feed is not valid UTF-8 at byte " + position);
        }
    }

    private void fail(String why) throws IOException {
        fault = why;
        throw new CharConversionException(why);
    }
}
