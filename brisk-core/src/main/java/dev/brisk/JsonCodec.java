package dev.brisk;

import java.lang.reflect.Type;

/**
 * Converts between objects and JSON bytes (UTF-8). Core ships no implementation; {@code brisk-jackson}
 * provides one. Implementations must be thread-safe.
 */
public interface JsonCodec {
    /**
     * Serializes {@code value} to UTF-8 JSON. Called on the handler's thread.
     *
     * @param value the value to write; may be null
     * @return the JSON bytes; not null
     */
    byte[] write(Object value);

    /**
     * Reads {@code type} from UTF-8 JSON. Called on the handler's thread.
     *
     * @param <T> the type to read
     * @param json the request body
     * @param type the class to read
     * @return the value read
     * @throws JsonBindingException when the input is not valid JSON for the type, best with where and
     *     why: the framework answers {@code 400 Bad Request} with its message. Any other runtime
     *     exception is answered with a {@code 400} too, but only logged (at DEBUG), not shown to the client
     */
    <T> T read(byte[] json, Class<T> type);

    /**
     * Reads a generic {@code type} (such as {@code List<Todo>}, from a {@code ParameterizedType}) from
     * UTF-8 JSON. The default reads plain classes through {@link #read(byte[], Class)} and refuses
     * anything else; codecs that can bind generic types override it.
     *
     * @param <T> the type read
     * @param json the UTF-8 JSON bytes
     * @param type the type to bind to
     * @return the value read
     * @throws JsonBindingException when the input is not valid JSON for the type
     * @throws UnsupportedOperationException when this codec cannot read {@code type} (a server error,
     *     answered with {@code 500}, not a client one)
     */
    @SuppressWarnings("unchecked")
    default <T> T read(byte[] json, Type type) {
        if (type instanceof Class<?> c) {
            return (T) read(json, c);
        }
        throw new UnsupportedOperationException(getClass().getName() + " reads no generic types: " + type);
    }
}
