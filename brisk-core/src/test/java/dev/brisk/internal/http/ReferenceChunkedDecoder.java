package dev.brisk.internal.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deliberately simple, whole-input decoder of a chunked body, the oracle of {@link ChunkedDecoderFuzzTest}:
 * the grammar of RFC 9112 section 7.1 as {@link ChunkedDecoder} documents it, written as regular
 * expressions over the bytes (as Latin-1 text), with no state machine and no limits.
 *
 * <pre>
 * body       = *chunk last-chunk trailer CRLF
 * chunk      = size [ext] CRLF data CRLF        size = *"0" 1*15HEXDIG (1 to 64 digits in all),
 *                                               data = size bytes
 * last-chunk = 1*64"0" [ext] CRLF
 * ext        = *(SP / HTAB) ";" *field-char      (skipped: only its bytes are counted)
 * trailer    = *(1*tchar ":" *field-char CRLF)   (checked and dropped)
 * </pre>
 *
 * A prefix of the input that is a whole body is accepted; an input that is a proper prefix of some body is
 * incomplete ({@link Matcher#hitEnd}: more bytes could still make the line match); anything else is invalid.
 * It also reports the sizes a limit would bound, as upper bounds of what the decoder counts: the longest
 * extension (from its first SP, HTAB or ';'), the trailer section (every byte of it) and the sum of the
 * chunk sizes read.
 */
final class ReferenceChunkedDecoder {
    private static final String FIELD_CHAR = "[\\t\\x20-\\x7e\\x80-\\xff]";
    private static final String TCHAR = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]";
    private static final Pattern SIZE_LINE = Pattern.compile(
            "(?=[0-9A-Fa-f]{1,64}(?![0-9A-Fa-f]))0*([0-9A-Fa-f]{1,15})((?:[ \\t]*;" + FIELD_CHAR + "*)?)\\r\\n");
    private static final Pattern TRAILER_LINE = Pattern.compile(TCHAR + "+:" + FIELD_CHAR + "*\\r\\n|\\r\\n");

    private ReferenceChunkedDecoder() {
    }

    enum Kind { DONE, INCOMPLETE, INVALID }

    /**
     * @param kind          done, incomplete or invalid
     * @param consumed      the body's length when done, else -1
     * @param data          the chunk data up to where the input ended or stopped being valid
     * @param longestExt    the longest extension seen, counted from its first SP, HTAB or ';' (a partial
     *                      one to its line's end)
     * @param trailerBytes  the trailer section's bytes seen, CRLFs included
     * @param declaredSize  the sum of the chunk sizes of the whole size lines read
     */
    record Result(Kind kind, int consumed, String data, int longestExt, int trailerBytes, long declaredSize) {
    }

    static Result decode(byte[] b) {
        String s = new String(b, StandardCharsets.ISO_8859_1);
        int n = s.length();
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        int longestExt = 0;
        long declared = 0;
        int pos = 0;
        while (true) {
            Matcher m = SIZE_LINE.matcher(s).region(pos, n);
            if (!m.lookingAt()) {
                longestExt = Math.max(longestExt, partialExtension(s, pos));
                return result(m.hitEnd() ? Kind.INCOMPLETE : Kind.INVALID, -1, data, longestExt, 0, declared);
            }
            long size = Long.parseLong(m.group(1), 16);
            longestExt = Math.max(longestExt, m.group(2).length());
            declared += size;
            pos = m.end();
            if (size == 0) {
                break;
            }
            if (n - pos < size) {
                data.write(b, pos, n - pos);
                return result(Kind.INCOMPLETE, -1, data, longestExt, 0, declared);
            }
            data.write(b, pos, (int) size);
            pos += (int) size;
            Kind end = expect(s, pos, "\r\n");
            if (end != Kind.DONE) {
                return result(end, -1, data, longestExt, 0, declared);
            }
            pos += 2;
        }
        int trailerStart = pos;
        while (true) {
            Matcher m = TRAILER_LINE.matcher(s).region(pos, n);
            if (!m.lookingAt()) {
                return result(m.hitEnd() ? Kind.INCOMPLETE : Kind.INVALID, -1, data, longestExt, n - trailerStart, declared);
            }
            pos = m.end();
            if (m.end() - m.start() == 2) { // the empty line: the end of the body
                return result(Kind.DONE, pos, data, longestExt, pos - trailerStart, declared);
            }
        }
    }

    private static Result result(Kind kind, int consumed, ByteArrayOutputStream data, int longestExt, int trailer,
                                 long declared) {
        return new Result(kind, consumed, data.toString(StandardCharsets.ISO_8859_1), longestExt, trailer, declared);
    }

    /** Done when {@code s} has {@code expected} at {@code pos}, incomplete when it ends inside it, else invalid. */
    private static Kind expect(String s, int pos, String expected) {
        for (int i = 0; i < expected.length(); i++) {
            if (pos + i == s.length()) {
                return Kind.INCOMPLETE;
            }
            if (s.charAt(pos + i) != expected.charAt(i)) {
                return Kind.INVALID;
            }
        }
        return Kind.DONE;
    }

    /** The length of what may be an extension in the size line at {@code pos}: from after the hex digits to CR, LF or the end. */
    private static int partialExtension(String s, int pos) {
        int i = pos;
        while (i < s.length() && isHex(s.charAt(i))) {
            i++;
        }
        int from = i;
        while (i < s.length() && s.charAt(i) != '\r' && s.charAt(i) != '\n') {
            i++;
        }
        return i - from;
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }
}
