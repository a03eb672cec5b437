package dev.brisk.internal.http;

/**
 * Incremental, bounded parser of an HTTP/1.1 request head (RFC 9112): bytes in, state out, no socket.
 *
 * <p>Feed it the bytes of one request from its first byte with {@link #parse}; call again with more
 * bytes (same start, larger end) until it returns true. It resumes at the first unfinished line, so
 * data arriving a byte at a time costs at most one rescan of the current line. All offsets it reports
 * are relative to the request start, so the caller may move the bytes between calls.
 *
 * <p>Strict framing: everything that could let two parsers disagree about where a request ends is
 * rejected with {@link HttpParseException} (see the checks in {@link #parseField} and {@link #finish}).
 * Line ends are CRLF only. One instance per connection, reused through {@link #reset}; not thread-safe.
 */
public final class RequestParser {
    public static final int HTTP_1_0 = 10;
    public static final int HTTP_1_1 = 11;
    private static final int MAX_LEADING_EMPTY_LINES = 8;

    private static final int REQUEST_LINE = 0;
    private static final int HEADERS = 1;
    private static final int DONE = 2;

    private final int maxRequestLine;
    private final int maxHeaderSize;
    private final int maxHeaders;
    private final long maxBodySize;

    private int state;
    private int pos;
    private int emptyLines;
    private int headerBytes;

    private int methodStart;
    private int methodEnd;
    /** The request line said HEAD (false until it is parsed). */
    private boolean head;
    private int targetStart;
    private int targetEnd;
    private int pathStart;
    private int pathEnd;
    private int version;
    /** Four offsets per field; starts small and grows to {@code maxHeaders} fields as a head needs them. */
    private int[] fields;
    private int fieldCount;
    private long contentLength;
    private boolean transferEncoding;
    private boolean lastCodingChunked;
    private int chunkedCount;
    private boolean otherCoding;
    private boolean chunked;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    private boolean expectContinue;
    private boolean expectOther;
    private int hostCount;
    private int headEnd;

    private static final int INITIAL_FIELDS = 16;

    public RequestParser(int maxRequestLine, int maxHeaderSize, int maxHeaders, long maxBodySize) {
        this.maxRequestLine = maxRequestLine;
        this.maxHeaderSize = maxHeaderSize;
        this.maxHeaders = maxHeaders;
        this.maxBodySize = maxBodySize;
        // most heads have a handful of fields: a full-size array per connection would cost more than the rest of it
        this.fields = new int[Math.min(maxHeaders, INITIAL_FIELDS) * 4];
        reset();
    }

    /** Forgets the previous request; the next {@link #parse} starts a new one. */
    public void reset() {
        state = REQUEST_LINE;
        pos = 0;
        emptyLines = 0;
        headerBytes = 0;
        fieldCount = 0;
        contentLength = -1;
        transferEncoding = false;
        lastCodingChunked = false;
        chunkedCount = 0;
        otherCoding = false;
        chunked = false;
        connectionClose = false;
        connectionKeepAlive = false;
        expectContinue = false;
        expectOther = false;
        hostCount = 0;
        headEnd = 0;
        head = false;
    }

    /** Whether any byte of a request has been consumed (leading empty lines included). */
    public boolean started() {
        return pos > 0;
    }

