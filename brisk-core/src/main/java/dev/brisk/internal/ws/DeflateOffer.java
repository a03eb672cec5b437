package dev.brisk.internal.ws;

import java.util.ArrayList;
import java.util.List;

/**
 * Negotiates permessage-deflate (RFC 7692) from a handshake's {@code Sec-WebSocket-Extensions}: the
 * first offer this server can accept wins; an offer with an unknown, repeated or malformed parameter
 * is declined and the next one tried.
 *
 * <p>What the server agrees to: {@code server_no_context_takeover} whenever the client asks, and also
 * unasked unless {@code ws-compression-context-takeover} is on (each message is then compressed on
 * its own by a shared compressor, instead of each session keeping one, about 256 KiB of native memory);
 * {@code client_no_context_takeover} when offered (the client's choice); {@code server_max_window_bits}
 * of any value 8-15: the JDK's compressor always uses a 32 KiB window, so below 15 a message is
 * compressed only when it is no longer than the window (no back-reference can then reach further) and
 * on its own, else sent uncompressed, which the extension allows for any message. The decompressor
 * takes any window up to 15 bits, so {@code client_max_window_bits} needs no answer.
 *
 * @param serverNoContext whether the server's compressor forgets each message (no back-references across)
 * @param clientNoContext whether the client promised the same for its messages
 * @param serverWindowBits the window the server's back-references must stay within (15: the most)
 * @param response the {@code Sec-WebSocket-Extensions} value of the {@code 101}
 */
record DeflateOffer(boolean serverNoContext, boolean clientNoContext, int serverWindowBits, String response) {
    static final String NAME = "permessage-deflate";

    /**
     * The offer accepted from {@code headers} (the request's {@code Sec-WebSocket-Extensions} values), or
     * null when there is none this server accepts.
     *
     * @param contextTakeover whether the server may keep its compressor's context across messages
     */
    static DeflateOffer negotiate(List<String> headers, boolean contextTakeover) {
        for (String header : headers) {
            for (String element : split(header, ',')) {
                List<String> parts = split(element, ';');
                if (parts.isEmpty() || !parts.get(0).trim().equalsIgnoreCase(NAME)) {
                    continue;
                }
                DeflateOffer d = accept(parts.subList(1, parts.size()), contextTakeover);
                if (d != null) {
                    return d;
                }
            }
        }
        return null;
    }

    private static DeflateOffer accept(List<String> params, boolean contextTakeover) {
        boolean serverNoContext = false;
        boolean clientNoContext = false;
        boolean clientBits = false;
        int serverBits = -1;
        for (String raw : params) {
            String p = raw.trim();
            int eq = p.indexOf('=');
            String name = (eq < 0 ? p : p.substring(0, eq)).trim().toLowerCase(java.util.Locale.ROOT);
            String value = eq < 0 ? null : unquote(p.substring(eq + 1).trim());
            switch (name) {
                case "server_no_context_takeover" -> {
                    if (value != null || serverNoContext) {
                        return null;
                    }
                    serverNoContext = true;
                }
                case "client_no_context_takeover" -> {
                    if (value != null || clientNoContext) {
                        return null;
                    }
                    clientNoContext = true;
                }
                case "server_max_window_bits" -> {
                    if (serverBits != -1 || value == null || bits(value) < 0) {
                        return null;
                    }
                    serverBits = bits(value);
                }
                case "client_max_window_bits" -> {
                    if (clientBits || (value != null && bits(value) < 0)) {
                        return null;
                    }
                    clientBits = true;
                }
                default -> {
                    return null;
                }
            }
        }
        boolean noContext = serverNoContext || !contextTakeover;
        StringBuilder r = new StringBuilder(NAME);
        if (noContext) {
            r.append("; server_no_context_takeover");
        }
        if (clientNoContext) {
            r.append("; client_no_context_takeover");
        }
        if (serverBits != -1) {
            r.append("; server_max_window_bits=").append(serverBits);
        }
        return new DeflateOffer(noContext, clientNoContext, serverBits == -1 ? 15 : serverBits, r.toString());
    }

    /** A window size of 8-15 bits, as digits; -1 otherwise. */
    private static int bits(String v) {
        if (v.length() == 1 && v.charAt(0) >= '8' && v.charAt(0) <= '9') {
            return v.charAt(0) - '0';
        }
        if (v.length() == 2 && v.charAt(0) == '1' && v.charAt(1) >= '0' && v.charAt(1) <= '5') {
            return 10 + v.charAt(1) - '0';
        }
        return -1;
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"' ? v.substring(1, v.length() - 1) : v;
    }

    /** Splits at {@code sep} outside quoted strings. */
    private static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == sep && !quoted) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
