package dev.brisk.jackson;

import dev.brisk.JsonBindingException;
import dev.brisk.JsonCodec;
import java.lang.reflect.Type;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.PropertyBindingException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link JsonCodec} on Jackson 3. Thread-safe; share one instance per app.
 *
 * <pre>{@code Brisk.create(cfg -> cfg.json(new JacksonJsonCodec()) ...)}</pre>
 *
 * <p>A body that does not fit is reported as a {@link JsonBindingException} with Jackson's line,
 * column and field path, and a reason that names JSON values and field names, never the server's
 * classes.
 */
public final class JacksonJsonCodec implements JsonCodec {
    /** Longest parser reason passed on: enough for Jackson's, bounded for the client and the log. */
    private static final int MAX_REASON = 200;

    private final JsonMapper mapper;

    /** A codec with Jackson's default mapper. */
    public JacksonJsonCodec() {
        this(JsonMapper.builder().build());
    }

    /**
     * A codec on a mapper configured by the caller.
     *
     * @param mapper used for every read and write; must not be reconfigured afterwards
     */
    public JacksonJsonCodec(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /** {@return the mapper this codec reads and writes with} */
    public JsonMapper mapper() {
        return mapper;
    }

    @Override
    public byte[] write(Object value) {
        return mapper.writeValueAsBytes(value);
    }

    @Override
    public <T> T read(byte[] json, Class<T> type) {
        try {
            return mapper.readValue(json, type);
        } catch (StreamReadException | MismatchedInputException e) {
            throw binding(e);
        }
    }

    /** Reads any type Jackson can construct from a {@link Type}, such as {@code List<Todo>}. */
    @Override
    public <T> T read(byte[] json, Type type) {
        try {
            return mapper.readValue(json, mapper.constructType(type));
        } catch (StreamReadException | MismatchedInputException e) {
            throw binding(e);
        }
    }

    /**
     * The client's part of Jackson's failure. Only syntax errors and mismatched input are the body's
     * fault; anything else (a type Jackson cannot construct) is the server's and propagates as is, its
     * message to the log only.
     */
    static JsonBindingException binding(JacksonException e) {
        TokenStreamLocation loc = e.getLocation();
        int line = loc == null ? 0 : loc.getLineNr();
        int column = loc == null ? 0 : loc.getColumnNr();
        return new JsonBindingException(reason(e), line, column, path(e.getPath()), e);
    }

    private static String reason(JacksonException e) {
        if (e instanceof PropertyBindingException p) {
            return "unknown field \"" + p.getPropertyName() + "\"";
        }
        if (e instanceof MismatchedInputException m) {
            // Jackson's own message names the target class: say what was expected in JSON terms
            String expected = m.getTargetType() == null ? "a different value" : expected(m.getTargetType());
            JsonToken found = m.getCurrentToken();
            return found == null ? "expected " + expected : "expected " + expected + ", found " + describe(found);
        }
        String msg = e.getOriginalMessage();
        if (msg == null) {
            return "invalid JSON";
        }
        int cut = msg.indexOf('\n');
        msg = cut < 0 ? msg : msg.substring(0, cut);
        int source = msg.indexOf(" (start marker at");
        msg = source < 0 ? msg : msg.substring(0, source);
        return msg.length() > MAX_REASON ? msg.substring(0, MAX_REASON) + "..." : msg;
    }

    private static String expected(Class<?> type) {
        if (type == String.class || type == char.class || type == Character.class || type.isEnum()) {
            return "a string";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "a boolean";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type.isArray() || java.util.Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "an object";
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT, END_OBJECT -> "an object";
            case START_ARRAY, END_ARRAY -> "an array";
            case VALUE_STRING, PROPERTY_NAME -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> "the end of input";
        };
    }

    /** {@code items[2].done}, from Jackson's path references; null at the root. */
    private static String path(List<JacksonException.Reference> refs) {
        if (refs == null || refs.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference r : refs) {
            if (r.getPropertyName() != null) {
                b.append(b.isEmpty() ? "" : ".").append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.isEmpty() ? null : b.toString();
    }
}
