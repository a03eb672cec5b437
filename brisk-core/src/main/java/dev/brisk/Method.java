package dev.brisk;

/** The request methods Brisk routes. Other methods are answered with {@code 501 Not Implemented}. */
public enum Method {
    /** {@code GET}. */
    GET,
    /** {@code HEAD}: answered by a {@code GET} route when no {@code HEAD} route matches. */
    HEAD,
    /** {@code POST}. */
    POST,
    /** {@code PUT}. */
    PUT,
    /** {@code DELETE}. */
    DELETE,
    /** {@code PATCH}. */
    PATCH,
    /** {@code OPTIONS}. */
    OPTIONS;

    private static final Method[] VALUES = values();

    /**
     * {@return the method named by {@code name}, or null when Brisk does not route it}
     *
     * @param name the method as sent, case-sensitive as HTTP methods are
     */
    public static Method of(String name) {
        for (Method m : VALUES) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }
}
