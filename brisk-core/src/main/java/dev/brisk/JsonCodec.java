package dev.brisk;

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
     * @throws RuntimeException any runtime exception when the input is not valid JSON for the type;
     *     the framework answers such a failure with {@code 400 Bad Request}
     */
    <T> T read(byte[] json, Class<T> type);
}
