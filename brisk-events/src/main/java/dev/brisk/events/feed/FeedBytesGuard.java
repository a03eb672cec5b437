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
 * <li>No token longer than {@value #MAX_TOKEN} code units: from one {@code <} that opens markup to the
 * next, a tag with its attributes and the text after it. A raw {@code >} may stand in an attribute or a
 * text, so only {@code <} counts, and not inside a comment, a CDATA section or a processing instruction,
 * which may hold a raw {@code <}: those are tokens of their own to their end; after a {@code <!} that
 * opens neither (a DOCTYPE, refused by the reader once read, its literals may hold {@code <}) nothing
 * starts a new token. Code units of the document's
 * encoding (two bytes in UTF-16, four in UTF-32), so a byte 0x3C inside another character is not a
 * {@code <}. The parser holds a token whole (an attribute value as chars, twice its bytes), so one 200
 * MB attribute inside the size bound ran a 512 MiB heap out of memory and killed the poller.
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
    private static final int TEXT = 0;
    private static final int OPENED = 1;
    private static final int COMMENT = 2;
    private static final int CDATA = 3;
    private static final int PI = 4;
    private static final int DECLARATION = 5;
    private static final String COMMENT_OPEN = "!--";
    private static final String CDATA_OPEN = "![CDATA[";

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
    /** Code units since the last {@code <} that opened markup. */
    private int token;
    /** The document's code unit in bytes (1: UTF-8 and single-byte encodings; 2: UTF-16; 4: UTF-32), and its byte order. */
    private int unitSize = 1;
    private boolean bigEndian = true;
    private int unitBytes;
    private int unit;
    /** Where in markup the last units were: {@link #TEXT}, after a {@code <}, or inside a comment, CDATA or PI. */
    private int markup = TEXT;
    /** How much of the opening ({@code !--}, {@code ![CDATA[}) or closing ({@code -->}, {@code ]]>}, {@code ?>}) is matched. */
    private int matched;
    /** The opening being matched after {@code <!-} or {@code <![}, or null. */
    private String opening;
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
                known(prolog, 0, prologLength);
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
        if (encoding == UNKNOWN) {
            int take = Math.min(n, PROLOG_MAX - prologLength);
            System.arraycopy(b, off, prolog, prologLength, take);
            prologLength += take;
            decide(false);
            if (encoding != UNKNOWN) { // what was held back while the encoding was not known, then the rest
                known(prolog, 0, prologLength);
                known(b, off + take, n - take);
            }
        } else {
            known(b, off, n);
        }
    }

    /** Bytes of a document whose encoding is known: its tokens bounded, its UTF-8 checked. */
    private void known(byte[] b, int off, int n) throws IOException {
        tokens(b, off, n);
        if (encoding == UTF8) {
            utf8(b, off, n);
        }
    }

    private void tokens(byte[] b, int off, int n) throws IOException {
        for (int i = off; i < off + n; i++) {
            if (unitSize == 1) {
                unit = b[i] & 0xff;
            } else {
                int v = b[i] & 0xff;
                unit = bigEndian ? unit << 8 | v : unit | v << (8 * unitBytes);
                if (++unitBytes < unitSize) {
                    continue;
                }
                unitBytes = 0;
            }
            int c = unit;
            unit = 0;
            markup(c); // a '<' that opens markup starts the count again, itself its first unit
            if (++token > maxToken) {
                fail("feed has a tag or text longer than " + maxToken + " characters");
            }
        }
    }

    /** One code unit through the markup states: where a {@code <} opens a token and where it does not. */
    private void markup(int c) {
        switch (markup) {
            case TEXT -> opened(c);
            case OPENED -> {
                if (matched == 0 && c == '?') {
                    markup = PI;
                } else if (matched == 0 && c == '!') {
                    matched = 1;
                } else if (matched == 1 && (c == '-' || c == '[')) {
                    opening = c == '-' ? COMMENT_OPEN : CDATA_OPEN;
                    matched = 2;
                } else if (matched >= 2 && c == opening.charAt(matched)) {
                    matched++;
                } else if (matched == 1) {
                    // "<!" not opening a comment or CDATA: a DOCTYPE, which the reader refuses, but only once the
                    // parser has read it, literals and all, which may hold '<': nothing ends this token any more
                    markup = DECLARATION;
                    return;
                } else {
                    markup = TEXT; // a tag, an end tag: the token goes on to the next '<'
                    opened(c);
                    return;
                }
                if (opening != null && matched == opening.length()) {
                    markup = opening.equals(COMMENT_OPEN) ? COMMENT : CDATA;
                    matched = 0;
                }
            }
            case DECLARATION -> {
                // counted to the end of the document: one declaration over the bound is refused
            }
            case COMMENT -> close(c, "-->");
            case CDATA -> close(c, "]]>");
            default -> close(c, "?>");
        }
    }

    /** In text: a {@code <} opens markup, and a new token with it. */
    private void opened(int c) {
        if (c == '<') {
            token = 0;
            markup = OPENED;
            matched = 0;
            opening = null;
        }
    }

    /** Inside a comment, CDATA or PI: back to text once {@code end} is matched (its '<'s open nothing). */
    private void close(int c, String end) {
        if (c == end.charAt(matched)) {
            matched++;
        } else {
            // a repeat of the first character keeps a partial match going ("--->", "]]]>")
            matched = c == end.charAt(0) ? (matched > 0 && end.charAt(0) == end.charAt(1) ? matched : 1) : 0;
        }
        if (matched == end.length()) {
            markup = TEXT;
            matched = 0;
        }
    }

    /**
     * Settles the encoding from the prolog when it can (or must: {@code end}, or the prolog full): a UTF-16
     * or UTF-32 byte-order mark or layout of {@code <} sets the code unit; a document in bytes is UTF-8
     * unless its declaration names another encoding, the name read as the parser reads it ({@code UTF_8}
     * and {@code csUTF8} are UTF-8 to it).
     */
    private void decide(boolean end) {
        byte[] p = prolog;
        int n = prologLength;
        if (n < 4 && !end) {
            return; // a byte-order mark or a UTF-16/32 layout takes up to four bytes
        }
        int b0 = n > 0 ? p[0] & 0xff : -1;
        int b1 = n > 1 ? p[1] & 0xff : -1;
        int b2 = n > 2 ? p[2] & 0xff : -1;
        int b3 = n > 3 ? p[3] & 0xff : -1;
        if (b0 == 0 && b1 == 0 && (b2 == 0xFE && b3 == 0xFF || b2 == 0 && b3 == '<')) {
            other(4, true);
        } else if ((b0 == 0xFF && b1 == 0xFE || b0 == '<' && b1 == 0) && b2 == 0 && b3 == 0) {
            other(4, false);
        } else if (b0 == 0xFE && b1 == 0xFF || b0 == 0 && b1 == '<') {
            other(2, true);
        } else if (b0 == 0xFF && b1 == 0xFE || b0 == '<' && b1 == 0) {
            other(2, false);
        } else {
            fromDeclaration(end);
        }
    }

    private void other(int size, boolean bigEndianOrder) {
        encoding = OTHER;
        unitSize = size;
        bigEndian = bigEndianOrder;
    }

    /** A document in bytes: UTF-8 unless its declaration names another encoding. */
    private void fromDeclaration(boolean end) {
        byte[] p = prolog;
        int n = prologLength;
        int start = n >= 3 && p[0] == (byte) 0xEF && p[1] == (byte) 0xBB && p[2] == (byte) 0xBF ? 3 : 0;
        String head = new String(p, start, n - start, StandardCharsets.ISO_8859_1);
        // a declaration is "<?xml" and white space ("<?xml-x" is a processing instruction, which the parser
        // reads as UTF-8 whatever it says): undecided while the bytes so far could still begin one
        if (head.length() < 6 && "<?xml".startsWith(head.substring(0, Math.min(5, head.length())))) {
            if (end || n == PROLOG_MAX) {
                encoding = UTF8;
            }
            return;
        }
        if (!head.startsWith("<?xml") || head.charAt(5) > ' ') {
            encoding = UTF8; // no declaration: UTF-8 by XML's rule
            return;
        }
        int close = head.indexOf("?>");
        if (close < 0) {
            if (end || n == PROLOG_MAX) {
                encoding = UTF8; // no end to the declaration within reach: checked as UTF-8
            }
            return;
        }
        String declaration = head.substring(0, close);
        int at = declaration.indexOf("encoding");
        int q = at < 0 ? declaration.length() : at + "encoding".length();
        while (q < declaration.length() && " =\t\r\n".indexOf(declaration.charAt(q)) >= 0) {
            q++;
        }
        int e = q < declaration.length() ? declaration.indexOf(declaration.charAt(q), q + 1) : -1;
        if (e < 0 || (declaration.charAt(q) != '"' && declaration.charAt(q) != '\'')) {
            encoding = UTF8; // none named (or malformed, which the parser refuses): UTF-8
            return;
        }
        String name = declaration.substring(q + 1, e).toLowerCase(Locale.ROOT).replaceAll("[-_\\s]", "");
        if (name.startsWith("cs")) {
            name = name.substring(2);
        }
        // the parser's own rule: a name that reads "utf8" this way is its UTF-8 (lax), any other encoding is
        // decoded by the JDK (windows-1251, Shift_JIS...), whose decoders have no overlong forms to let through
        encoding = name.equals("utf8") ? UTF8 : OTHER;
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