    /**
     * Parses {@code b[start..end)}, the request's bytes so far.
     *
     * @return true when the head is complete ({@link #headEnd()} bytes long), false when more are needed
     * @throws HttpParseException when the request must be refused; the status says how
     */
    public boolean parse(byte[] b, int start, int end) throws HttpParseException {
        while (state != DONE) {
            int lineFrom = start + pos;
            int lf = -1;
            for (int i = lineFrom; i < end; i++) {
                if (b[i] == '\n') {
                    lf = i;
                    break;
                }
            }
            if (lf < 0) {
                checkPartialLine(b, lineFrom, end);
                return false;
            }
            boolean crlf = lf > lineFrom && b[lf - 1] == '\r';
            int lineEnd = crlf ? lf - 1 : lf;
            // limits first, exactly as for an unfinished line, so the answer never depends on how the
            // bytes arrived
            checkLineLength(b, lineFrom, lineEnd - lineFrom);
            if (!crlf) {
                throw new HttpParseException(400, "Line ends must be CRLF");
            }
            if (state == REQUEST_LINE) {
                if (lineEnd == lineFrom) {
                    if (++emptyLines > MAX_LEADING_EMPTY_LINES) {
                        throw new HttpParseException(400, "Too many empty lines before the request line");
                    }
                } else {
                    parseRequestLine(b, start, lineFrom, lineEnd);
                    state = HEADERS;
                }
            } else if (lineEnd == lineFrom) {
                headEnd = lf + 1 - start;
                finish(b, start);
                state = DONE;
            } else {
                headerBytes += lf + 1 - lineFrom;
                if (headerBytes > maxHeaderSize) {
                    throw new HttpParseException(431, "Request header block is larger than " + maxHeaderSize + " bytes");
                }
                if (fieldCount == maxHeaders) {
                    throw new HttpParseException(431, "More than " + maxHeaders + " request header fields");
                }
                parseField(b, start, lineFrom, lineEnd);
            }
            pos = lf + 1 - start;
        }
        return true;
    }

    private void checkPartialLine(byte[] b, int lineFrom, int end) throws HttpParseException {
        int len = end - lineFrom;
        if (len > 0 && b[end - 1] == '\r') {
            len--; // the CR of a line end whose LF has not arrived yet
        }
        checkLineLength(b, lineFrom, len);
    }

    /** A line of {@code len} bytes (without its line end) must fit the request-line or header limit. */
    private void checkLineLength(byte[] b, int lineFrom, int len) throws HttpParseException {
        if (state == REQUEST_LINE) {
            if (len > maxRequestLine) {
                throw requestLineTooLong(b, lineFrom);
            }
        } else if (len > 0 && headerBytes + len + 2 > maxHeaderSize) {
            throw new HttpParseException(431, "Request header block is larger than " + maxHeaderSize + " bytes");
        }
    }

    /**
     * 414 when the line has a target (a space within its first limit + 1 bytes, the bytes every caller
     * has), else 400: it is no request line.
     */
    private HttpParseException requestLineTooLong(byte[] b, int from) {
        for (int i = from, to = from + maxRequestLine + 1; i < to; i++) {
            if (b[i] == ' ') {
                return new HttpParseException(414, "Request target is longer than " + maxRequestLine + " bytes");
            }
        }
        return new HttpParseException(400, "Malformed request line");
    }

