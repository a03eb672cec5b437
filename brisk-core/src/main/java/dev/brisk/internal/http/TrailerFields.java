package dev.brisk.internal.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A response's trailer fields, made by the handler's supplier once the body is out, checked as headers
 * are and against the fields that may not be trailers (RFC 9110 6.5.1: framing, and what decides how
 * the content is processed). Used by HTTP/1.1 (after the last chunk) and HTTP/2 (a last HEADERS frame).
 */
public final class TrailerFields {
    private TrailerFields() {
    }

    /**
     * Calls {@code supplier} and checks what it gives: name, value, name, value...
     *
     * @throws IllegalArgumentException for a field that may not be sent as a trailer
     * @throws RuntimeException what the supplier threw
     */
    public static List<String> make(Supplier<Map<String, String>> supplier) {
        Map<String, String> fields = supplier.get();
        if (fields == null || fields.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(fields.size() * 2);
        for (Map.Entry<String, String> f : fields.entrySet()) {
            String name = f.getKey();
            HeaderRules.checkName(name);
            if (forbidden(name)) {
                throw new IllegalArgumentException(name + " may not be sent as a trailer field");
            }
            out.add(name);
            out.add(HeaderRules.value(f.getValue()));
        }
        return out;
    }

    private static boolean forbidden(String name) {
        return name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                || name.equalsIgnoreCase("Connection") || name.equalsIgnoreCase("Date")
                || name.equalsIgnoreCase("Content-Type") || name.equalsIgnoreCase("Content-Encoding")
                || name.equalsIgnoreCase("Content-Range") || name.equalsIgnoreCase("Trailer")
                || name.equalsIgnoreCase("Keep-Alive") || name.equalsIgnoreCase("Upgrade")
                || name.equalsIgnoreCase("TE") || name.equalsIgnoreCase("Host")
                || name.equalsIgnoreCase("Proxy-Connection");
    }

    /** HTTP/1.1's end of a chunked body with {@code fields} (from {@link #make}): the last chunk, the fields, CRLF. */
    public static byte[] lastChunk(List<String> fields) {
        StringBuilder b = new StringBuilder(32 + fields.size() * 16).append("0\r\n");
        for (int i = 0; i < fields.size(); i += 2) {
            b.append(fields.get(i)).append(": ").append(fields.get(i + 1)).append("\r\n");
        }
        return b.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
