package dev.brisk.internal.form;

import dev.brisk.HttpException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads header values of the form {@code type; name=value; name="quoted value"} (RFC 9110 section
 * 5.6.6): a part's {@code Content-Disposition} and a request's {@code Content-Type} with its
 * {@code boundary}. Parameter names are case-insensitive and may appear once; values are tokens or
 * quoted strings (with {@code \} escapes). Stateless.
 */
final class Disposition {
    private Disposition() {
    }

    /**
     * A part's {@code Content-Disposition}: {@code form-data} with a {@code name} and maybe a file name.
     * RFC 7578 tells senders not to use {@code filename*}, but some do (older clients, hand-written
     * ones); when given, its RFC 8187 value ({@code UTF-8''%e2%82%ac.txt}) is decoded and wins over
     * {@code filename}, as RFC 6266 section 4.3 has it for downloads.
     *
     * @return the name and the file name (null when absent)
     * @throws HttpException 400 when it is not that, or a {@code filename*} is malformed
     */
    static String[] formData(String value) {
        Map<String, String> p = new LinkedHashMap<>();
        String type = parse(value, p, "multipart body (a part's Content-Disposition)");
        if (!type.equalsIgnoreCase("form-data")) {
            throw PartReader.malformed("a part's Content-Disposition is not form-data: " + type);
        }
        String name = p.get("name");
        if (name == null) {
            throw PartReader.malformed("a part's Content-Disposition has no name");
        }
        String extended = p.get("filename*");
        return new String[] {name, extended != null ? extValue(extended) : p.get("filename")};
    }

    /**
     * Decodes an RFC 8187 {@code ext-value}: {@code charset'[language]'value-chars}, where the value
     * is attr-chars and {@code %XX} octets. The charset must be UTF-8 or ISO-8859-1 (the two every
     * recipient must know); the language is ignored.
     *
     * @throws HttpException 400 naming the fault
     */
    static String extValue(String v) {
        int q1 = v.indexOf('\'');
        int q2 = q1 < 0 ? -1 : v.indexOf('\'', q1 + 1);
        if (q2 < 0) {
            throw PartReader.malformed("filename* is not charset'language'value");
        }
        String charsetName = v.substring(0, q1);
        Charset charset;
        if (charsetName.equalsIgnoreCase("UTF-8")) {
            charset = StandardCharsets.UTF_8;
        } else if (charsetName.equalsIgnoreCase("ISO-8859-1")) {
            charset = StandardCharsets.ISO_8859_1;
        } else {
            throw PartReader.malformed("filename*'s charset is not UTF-8 or ISO-8859-1: " + charsetName);
        }
        byte[] out = new byte[v.length() - q2 - 1];
        int n = 0;
        for (int i = q2 + 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '%') {
                int hi = i + 2 < v.length() ? hex(v.charAt(i + 1)) : -1;
                int lo = hi < 0 ? -1 : hex(v.charAt(i + 2));
                if (lo < 0) {
                    throw PartReader.malformed("filename* has a '%' not followed by two hex digits");
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (isAttrChar(c)) {
                out[n++] = (byte) c;
            } else {
                throw PartReader.malformed("filename* holds '" + c + "', which must be percent-encoded");
            }
        }
        String name;
        try {
            name = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out, 0, n)).toString();
        } catch (CharacterCodingException e) {
            throw PartReader.malformed("filename*'s octets are not " + charset.name());
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                // what a plain filename cannot hold (a header value's rule) must not come in percent-encoded
                throw PartReader.malformed("filename* holds a control character");
            }
        }
        return name;
    }

    /** An ASCII hex digit's value, else -1 ({@link Character#digit} would take other scripts' digits). */
    private static int hex(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /** RFC 8187's attr-char: a token character other than {@code * ' %}. */
    private static boolean isAttrChar(char c) {
        return isTchar(c) && c != '*' && c != '\'' && c != '%';
    }

    /**
     * Splits {@code value} into its type (returned, lower-cased) and its parameters (names lower-cased).
     *
     * @param what names the header in the 400's message
     */
    static String parse(String value, Map<String, String> params, String what) {
        int n = value.length();
        int i = 0;
        int semi = value.indexOf(';');
        String type = (semi < 0 ? value : value.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        if (type.isEmpty() || !isToken(type.replace("/", ""))) {
            throw bad(what, "its type is not a token");
        }
        i = semi < 0 ? n : semi;
        while (i < n) {
            i++; // past ';'
            i = skipOws(value, i);
            if (i == n) {
                break; // a trailing ';'
            }
            int eq = i;
            while (eq < n && isTchar(value.charAt(eq))) {
                eq++;
            }
            if (eq == i || eq == n || value.charAt(eq) != '=') {
                throw bad(what, "a parameter is not name=value");
            }
            String name = value.substring(i, eq).toLowerCase(Locale.ROOT);
            i = eq + 1;
            String v;
            if (i < n && value.charAt(i) == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (true) {
                    if (i == n) {
                        throw bad(what, "a quoted parameter value is not closed");
                    }
                    char c = value.charAt(i++);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\' && i < n && (value.charAt(i) == '"' || value.charAt(i) == '\\')) {
                        // an escape only before a quote or a backslash: browsers and curl escape nothing
                        // else (a quote they send as %22), and a Windows path's backslashes stay
                        c = value.charAt(i++);
                    }
                    b.append(c);
                }
                v = b.toString();
            } else {
                int s = i;
                while (i < n && isTchar(value.charAt(i))) {
                    i++;
                }
                if (i == s) {
                    throw bad(what, "a parameter has no value");
                }
                v = value.substring(s, i);
            }
            if (params.putIfAbsent(name, v) != null) {
                throw bad(what, "the parameter " + name + " is given twice");
            }
            i = skipOws(value, i);
            if (i < n && value.charAt(i) != ';') {
                throw bad(what, "parameters are not separated by ';'");
            }
        }
        return type;
    }

    private static HttpException bad(String what, String why) {
        return new HttpException.BadRequest("Malformed " + what + ": " + why);
    }

    private static int skipOws(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isTchar(s.charAt(i))) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /** Whether {@code c} may appear in a token (RFC 9110 section 5.6.2). */
    static boolean isTchar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || (c < 128 && c > 32 && "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
    }
}