    private void parseRequestLine(byte[] b, int start, int from, int to) throws HttpParseException {
        int i = from;
        while (i < to && Ascii.isTchar(b[i])) {
            i++;
        }
        if (i == from || i >= to || b[i] != ' ') {
            throw new HttpParseException(400, "Malformed request line");
        }
        methodStart = from - start;
        methodEnd = i - start;
        head = MethodNames.same(b, from, i, "HEAD");
        int ts = ++i;
        while (i < to && b[i] != ' ') {
            if (!Ascii.isTargetChar(b[i])) {
                throw new HttpParseException(400, "Invalid character in request target");
            }
            i++;
        }
        if (i == ts || i >= to) {
            throw new HttpParseException(400, "Malformed request line");
        }
        targetStart = ts - start;
        targetEnd = i - start;
        i++;
        if (to - i != 8 || b[i] != 'H' || b[i + 1] != 'T' || b[i + 2] != 'T' || b[i + 3] != 'P' || b[i + 4] != '/'
                || !isDigit(b[i + 5]) || b[i + 6] != '.' || !isDigit(b[i + 7])) {
            throw new HttpParseException(400, "Malformed HTTP version");
        }
        int major = b[i + 5] - '0';
        int minor = b[i + 7] - '0';
        if (major == 1 && minor >= 1) {
            // RFC 9110 6.2: a higher minor version is served as the highest one we implement
            version = HTTP_1_1;
        } else if (major == 1 && minor == 0) {
            version = HTTP_1_0;
        } else {
            throw new HttpParseException(505, "HTTP version not supported");
        }
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private void parseField(byte[] b, int start, int from, int to) throws HttpParseException {
        byte first = b[from];
        if (first == ' ' || first == '\t') {
            throw new HttpParseException(400, "Obsolete line folding is not allowed");
        }
        int i = from;
        while (i < to && Ascii.isTchar(b[i])) {
            i++;
        }
        if (i == from || i == to || b[i] != ':') {
            if (i < to && i > from && (b[i] == ' ' || b[i] == '\t')) {
                throw new HttpParseException(400, "Whitespace between header name and colon");
            }
            throw new HttpParseException(400, "Invalid header name");
        }
        int nameEnd = i++;
        while (i < to && (b[i] == ' ' || b[i] == '\t')) {
            i++;
        }
        int vs = i;
        int ve = to;
        while (ve > vs && (b[ve - 1] == ' ' || b[ve - 1] == '\t')) {
            ve--;
        }
        for (int k = vs; k < ve; k++) {
            if (!Ascii.isFieldChar(b[k])) {
                throw new HttpParseException(400, "Invalid character in header value");
            }
        }
        int f = fieldCount * 4;
        if (f == fields.length) {
            fields = java.util.Arrays.copyOf(fields, Math.min(fields.length * 2, maxHeaders * 4));
        }
        fields[f] = from - start;
        fields[f + 1] = nameEnd - start;
        fields[f + 2] = vs - start;
        fields[f + 3] = ve - start;
        fieldCount++;
        int nameLen = nameEnd - from;
        switch (nameLen) {
            case 4 -> {
                if (Ascii.equalsIgnoreCase(b, from, 4, "host")) {
                    hostCount++;
                    checkHost(b, vs, ve);
                }
            }
            case 6 -> {
                if (Ascii.equalsIgnoreCase(b, from, 6, "expect")) {
                    if (Ascii.equalsIgnoreCase(b, vs, ve - vs, "100-continue")) {
                        expectContinue = true;
                    } else {
                        expectOther = true;
                    }
                }
            }
            case 10 -> {
                if (Ascii.equalsIgnoreCase(b, from, 10, "connection")) {
                    connectionTokens(b, vs, ve);
                }
            }
            case 14 -> {
                if (Ascii.equalsIgnoreCase(b, from, 14, "content-length")) {
                    contentLength(b, vs, ve);
                }
            }
            case 17 -> {
                if (Ascii.equalsIgnoreCase(b, from, 17, "transfer-encoding")) {
                    transferCodings(b, vs, ve);
                }
            }
            default -> {
            }
        }
    }

    private void contentLength(byte[] b, int vs, int ve) throws HttpParseException {
        int len = ve - vs;
        if (len == 0) {
            throw new HttpParseException(400, "Invalid Content-Length");
        }
        long v = 0;
        for (int i = vs; i < ve; i++) {
            byte c = b[i];
            if (!isDigit(c)) {
                throw new HttpParseException(400, "Invalid Content-Length");
            }
            if (v >= 100_000_000_000_000_000L) {
                throw new HttpParseException(400, "Invalid Content-Length"); // a 19th significant digit
            }
            v = v * 10 + (c - '0'); // leading zeros are allowed (1*DIGIT): the value counts, not the digits
        }
        if (contentLength >= 0 && contentLength != v) {
            throw new HttpParseException(400, "Conflicting Content-Length values");
        }
        contentLength = v;
    }

    // the current element of a comma-separated field value, set by nextElement (no allocation)
    private int elementStart;
    private int elementEnd;

    /**
     * Finds the list element starting at {@code i} in a value ending at {@code ve}, trimmed of OWS, into
     * {@link #elementStart}/{@link #elementEnd}; returns where the next element starts.
     */
    private int nextElement(byte[] b, int i, int ve) {
        int comma = i;
        while (comma < ve && b[comma] != ',') {
            comma++;
        }
        int s = i;
        int e = comma;
        while (s < e && (b[s] == ' ' || b[s] == '\t')) {
            s++;
        }
        while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
            e--;
        }
        elementStart = s;
        elementEnd = e;
        return comma + 1;
    }

