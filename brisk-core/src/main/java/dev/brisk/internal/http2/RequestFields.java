package dev.brisk.internal.http2;

import dev.brisk.Method;
import dev.brisk.internal.http.Ascii;
import dev.brisk.internal.http.MethodNames;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import java.util.Arrays;

/**
 * A request's decoded header list, checked as RFC 9113 8.2 and 8.3 ask, and turned into the shape an
 * {@link Exchange} reads: the fields' bytes in one array with four offsets per field, the target
 * given by offsets into the same array. Pseudo-header fields must come first, once each, and only
 * the request ones; names must be lower-case tokens; values must hold no NUL, CR, LF nor other
 * control characters, nor start or end with white space; connection-specific fields are refused, as
 * is {@code te} other than {@code trailers}. A request that breaks any of these is malformed (a
 * stream error). A list larger than {@code maxListSize} (counted as HPACK counts: 32 per field plus
 * name and value), with more than {@code maxFields} fields, or whose regular fields would make a
 * larger header block than {@code maxHeaderBytes} as HTTP/1.1 lines ({@code name: value} and CRLF, as
 * {@code max-header-size} counts them there) is too large (a 431): its fields stop being kept, but
 * decoding goes on, as the connection's HPACK state needs. {@code :authority} is
 * added as a {@code host} field when the request has none, so handlers see the same header either
 * way.
 *
 * <p>Loop thread only; one per connection, {@link #reset} per header block; its arrays are reused, so
 * what it hands out is copied.
 */
final class RequestFields implements HpackDecoder.Sink {
    private final int maxListSize;
    private final int maxFields;
    private final int maxHeaderBytes;
    /** The regular fields' size as HTTP/1.1 header lines. */
    private int headerBytes;
    private boolean trailers;
    private byte[] head;
    private int len;
    private int[] fields;
    private int fieldCount;
    private int listSize;
    private boolean regularSeen;
    private String malformed;
    private boolean tooLarge;
    /** What {@link #tooLarge} broke, for the 431's message. */
    private String tooLargeWhy;
    // pseudo-header fields: offsets into head, -1 when absent
    private int methodStart;
    private int methodEnd;
    private int pathStart;
    private int pathEnd;
    private int authorityStart;
    private int authorityEnd;
    private boolean scheme;
    private boolean host;
    private int hostStart;
    private int hostEnd;
    private boolean expectContinue;
    /** An {@code expect} field other than {@code 100-continue}. */
    private boolean expectOther;
    private long contentLength;

    RequestFields(int maxListSize, int maxFields, int maxHeaderBytes) {
        this.maxListSize = maxListSize;
        this.maxFields = maxFields;
        this.maxHeaderBytes = maxHeaderBytes;
    }

    /** Starts a header block: a request's ({@code trailers} false) or its trailers'. */
    void reset(boolean trailers) {
        this.trailers = trailers;
        if (head == null || head.length > 16 * 1024) {
            head = new byte[512]; // reused block after block; an exchange gets an exact copy
            fields = new int[64];
        }
        len = 0;
        fieldCount = 0;
        listSize = 0;
        headerBytes = 0;
        regularSeen = false;
        malformed = null;
        tooLarge = false;
        methodStart = -1;
        methodEnd = -1;
        pathStart = -1;
        pathEnd = -1;
        authorityStart = -1;
        scheme = false;
        host = false;
        expectContinue = false;
        expectOther = false;
        contentLength = -1;
    }

    @Override
    public void field(byte[] name, int no, int nl, byte[] value, int vo, int vl) {
        listSize += nl + vl + 32;
        if (nl == 0 || name[no] != ':') {
            headerBytes += nl + vl + 4; // "name: value" CRLF
        }
        if (!tooLarge && (listSize > maxListSize || fieldCount >= maxFields || headerBytes > maxHeaderBytes)) {
            tooLarge = true;
            // said as HTTP/1.1 says it where the limit is the same one
            tooLargeWhy = headerBytes > maxHeaderBytes ? "Request header block is larger than " + maxHeaderBytes + " bytes"
                    : fieldCount >= maxFields ? "More than " + maxFields + " request header fields"
                    : "Request header list is larger than " + maxListSize + " bytes";
        }
        if (malformed != null || tooLarge) {
            return; // only the list's size still matters
        }
        if (nl > 0 && name[no] == ':') {
            pseudo(name, no, nl, value, vo, vl);
            return;
        }
        regularSeen = true;
        if (!validName(name, no, nl)) {
            malformed = "invalid header field name";
            return;
        }
        if (!validValue(value, vo, vl)) {
            malformed = "invalid header field value";
            return;
        }
        if (connectionSpecific(name, no, nl, value, vo, vl)) {
            malformed = "connection-specific header field";
            return;
        }
        if (trailers) {
            return; // checked, not kept: no handler reads trailers
        }
        if (nl == 14 && Ascii.equalsIgnoreCase(name, no, nl, "content-length") && !contentLength(value, vo, vl)) {
            return;
        }
        if (nl == 4 && Ascii.equalsIgnoreCase(name, no, nl, "host")) {
            // one host, a well-formed one; its match with :authority is checked once both are read
            if (host || !validAuthority(value, vo, vl)) {
                malformed = host ? "more than one host field" : "invalid host field";
                return;
            }
            host = true;
            addField(name, no, nl, value, vo, vl);
            hostStart = fields[(fieldCount - 1) * 4 + 2];
            hostEnd = fields[(fieldCount - 1) * 4 + 3];
            return;
        }
        if (nl == 6 && Ascii.equalsIgnoreCase(name, no, nl, "expect")) {
            if (Ascii.equalsIgnoreCase(value, vo, vl, "100-continue")) {
                expectContinue = true;
            } else {
                expectOther = true; // answered 417, as over HTTP/1.1
            }
        }
        addField(name, no, nl, value, vo, vl);
    }

