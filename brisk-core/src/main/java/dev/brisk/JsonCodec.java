package dev.brisk;

/**
 * Converts between objects and JSON bytes (UTF-8). Core ships no implementation; {@code brisk-jackson}
 * provides one. Implementations must be thread-safe.
 */
public interface JsonCodec {
    /** Serializes {@code value} to UTF-8 JSON. */
    byte[] write(Object value);

    /**
     * Reads {@code type} from UTF-8 JSON.
     *
     * @throws RuntimeException any runtime exception when the input is not valid JSON for the type;
     *     the framework answers such a failure with {@code 400 Bad Request}
     */
    <T> T read(byte[] json, Class<T> type);
}
