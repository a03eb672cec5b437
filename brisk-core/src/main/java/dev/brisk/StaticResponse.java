package dev.brisk;

import dev.brisk.internal.http.HeaderRules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A fixed response for {@link BriskConfig#fastGet}: its bytes are built once at start-up (and the
 * {@code Date} line once a second), then copied to the socket without creating request, context or
 * response objects. Immutable.
 */
public final class StaticResponse {
    private final int status;
    private final String contentType;
    private final byte[] body;
    private final List<String> headers;

    private StaticResponse(int status, String contentType, byte[] body, List<String> headers) {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("status must be 200-599: " + status);
        }
        if ((status == 204 || status == 304) && body.length > 0) {
            throw new IllegalArgumentException(status + " responses have no body");
        }
        this.status = status;
        this.contentType = HeaderRules.value(contentType);
        this.body = body.clone();
        this.headers = List.copyOf(headers);
    }

    /**
     * {@return a {@code 200 text/plain; charset=utf-8} response}
     *
     * @param text the body, encoded as UTF-8
     */
    public static StaticResponse text(String text) {
        return of(200, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@return a {@code 200 application/json} response}
     *
     * @param json the body, already JSON (not checked), encoded as UTF-8
     */
    public static StaticResponse json(String json) {
        return of(200, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@return a response with any status and body}
     *
     * @param status 200 to 599
     * @param contentType the {@code Content-Type} value
     * @param body the body, copied; must be empty for 204 and 304
     * @throws IllegalArgumentException for a status out of range, a body on 204/304 or an invalid content type
     */
    public static StaticResponse of(int status, String contentType, byte[] body) {
        return new StaticResponse(status, contentType, body, List.of());
    }

    /**
     * {@return a copy with one more header}
     *
     * @param name the header's name
     * @param value the header's value
     * @throws IllegalArgumentException when the name is not a token or the value has control characters
     */
    public StaticResponse withHeader(String name, String value) {
        HeaderRules.checkName(name);
        List<String> h = new ArrayList<>(headers);
        h.add(name);
        h.add(HeaderRules.value(value));
        return new StaticResponse(status, contentType, body, h);
    }

    /** {@return the status code} */
    public int status() {
        return status;
    }

    /** {@return the {@code Content-Type} value} */
    public String contentType() {
        return contentType;
    }

    /** {@return a copy of the body} */
    public byte[] body() {
        return body.clone();
    }

    /** {@return extra headers as name, value, name, value..} */
    public List<String> headers() {
        return headers;
    }

    @Override
    public String toString() {
        return "StaticResponse[" + status + ", " + contentType + ", " + body.length + " bytes, headers="
                + Arrays.toString(headers.toArray()) + "]";
    }
}