    private void pseudo(byte[] name, int no, int nl, byte[] value, int vo, int vl) {
        if (trailers) {
            malformed = "pseudo-header field in trailers";
            return;
        }
        if (regularSeen) {
            malformed = "pseudo-header field after a regular field";
            return;
        }
        int start = put(value, vo, vl);
        if (nl == 7 && same(name, no, ":method")) {
            if (methodStart >= 0 || vl == 0 || !allTchar(value, vo, vl)) {
                malformed = "duplicate or invalid :method";
                return;
            }
            methodStart = start;
            methodEnd = start + vl;
        } else if (nl == 5 && same(name, no, ":path")) {
            if (pathStart >= 0 || vl == 0 || !validPath(value, vo, vl)) {
                malformed = "duplicate, empty or invalid :path";
                return;
            }
            pathStart = start;
            pathEnd = start + vl;
        } else if (nl == 7 && same(name, no, ":scheme")) {
            if (scheme || vl == 0) {
                malformed = "duplicate or empty :scheme";
                return;
            }
            scheme = true;
        } else if (nl == 10 && same(name, no, ":authority")) {
            if (authorityStart >= 0 || !validAuthority(value, vo, vl)) {
                malformed = "duplicate or invalid :authority";
                return;
            }
            authorityStart = start;
            authorityEnd = start + vl;
        } else {
            malformed = "unknown or response pseudo-header field";
        }
    }

    /** The block is decoded: checks what must be there. */
    void finish() {
        if (malformed != null || tooLarge || trailers) {
            return;
        }
        if (methodStart < 0) {
            malformed = "missing :method";
        } else if (isConnect()) {
            if (authorityStart < 0 || scheme || pathStart >= 0) {
                malformed = "CONNECT needs :authority and no :scheme or :path";
            }
        } else if (!scheme || pathStart < 0) {
            malformed = "missing :scheme or :path";
        }
        if (malformed == null && host && authorityStart >= 0
                && !sameIgnoringCase(head, hostStart, hostEnd, authorityStart, authorityEnd)) {
            // two names for the request's target: which one a handler or a proxy believes is a smuggling aid (8.3.1)
            malformed = "host differs from :authority";
        }
    }

    /** Why the request is malformed (a stream error), or null. */
    String malformed() {
        return malformed;
    }

    /** Whether the list went past the limits (answered 431). */
    boolean tooLarge() {
        return tooLarge;
    }

    /** {@return which limit a list {@link #tooLarge} broke, as the 431's message} */
    String tooLargeWhy() {
        return tooLargeWhy;
    }

    /**
     * {@return the length of the HTTP/1.1 request line this request stands for ({@code method SP path
     * SP HTTP/1.1}), which {@code max-request-line} bounds on both protocols alike}
     */
    int requestLineLength() {
        return (methodEnd - methodStart) + 1 + (pathStart < 0 ? 0 : pathEnd - pathStart) + 9;
    }

    /** Whether the request is a HEAD (its answers, the engine's refusals too, have no body). */
    boolean isHead() {
        return methodEnd - methodStart == 4 && same(head, methodStart, "HEAD");
    }

    /** Whether the request is a CONNECT (not served). */
    boolean isConnect() {
        return methodEnd - methodStart == 7 && same(head, methodStart, "CONNECT");
    }

    /** Whether the client waits for {@code 100 Continue} before it sends the body. */
    boolean expectContinue() {
        return expectContinue;
    }

    /** Whether the request asked for an expectation other than {@code 100-continue} (none is met). */
    boolean expectOther() {
        return expectOther;
    }

    /** The {@code content-length}, or -1 when the request has none. */
    long contentLength() {
        return contentLength;
    }

