package dev.brisk.internal.form;

import dev.brisk.HttpException;
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
     * A part's {@code Content-Disposition}: {@code form-data} with a {@code name} and maybe a {@code filename}.
     *
     * @return the name and the file name (null when absent)
     * @throws HttpException 400 when it is not that
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
        return new String[] {name, p.get("filename")};
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
                    if (c == '\\') {
                        if (i == n) {
                            throw bad(what, "a quoted parameter value is not closed");
                        }
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
