package dev.brisk.internal.web;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;

/** Reads the {@code charset} parameter of a media type, and tells JSON types from others. */
public final class MediaTypes {
    private MediaTypes() {
    }

    public static Charset charset(String contentType, Charset fallback) {
        if (contentType == null) {
            return fallback;
        }
        int i = 0;
        int n = contentType.length();
        while ((i = contentType.indexOf(';', i)) >= 0) {
            i++;
            while (i < n && (contentType.charAt(i) == ' ' || contentType.charAt(i) == '\t')) {
                i++;
            }
            if (contentType.regionMatches(true, i, "charset=", 0, 8)) {
                int s = i + 8;
                int e = contentType.indexOf(';', s);
                String name = (e < 0 ? contentType.substring(s) : contentType.substring(s, e)).trim();
                if (name.length() >= 2 && name.charAt(0) == '"' && name.charAt(name.length() - 1) == '"') {
                    name = name.substring(1, name.length() - 1);
                }
                try {
                    return Charset.forName(name);
                } catch (IllegalCharsetNameException | UnsupportedCharsetException e2) {
                    return fallback;
                }
            }
        }
        return fallback;
    }

    /** Whether {@code contentType} is {@code application/json} or a {@code +json} type, parameters aside. */
    static boolean isJson(String contentType) {
        int semi = contentType.indexOf(';');
        String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
        int slash = type.indexOf('/');
        if (slash <= 0 || slash == type.length() - 1) {
            return false;
        }
        return type.equalsIgnoreCase("application/json")
                || type.regionMatches(true, type.length() - 5, "+json", 0, 5);
    }
}