    /** The request as an exchange owned by {@code owner}; call after {@link #finish} found it well-formed. */
    Exchange exchange(ExchangeOwner owner) {
        if (!host && authorityStart >= 0) {
            // handlers read Host as in HTTP/1.1: :authority stands for it (RFC 9113 8.3.1)
            int s = put(HOST, 0, 4);
            addOffsets(s, s + 4, authorityStart, authorityEnd);
        }
        String method = MethodNames.of(head, methodStart, methodEnd);
        int query = pathStart;
        while (query < pathEnd && head[query] != '?') {
            query++;
        }
        // exact copies: this scratch serves the next block, the exchange keeps what it needs and no more
        return new Exchange(owner, Arrays.copyOf(head, len), 0, len, Arrays.copyOf(fields, fieldCount * 4), fieldCount,
                method, Method.of(method), pathStart, query, pathEnd, true, false);
    }

    private static final byte[] HOST = {'h', 'o', 's', 't'};

    private void addField(byte[] name, int no, int nl, byte[] value, int vo, int vl) {
        int n = put(name, no, nl);
        int v = put(value, vo, vl);
        addOffsets(n, n + nl, v, v + vl);
    }

    private void addOffsets(int ns, int ne, int vs, int ve) {
        int f = fieldCount * 4;
        if (f == fields.length) {
            fields = Arrays.copyOf(fields, fields.length * 2);
        }
        fields[f] = ns;
        fields[f + 1] = ne;
        fields[f + 2] = vs;
        fields[f + 3] = ve;
        fieldCount++;
    }

    /** Copies {@code a[off..off+n)} into the head; returns where it starts. */
    private int put(byte[] a, int off, int n) {
        if (len + n > head.length) {
            head = Arrays.copyOf(head, Math.max(len + n, head.length * 2));
        }
        System.arraycopy(a, off, head, len, n);
        int start = len;
        len += n;
        return start;
    }

    private boolean contentLength(byte[] v, int off, int n) {
        long value = 0;
        if (n == 0 || n > 18) {
            malformed = "invalid content-length";
            return false;
        }
        for (int i = off; i < off + n; i++) {
            if (v[i] < '0' || v[i] > '9') {
                malformed = "invalid content-length";
                return false;
            }
            value = value * 10 + (v[i] - '0');
        }
        if (contentLength >= 0 && contentLength != value) {
            malformed = "conflicting content-length";
            return false;
        }
        contentLength = value;
        return true;
    }

    private static boolean validName(byte[] a, int off, int n) {
        if (n == 0) {
            return false;
        }
        for (int i = off; i < off + n; i++) {
            byte c = a[i];
            if (c >= 'A' && c <= 'Z' || !Ascii.isTchar(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean validValue(byte[] a, int off, int n) {
        if (n > 0 && (isSpace(a[off]) || isSpace(a[off + n - 1]))) {
            return false;
        }
        for (int i = off; i < off + n; i++) {
            if (!Ascii.isFieldChar(a[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t';
    }

    private static boolean connectionSpecific(byte[] name, int no, int nl, byte[] value, int vo, int vl) {
        return switch (nl) {
            case 2 -> same(name, no, "te") && !(vl == 8 && Ascii.equalsIgnoreCase(value, vo, vl, "trailers"));
            case 7 -> same(name, no, "upgrade");
            case 10 -> same(name, no, "connection") || same(name, no, "keep-alive");
            case 16 -> same(name, no, "proxy-connection");
            case 17 -> same(name, no, "transfer-encoding");
            default -> false;
        };
    }

    private static boolean allTchar(byte[] a, int off, int n) {
        for (int i = off; i < off + n; i++) {
            if (!Ascii.isTchar(a[i])) {
                return false;
            }
        }
        return true;
    }

    /** An origin-form path ({@code /...}) or {@code *}, of visible ASCII. */
    private static boolean validPath(byte[] a, int off, int n) {
        if (a[off] != '/' && !(n == 1 && a[off] == '*')) {
            return false;
        }
        for (int i = off; i < off + n; i++) {
            if (!Ascii.isTargetChar(a[i]) || a[i] == '#') { // no fragment in a request target (RFC 9112 3.2)
                return false;
            }
        }
        return true;
    }

    /** Whether {@code a[s1..e1)} and {@code a[s2..e2)} are the same ASCII text, in any case. */
    private static boolean sameIgnoringCase(byte[] a, int s1, int e1, int s2, int e2) {
        if (e1 - s1 != e2 - s2) {
            return false;
        }
        for (int i = 0; i < e1 - s1; i++) {
            int x = a[s1 + i];
            int y = a[s2 + i];
            if (x != y && ((x | 0x20) != (y | 0x20) || (x | 0x20) < 'a' || (x | 0x20) > 'z')) {
                return false;
            }
        }
        return true;
    }

    private static boolean validAuthority(byte[] a, int off, int n) {
        for (int i = off; i < off + n; i++) {
            if (!Ascii.isHostChar(a[i])) { // no userinfo (8.3.1)
                return false;
            }
        }
        return true;
    }

    private static boolean same(byte[] a, int off, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (a[off + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
