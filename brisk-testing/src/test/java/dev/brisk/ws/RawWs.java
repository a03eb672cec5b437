package dev.brisk.ws;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A WebSocket client on a raw socket, for the bytes a library would never send: any header bits, any
 * opcode, unmasked or mis-sized frames, split anywhere. Reads the server's frames back as they are.
 */
final class RawWs implements AutoCloseable {
    /** A frame as the server sent it. */
    record Frame(boolean fin, boolean rsv1, int opcode, byte[] payload) {
        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** The close code of a close frame (1005 when it carries none). */
        int closeCode() {
            return payload.length < 2 ? 1005 : ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
        }

        String closeReason() {
            return payload.length <= 2 ? "" : new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
        }
    }

    final Socket socket;
    final InputStream in;
    final OutputStream out;
    /** The 101's head (or the refusal's), as text. */
    final String head;
    private final Random random = new Random(42);
    private Inflater inflater;

    private RawWs(Socket socket, String head) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.head = head;
    }

    /** Opens a connection and sends a handshake with {@code extraHeaders} (CRLF-terminated lines). */
    static RawWs open(int port, String path, String extraHeaders) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        s.setTcpNoDelay(true);
        String key = Base64.getEncoder().encodeToString("0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n"
                + extraHeaders + "\r\n").getBytes(StandardCharsets.US_ASCII));
        return new RawWs(s, readHead(s.getInputStream()));
    }

    static RawWs open(int port, String path) throws IOException {
        return open(port, path, "");
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("connection closed in the response head: " + b);
            }
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1
                    : c == '\r' ? 1 : 0;
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    int status() {
        return Integer.parseInt(head.substring(9, 12));
    }

    /** A response header of the head, or null. */
    String header(String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    /** A frame's bytes: masked with a random key unless {@code masked} is false. */
    byte[] frame(boolean fin, int rsv, int opcode, byte[] payload, boolean masked) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        writeFrame(b, random, fin, rsv, opcode, payload, masked);
        return b.toByteArray();
    }

    /** Writes a frame to {@code b}, masked with a key from {@code random} unless {@code masked} is false. */
    static void writeFrame(ByteArrayOutputStream b, Random random, boolean fin, int rsv, int opcode, byte[] payload,
            boolean masked) {
        b.write((fin ? 0x80 : 0) | (rsv << 4) | opcode);
        int m = masked ? 0x80 : 0;
        int n = payload.length;
        if (n <= 125) {
            b.write(m | n);
        } else if (n <= 0xFFFF) {
            b.write(m | 126);
            b.write(n >>> 8);
            b.write(n);
        } else {
            b.write(m | 127);
            for (int i = 7; i >= 0; i--) {
                b.write((int) ((long) n >>> (8 * i)));
            }
        }
        byte[] key = new byte[4];
        random.nextBytes(key);
        if (masked) {
            b.writeBytes(key);
        }
        for (int i = 0; i < n; i++) {
            b.write(masked ? payload[i] ^ key[i & 3] : payload[i]);
        }
    }

    RawWs send(boolean fin, int rsv, int opcode, byte[] payload) throws IOException {
        out.write(frame(fin, rsv, opcode, payload, true));
        return this;
    }

    RawWs text(String s) throws IOException {
        return send(true, 0, 1, s.getBytes(StandardCharsets.UTF_8));
    }

    RawWs raw(byte[] bytes) throws IOException {
        out.write(bytes);
        return this;
    }

    /** Sends {@code bytes} a few at a time, flushed separately, so the server sees them split. */
    RawWs trickle(byte[] bytes, int piece) throws IOException {
        for (int i = 0; i < bytes.length; i += piece) {
            out.write(bytes, i, Math.min(piece, bytes.length - i));
            out.flush();
        }
        return this;
    }

    RawWs close(int code, String reason) throws IOException {
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[2 + r.length];
        p[0] = (byte) (code >>> 8);
        p[1] = (byte) code;
        System.arraycopy(r, 0, p, 2, r.length);
        return send(true, 0, 8, p);
    }

    /** The next frame from the server (bounded by the socket's 10 s timeout). */
    Frame read() throws IOException {
        int b0 = readByte();
        int b1 = readByte();
        if ((b1 & 0x80) != 0) {
            throw new AssertionError("a server frame must not be masked");
        }
        long len = b1 & 0x7F;
        if (len == 126) {
            len = (readByte() << 8) | readByte();
        } else if (len == 127) {
            len = 0;
            for (int i = 0; i < 8; i++) {
                len = (len << 8) | readByte();
            }
        }
        byte[] p = in.readNBytes((int) len);
        if (p.length != len) {
            throw new EOFException("frame cut short");
        }
        return new Frame((b0 & 0x80) != 0, (b0 & 0x40) != 0, b0 & 0x0F, p);
    }

    /** The next data frame, skipping pings the server may send; a compressed one is inflated. */
    Frame readData() throws IOException {
        while (true) {
            Frame f = read();
            if (f.opcode() == 9 || f.opcode() == 10) {
                continue;
            }
            if (f.rsv1()) {
                return new Frame(f.fin(), true, f.opcode(), inflate(f.payload()));
            }
            return f;
        }
    }

    /** Reads frames until the server's close, which it returns; fails if the connection ends first. */
    Frame readClose() throws IOException {
        for (int i = 0; i < 10_000; i++) {
            Frame f = read();
            if (f.opcode() == 8) {
                return f;
            }
        }
        throw new AssertionError("no close frame in 10,000 frames");
    }

    /** Whether the server ends the connection (end of stream or reset) within {@code millis}. */
    boolean endsWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        long deadline = System.nanoTime() + millis * 1_000_000L;
        try {
            while (System.nanoTime() < deadline) {
                if (in.read() < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    private int readByte() throws IOException {
        int c = in.read();
        if (c < 0) {
            throw new EOFException("connection closed");
        }
        return c;
    }

    /** {@code data} compressed as permessage-deflate sends it (no context kept), tail cut off. */
    static byte[] deflate(byte[] data) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(data);
        byte[] out = new byte[data.length + 1024];
        int n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        d.end();
        return java.util.Arrays.copyOf(out, n - 4);
    }

    byte[] inflate(byte[] data) throws IOException {
        if (inflater == null) {
            inflater = new Inflater(true);
        }
        inflater.setInput(data);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            boolean tail = false;
            while (true) {
                int n = inflater.inflate(buf);
                b.write(buf, 0, n);
                if (n == 0 && inflater.needsInput()) {
                    if (tail) {
                        break;
                    }
                    tail = true;
                    inflater.setInput(new byte[] {0, 0, (byte) 0xFF, (byte) 0xFF});
                }
            }
        } catch (java.util.zip.DataFormatException e) {
            throw new IOException(e);
        }
        return b.toByteArray();
    }

    @Override
    public void close() throws IOException {
        if (inflater != null) {
            inflater.end();
        }
        socket.close();
    }
}
