package dev.brisk.internal.http;

/** Checks for response header names and values, so nothing unsafe is ever written. */
public final class HeaderRules {
    private HeaderRules() {
    }

    public static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("header name must not be empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c > 127 || !Ascii.isTchar(c)) {
                throw new IllegalArgumentException("invalid character in header name: " + name);
            }
        }
    }

    public static void checkValue(String value) {
        if (value == null) {
            throw new IllegalArgumentException("header value must not be null");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                throw new IllegalArgumentException("header value contains CR, LF, a control or non-Latin-1 character");
            }
        }
    }
}
