package dev.brisk;

/** The request methods Brisk routes. Other methods are answered with {@code 501 Not Implemented}. */
public enum Method {
    GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS;

    private static final Method[] VALUES = values();

    /** The method named by {@code name} (case-sensitive, as HTTP methods are), or null. */
    public static Method of(String name) {
        for (Method m : VALUES) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }
}