    private void transferCodings(byte[] b, int vs, int ve) throws HttpParseException {
        transferEncoding = true;
        for (int i = vs; i <= ve; ) {
            i = nextElement(b, i, ve);
            int s = elementStart;
            int e = elementEnd;
            if (e > s) {
                int nameEnd = s;
                while (nameEnd < e && Ascii.isTchar(b[nameEnd])) {
                    nameEnd++;
                }
                if (nameEnd == s) {
                    throw new HttpParseException(400, "Malformed Transfer-Encoding");
                }
                boolean isChunked = nameEnd == e && Ascii.equalsIgnoreCase(b, s, e - s, "chunked");
                if (isChunked) {
                    chunkedCount++;
                } else {
                    otherCoding = true;
                }
                lastCodingChunked = isChunked;
            }
        }
    }

    private void connectionTokens(byte[] b, int vs, int ve) {
        for (int i = vs; i <= ve; ) {
            i = nextElement(b, i, ve);
            int len = elementEnd - elementStart;
            if (Ascii.equalsIgnoreCase(b, elementStart, len, "close")) {
                connectionClose = true;
            } else if (Ascii.equalsIgnoreCase(b, elementStart, len, "keep-alive")) {
                connectionKeepAlive = true;
            }
        }
    }

    private static void checkHost(byte[] b, int vs, int ve) throws HttpParseException {
        if (!validAuthority(b, vs, ve)) {
            throw new HttpParseException(400, "Malformed Host header");
        }
    }

    /**
     * Whether {@code b[from, to)} is {@code uri-host [ ":" port ]} (RFC 9110 7.2, RFC 3986 3.2.2): a
     * bracketed IP literal (an IPv6 zone after {@code %} allowed, RFC 6874), or a reg-name / IPv4
     * address (unreserved, sub-delims, whole %-escapes), then at most a port of at most 65535 (leading
     * zeros allowed). No user info. Empty is allowed (a target without an authority has an empty
     * Host), an empty host before a port is not.
     */
    static boolean validAuthority(byte[] b, int from, int to) {
        int i = from;
        if (i < to && b[i] == '[') {
            int close = ++i;
            boolean zone = false;
            while (close < to && b[close] != ']') {
                byte c = b[close];
                if (c == '%' && !zone) {
                    zone = true; // the zone: unreserved characters and escapes, checked loosely
                } else if (!(Ascii.isHexDigit(c) || c == ':' || c == '.' || c == 'v' || c == 'V'
                        || zone && (Ascii.isHostChar(c) && c != '[' && c != ':'))) {
                    return false;
                }
                close++;
            }
            if (close == to || close == i) {
                return false;
            }
            i = close + 1;
        } else {
            while (i < to && b[i] != ':') {
                byte c = b[i];
                if (c == '%') {
                    if (i + 2 >= to || !Ascii.isHexDigit(b[i + 1]) || !Ascii.isHexDigit(b[i + 2])) {
                        return false;
                    }
                    i += 3;
                    continue;
                }
                if (!Ascii.isHostChar(c) || c == '[' || c == ']') {
                    return false;
                }
                i++;
            }
        }
        if (i == to) {
            return true;
        }
        if (b[i] != ':' || i == from) {
            return false; // something after the host that is no port, or a port with no host
        }
        int port = 0;
        for (i++; i < to; i++) {
            if (!isDigit(b[i])) {
                return false;
            }
            port = port * 10 + (b[i] - '0');
            if (port > 65535) {
                return false;
            }
        }
        return true;
    }

    private void finish(byte[] b, int start) throws HttpParseException {
        if (version == HTTP_1_1 && hostCount == 0) {
            throw new HttpParseException(400, "Missing Host header");
        }
        if (hostCount > 1) {
            throw new HttpParseException(400, "More than one Host header");
        }
        if (transferEncoding) {
            if (version == HTTP_1_0) {
                throw new HttpParseException(400, "Transfer-Encoding is not allowed in HTTP/1.0");
            }
            if (contentLength >= 0) {
                throw new HttpParseException(400, "Content-Length together with Transfer-Encoding");
            }
            if (!lastCodingChunked) {
                throw new HttpParseException(400, "The last transfer coding must be chunked");
            }
            if (chunkedCount > 1) {
                throw new HttpParseException(400, "chunked applied more than once");
            }
            if (otherCoding) {
                throw new HttpParseException(501, "Transfer coding not implemented");
            }
            chunked = true;
        } else if (contentLength > maxBodySize) {
            throw new HttpParseException(413, "Request body is larger than " + maxBodySize + " bytes");
        }
        if (expectOther && version == HTTP_1_1) {
            throw new HttpParseException(417, "Only Expect: 100-continue is supported");
        }
        if (version == HTTP_1_0) {
            expectContinue = false;
        }
        locatePath(b, start);
    }

