package dev.brisk.internal.http;

/** Byte classes of RFC 9110 and small ASCII helpers that never allocate. */
public final class Ascii {
    private Ascii() {
    }

    private static final boolean[] TCHAR = new boolean[256];
    private static final boolean[] FIELD_VCHAR = new boolean[256];
    private static final boolean[] TARGET = new boolean[256];
    private static final boolean[] HOST = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
        // field-vchar = VCHAR / obs-text; SP and HTAB are allowed inside a value
        for (int c = 0x21; c <= 0x7e; c++) {
            FIELD_VCHAR[c] = true;
            TARGET[c] = true;
        }
        for (int c = 0x80; c <= 0xff; c++) {
            FIELD_VCHAR[c] = true;
        }
        for (int c = 0; c < 128; c++) {
            HOST[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "-._~!$&'()*+,;=%:[]".indexOf(c) >= 0;
        }
        FIELD_VCHAR[' '] = true;
        FIELD_VCHAR['\t'] = true;
    }

    public static boolean isTchar(int b) {
        return TCHAR[b & 0xff];
    }

    public static boolean isFieldChar(int b) {
        return FIELD_VCHAR[b & 0xff];
    }

    /** A byte allowed in a Host value: uri-host (reg-name, IPv4, IP-literal) and port characters. */
    public static boolean isHostChar(int b) {
        return HOST[b & 0xff];
    }

    /** {@return whether {@code c} (a char, or a byte as it is signed) is a hex digit, either case} */
    public static boolean isHexDigit(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    public static boolean isTargetChar(int b) {
        return TARGET[b & 0xff];
    }

    /** Whether {@code b[off..off+len)} equals the lower-case ASCII {@code lower}, ignoring case. */
    public static boolean equalsIgnoreCase(byte[] b, int off, int len, String lower) {
        if (len != lower.length()) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            int c = b[off + i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** A Latin-1 string of {@code b[from..to)}; header bytes are ISO-8859-1 by RFC 9110. */
    @SuppressWarnings("deprecation")
    public static String latin1(byte[] b, int from, int to) {
        return new String(b, 0, from, to - from);
    }

    /**
     * Whether {@code s} equals {@code ascii} ignoring the case of ASCII letters only: unlike
     * {@link String#equalsIgnoreCase}, {@code "falſe"} (a long s) or {@code "lımıt"} (a dotless i) is
     * not {@code "false"} or {@code "limit"}.
     */
    public static boolean equalsIgnoreCase(String s, String ascii) {
        int n = s.length();
        if (n != ascii.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char a = s.charAt(i);
            char b = ascii.charAt(i);
            if (a != b && (a >= 0x80 || lower(a) != lower(b))) {
                return false;
            }
        }
        return true;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    /** Whether every char of {@code s} is ASCII: then its UTF-8 bytes are its chars, one each. */
    public static boolean isAscii(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** Puts the ASCII string {@code s} at {@code out}'s position (room for it is the caller's check). */
    public static void put(java.nio.ByteBuffer out, String s) {
        int n = s.length();
        if (out.hasArray()) {
            byte[] a = out.array();
            int p = out.arrayOffset() + out.position();
            for (int i = 0; i < n; i++) {
                a[p + i] = (byte) s.charAt(i);
            }
            out.position(out.position() + n);
        } else {
            for (int i = 0; i < n; i++) {
                out.put((byte) s.charAt(i));
            }
        }
    }
}
