package dev.brisk.internal.files;

/**
 * A static file read whole into {@code bytes} as the answer's body, with its {@link Resource#contentKey}:
 * left on the exchange (attribute {@link #ATTRIBUTE}) when the request is marked for compression, so
 * the encoding of those bytes may be kept and reused. It applies only while the answer's body is still
 * that very array: anything that replaced the body after the handler is not taken for the file.
 *
 * @param key the file's content key
 * @param bytes the body as the handler set it
 */
public record KeyedBytes(Object key, byte[] bytes) {
    /** The exchange attribute it is left under. */
    public static final String ATTRIBUTE = "dev.brisk.keyed-bytes";
}
