package dev.brisk.internal.http;

import dev.brisk.Method;

/** A request's method token as a string: one of the {@link Method} names without allocating, else a new one. */
public final class MethodNames {
    private static final Method[] METHODS = Method.values();

    private MethodNames() {
    }

    /** The method in {@code a[s..e)}. Methods are case-sensitive: {@code get} is not {@code GET}. */
    public static String of(byte[] a, int s, int e) {
        for (Method m : METHODS) {
            if (same(a, s, e, m.name())) {
                return m.name();
            }
        }
        return Ascii.latin1(a, s, e);
    }

    /** Whether {@code a[s..e)} is the method {@code name} (methods are case-sensitive). */
    static boolean same(byte[] a, int s, int e, String name) {
        if (e - s != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (a[s + i] != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
