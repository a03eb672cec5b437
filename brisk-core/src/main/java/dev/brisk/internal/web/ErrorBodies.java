package dev.brisk.internal.web;

import dev.brisk.internal.http.StatusLines;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The body of the framework's own error answers (an {@link dev.brisk.HttpException}'s, 404, 405, 415,
 * 500, 501, the dispatcher's 503): JSON when the request's {@code Accept} prefers
 * {@code application/json}, else plain text (the message alone, as it always was). The JSON is
 * written here, not by the app's codec: core has no JSON library, and an error must not depend on one.
 */
public final class ErrorBodies {
    /** The content type of a JSON error body. */
    public static final String JSON = "application/json";

    private ErrorBodies() {
    }

    /**
     * Whether an error answer to {@code ex} is JSON (its {@code Accept} prefers it: {@link #prefersJson});
     * also for the engine's own refusals of a request whose head was read whole.
     */
    public static boolean jsonFor(Exchange ex) {
        return prefersJson(acceptOf(ex));
    }

    /** Sets {@code status} and its body for {@code message} (null: empty) on {@code ex}. */
    static void answer(Exchange ex, int status, String message) {
        ex.status(status);
        String msg = message == null ? "" : message;
        if (prefersJson(acceptOf(ex))) {
            ex.body(JSON, json(status, msg));
        } else {
            ex.text(msg);
        }
    }

    private static String acceptOf(Exchange ex) {
        try {
            return dev.brisk.internal.http.FieldLists.joined(ex.headers("Accept"));
        } catch (IllegalStateException released) {
            return null; // no head to read any more: the plain answer
        }
    }

    /**
     * Whether {@code accept} prefers {@code application/json} to {@code text/plain}: by q-value of the
     * most specific range matching each (exact, {@code type/*}, {@code *}{@code /*}), a tie going to the
     * range listed first ({@code application/json, text/plain, *}{@code /*} is JSON). Never for a range
     * matching both alike (a bare {@code *}{@code /*}).
     */
    static boolean prefersJson(String acceptHeader) {
        if (acceptHeader == null) {
            return false;
        }
        String accept = acceptHeader.toLowerCase(Locale.ROOT); // media types are case-insensitive
        if (accept.indexOf("json") < 0 && accept.indexOf("application/*") < 0 && accept.indexOf("q=") < 0) {
            // the common cases, without parsing: */*, text/plain. With a q-value JSON may still win
            // through */* over a text range given less (text/plain;q=0, */*)
            return false;
        }
        // [specificity, q in thousandths, index] of the best range for each
        int[] json = {0, 0, Integer.MAX_VALUE};
        int[] text = {0, 0, Integer.MAX_VALUE};
        int index = 0;
        for (String range : accept.split(",")) {
            int semi = range.indexOf(';');
            String type = (semi < 0 ? range : range.substring(0, semi)).trim();
            int q = semi < 0 ? 1000 : qOf(range.substring(semi + 1));
            consider(json, type, "application/json", "application/*", q, index);
            consider(text, type, "text/plain", "text/*", q, index);
            index++;
        }
        if (json[0] == 0 || json[1] == 0) {
            return false;
        }
        return json[1] > text[1] || (json[1] == text[1] && json[2] < text[2]);
    }

    private static void consider(int[] best, String range, String exact, String wildcard, int q, int index) {
        int specificity = range.equals(exact) ? 3 : range.equals(wildcard) ? 2 : range.equals("*/*") ? 1 : 0;
        if (specificity > best[0]) {
            best[0] = specificity;
            best[1] = q;
            best[2] = index;
        }
    }

    /** The {@code q} parameter in thousandths; 1000 when absent, 0 when malformed. */
    private static int qOf(String params) {
        for (String p : params.split(";")) {
            String t = p.trim();
            if (t.length() > 2 && (t.charAt(0) == 'q' || t.charAt(0) == 'Q') && t.charAt(1) == '=') {
                try {
                    double q = Double.parseDouble(t.substring(2).trim());
                    return q >= 0 && q <= 1 ? (int) Math.round(q * 1000) : 0;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1000;
    }

    /** {@code {"status":404,"error":"Not Found","message":"..."}} in UTF-8. */
    public static byte[] json(int status, String message) {
        StringBuilder b = new StringBuilder(48 + message.length());
        b.append("{\"status\":").append(status).append(",\"error\":");
        quote(b, StatusLines.reason(status));
        b.append(",\"message\":");
        quote(b, message);
        return b.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Appends {@code s} as a JSON string (RFC 8259: quote, backslash and control characters escaped). */
    static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    // controls must be escaped; U+2028/9 too, so the body is also safe as JavaScript
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
