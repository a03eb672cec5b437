package dev.brisk.http2;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * A raw HTTP/2 client for wire tests: frames written byte by byte as a test wants them (hostile ones
 * included), frames read back one at a time. Header blocks are HPACK literals without Huffman coding,
 * so a test can see every byte it sends. Written for these tests, independent of the server's codec.
 */
final class H2Conn implements AutoCloseable {
    static final int DATA = 0, HEADERS = 1, PRIORITY = 2, RST_STREAM = 3, SETTINGS = 4, PING = 6, GOAWAY = 7,
            WINDOW_UPDATE = 8, CONTINUATION = 9;
    static final int END_STREAM = 1, ACK = 1, END_HEADERS = 4;
    static final int NO_ERROR = 0, PROTOCOL_ERROR = 1, FLOW_CONTROL_ERROR = 3, STREAM_CLOSED = 5, REFUSED_STREAM = 7,
            CANCEL = 8, COMPRESSION_ERROR = 9, ENHANCE_YOUR_CALM = 11;

    /** One frame read. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        boolean has(int flag) {
            return (flags & flag) != 0;
        }

        /** The error code of a RST_STREAM or GOAWAY. */
        int errorCode() {
            ByteBuffer b = ByteBuffer.wrap(payload);
            return type == GOAWAY ? b.getInt(4) : b.getInt(0);
        }

        /** The last stream id of a GOAWAY. */
        int lastStream() {
            return ByteBuffer.wrap(payload).getInt(0) & 0x7fffffff;
        }

        /**
         * The {@code :status} of a HEADERS frame the server sent (its encoder starts a block with
         * {@code :status}: a static index, or a literal on name index 8; table size updates may come first).
         */
        int status() {
            int i = 0;
            while ((payload[i] & 0xe0) == 0x20) { // dynamic table size updates (RFC 7541 6.3; at most two)
                if ((payload[i++] & 0x1f) == 0x1f) {
                    while ((payload[i++] & 0x80) != 0) {
                        // the integer's continuation bytes (5.1)
                    }
                }
            }
            int b = payload[i] & 0xff;
            if ((b & 0x80) != 0) {
                return switch (b & 0x7f) {
                    case 8 -> 200; case 9 -> 204; case 10 -> 206; case 11 -> 304;
                    case 12 -> 400; case 13 -> 404; case 14 -> 500;
                    default -> throw new IllegalStateException("not a :status index: " + (b & 0x7f));
                };
            }
            if (b != 0x08 || payload[i + 1] != 3) {
                throw new IllegalStateException("not a literal :status: " + b);
            }
            return Integer.parseInt(new String(payload, i + 2, 3, StandardCharsets.US_ASCII));
        }

        @Override
        public String toString() {
            return "Frame[type=" + type + " flags=" + flags + " stream=" + stream + " length=" + payload.length + "]";
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    /** Connects in the clear and sends the preface and an empty SETTINGS frame. */
    H2Conn(int port) throws IOException {
        this(port, true);
    }

    H2Conn(int port, boolean preface) throws IOException {
        this(port, preface, 0);
    }

    /**
     * Connects in the clear, with a socket receive buffer of {@code receiveBuffer} bytes (0: the
     * system's), and sends the preface and an empty SETTINGS frame when {@code preface}.
     */
    H2Conn(int port, boolean preface, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer); // before connecting: it sets the window offered
        }
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
        if (preface) {
            raw("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            frame(SETTINGS, 0, 0, new byte[0]);
        }
    }