    /** Finds the path inside the target: origin-form, absolute-form or {@code *}. */
    private void locatePath(byte[] b, int start) throws HttpParseException {
        int ts = start + targetStart;
        int te = start + targetEnd;
        int p;
        if (b[ts] == '/') {
            p = ts;
        } else if (te - ts == 1 && b[ts] == '*') {
            if (!MethodNames.same(b, start + methodStart, start + methodEnd, "OPTIONS")) {
                throw new HttpParseException(400, "The asterisk target is for OPTIONS only"); // RFC 9112 3.2.4
            }
            pathStart = targetStart;
            pathEnd = targetEnd;
            return;
        } else if (startsWithScheme(b, ts, te)) {
            int authority = indexOf(b, ts, te, ':') + 3;
            p = authority;
            while (p < te && b[p] != '/' && b[p] != '?') {
                p++;
            }
            if (p == authority) {
                throw new HttpParseException(400, "Absolute-form target without a host");
            }
            if (!validAuthority(b, authority, p)) {
                throw new HttpParseException(400, "Malformed host in the request target");
            }
        } else if (MethodNames.same(b, start + methodStart, start + methodEnd, "CONNECT")) {
            throw new HttpParseException(501, "CONNECT is not supported"); // authority-form: a tunnel, not a resource
        } else {
            throw new HttpParseException(400, "Malformed request target");
        }
        int q = p;
        while (q < te && b[q] != '?') {
            if (b[q] == '#') {
                throw new HttpParseException(400, "Fragment in request target");
            }
            q++;
        }
        for (int i = q; i < te; i++) {
            if (b[i] == '#') {
                throw new HttpParseException(400, "Fragment in request target");
            }
        }
        pathStart = p - start;
        pathEnd = q - start;
    }

    private static boolean startsWithScheme(byte[] b, int ts, int te) {
        return (te - ts > 7 && Ascii.equalsIgnoreCase(b, ts, 7, "http://"))
                || (te - ts > 8 && Ascii.equalsIgnoreCase(b, ts, 8, "https://"));
    }

    private static int indexOf(byte[] b, int from, int to, char c) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    // ---- results (valid once parse returned true; offsets relative to the request start) ----

    /** Length of the head, final CRLF included. */
    public int headEnd() { return headEnd; }
    /** Whether the request being parsed (or just parsed) is a HEAD request: known once its request line is. */
    public boolean head() { return head; }
    public int methodStart() { return methodStart; }
    public int methodEnd() { return methodEnd; }
    public int targetStart() { return targetStart; }
    public int targetEnd() { return targetEnd; }
    /** Start of the path in the target ({@code /...}); for absolute-form, after the authority. */
    public int pathStart() { return pathStart; }
    /** End of the path: the {@code ?} or the end of the target. */
    public int pathEnd() { return pathEnd; }
    /** {@link #HTTP_1_1} or {@link #HTTP_1_0}. */
    public int version() { return version; }
    public int fieldCount() { return fieldCount; }
    /** Field i's name start, name end, value start, value end at {@code [4i .. 4i+3]}. */
    /** The field offsets of the last head; the array may be replaced by a later, larger head. */
    public int[] fields() { return fields; }
    /** The Content-Length, or -1 when absent. */
    public long contentLength() { return contentLength; }
    public boolean chunked() { return chunked; }
    /** Whether a body follows the head. */
    public boolean hasBody() { return chunked || contentLength > 0; }
    public boolean expectContinue() { return expectContinue; }
    /** Whether the connection may carry another request after this one. */
    public boolean keepAlive() {
        return !connectionClose && (version == HTTP_1_1 || connectionKeepAlive);
    }
}
