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

    /**
     * {@return {@code value} checked as {@link #checkValue} does, without the spaces and tabs at its
     * ends} A field value does not include them (RFC 9110 section 5.5), and HTTP/2 forbids sending them
     * (RFC 9113 section 8.2.1: a strict client resets the stream), so they are taken off for every protocol.
     * The value itself is returned when it has none.
     */
    public static String value(String value) {
        checkValue(value);
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return start == 0 && end == value.length() ? value : value.substring(start, end);
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