    /** Sets how long a read waits for bytes before it throws {@link SocketTimeoutException} (10 s at first). */
    void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    void raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        raw(encode(type, flags, stream, payload));
    }

    static byte[] encode(int type, int flags, int stream, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(9 + payload.length);
        b.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(stream).put(payload);
        return b.array();
    }

    void settings(int... pairs) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(pairs.length * 3);
        for (int i = 0; i < pairs.length; i += 2) {
            b.putShort((short) pairs[i]).putInt(pairs[i + 1]);
        }
        frame(SETTINGS, 0, 0, b.array());
    }

    void headers(int stream, boolean endStream, byte[] block) throws IOException {
        frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), stream, block);
    }

    void get(int stream, String path) throws IOException {
        headers(stream, true, request("GET", path));
    }

    /** GETs of {@code paths} on streams {@code first}, {@code first + 2}..., in one write: they arrive together. */
    void gets(int first, String... paths) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < paths.length; i++) {
            b.writeBytes(encode(HEADERS, END_HEADERS | END_STREAM, first + 2 * i, request("GET", paths[i])));
        }
        raw(b.toByteArray());
    }

    /** {@code data} as DATA frames of at most 16 KiB (the frame size every peer accepts). */
    void data(int stream, boolean endStream, byte[] data) throws IOException {
        int off = 0;
        do {
            int n = Math.min(16_384, data.length - off);
            boolean last = off + n == data.length;
            frame(DATA, last && endStream ? END_STREAM : 0, stream, java.util.Arrays.copyOfRange(data, off, off + n));
            off += n;
        } while (off < data.length);
    }

    void rst(int stream, int code) throws IOException {
        frame(RST_STREAM, 0, stream, ByteBuffer.allocate(4).putInt(code).array());
    }

    void ping(long payload) throws IOException {
        frame(PING, 0, 0, ByteBuffer.allocate(8).putLong(payload).array());
    }

    void windowUpdate(int stream, int increment) throws IOException {
        frame(WINDOW_UPDATE, 0, stream, ByteBuffer.allocate(4).putInt(increment).array());
    }

    /** A request's header block: the four pseudo-header fields, then {@code more} name/value pairs. */
    static byte[] request(String method, String path, String... more) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        literal(b, ":method", method);
        literal(b, ":scheme", "http");
        literal(b, ":authority", "localhost");
        literal(b, ":path", path);
        for (int i = 0; i < more.length; i += 2) {
            literal(b, more[i], more[i + 1]);
        }
        return b.toByteArray();
    }

    /** A literal field without indexing, new name, no Huffman coding (RFC 7541 6.2.2). */
    static void literal(ByteArrayOutputStream b, String name, String value) {
        b.write(0);
        string(b, name);
        string(b, value);
    }

    /** A literal field with incremental indexing, new name (6.2.1): the peer's table keeps it. */
    static void indexed(ByteArrayOutputStream b, String name, String value) {
        b.write(0x40);
        string(b, name);
        string(b, value);
    }

    static void string(ByteArrayOutputStream b, String s) {
        byte[] v = s.getBytes(StandardCharsets.ISO_8859_1);
        integer(b, 0, 7, v.length);
        b.writeBytes(v);
    }

    static void integer(ByteArrayOutputStream b, int flags, int prefix, int v) {
        int max = (1 << prefix) - 1;
        if (v < max) {
            b.write(flags | v);
            return;
        }
        b.write(flags | max);
        v -= max;
        while (v >= 0x80) {
            b.write(v & 0x7f | 0x80);
            v >>>= 7;
        }
        b.write(v);
    }

    /** The next frame, or null at the end of the stream (or a reset). */
    Frame read() throws IOException {
        byte[] head = new byte[9];
        try {
            in.readFully(head);
        } catch (EOFException | java.net.SocketException e) {
            return null;
        }
        int len = (head[0] & 0xff) << 16 | (head[1] & 0xff) << 8 | head[2] & 0xff;
        byte[] payload = new byte[len];
        in.readFully(payload);
        int stream = ByteBuffer.wrap(head, 5, 4).getInt() & 0x7fffffff;
        return new Frame(head[3] & 0xff, head[4] & 0xff, stream, payload);
    }

    /** Reads frames until one matches; fails when the connection ends first, or after {@code timeout}. */
    Frame await(Duration timeout, Predicate<Frame> what) throws IOException {
        long end = System.nanoTime() + timeout.toNanos();
        java.util.List<Frame> skipped = new java.util.ArrayList<>();
        try {
            while (System.nanoTime() - end < 0) {
                Frame f = read();
                if (f == null) {
                    throw new EOFException("the connection ended before the frame looked for; skipped " + skipped);
                }
                if (what.test(f)) {
                    return f;
                }
                skipped.add(f);
            }
        } catch (SocketTimeoutException e) {
            throw new SocketTimeoutException("no such frame; skipped " + skipped);
        }
        throw new SocketTimeoutException("no such frame within " + timeout + "; skipped " + skipped);
    }

    Frame await(Predicate<Frame> what) throws IOException {
        return await(Duration.ofSeconds(10), what);
    }

    /**
     * The {@code :status} of each of {@code streams}, read in whatever order the answers come (handlers
     * on other threads finish in any order).
     */
    java.util.Map<Integer, Integer> statuses(int... streams) throws IOException {
        java.util.Map<Integer, Integer> got = new java.util.TreeMap<>();
        java.util.Set<Integer> wanted = new java.util.HashSet<>();
        for (int s : streams) {
            wanted.add(s);
        }
        while (!got.keySet().containsAll(wanted)) {
            Frame f = await(x -> x.type() == HEADERS && wanted.contains(x.stream()));
            got.put(f.stream(), f.status());
        }
        return got;
    }

    static Predicate<Frame> type(int type) {
        return f -> f.type() == type;
    }

    static Predicate<Frame> on(int type, int stream) {
        return f -> f.type() == type && f.stream() == stream;
    }

    /** Reads and drops frames until the server closes the connection; false when it stays open past {@code timeout}. */
    boolean closedWithin(Duration timeout) throws IOException {
        socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        try {
            while (read() != null) {
                // drained
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
