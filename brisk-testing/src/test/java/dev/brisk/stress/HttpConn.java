package dev.brisk.stress;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A small buffered HTTP/1.1 client over a plain socket for the stress tests (the raw-socket helper
 * of brisk-testing reads byte by byte, which is too slow for tens of thousands of responses). Every
 * connect and read is bounded by a timeout.
 */
final class HttpConn implements AutoCloseable {
    static final int DEFAULT_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private HttpConn(Socket socket, int timeoutMs) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(timeoutMs);
        socket.setTcpNoDelay(true);
        this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        this.out = socket.getOutputStream();
    }

    static HttpConn open(int port) {
        return open(port, DEFAULT_TIMEOUT_MS);
    }

    static HttpConn open(int port, int timeoutMs) {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            return new HttpConn(s, timeoutMs);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // failed anyway
            }
            throw new UncheckedIOException(e);
        }
    }

    /** A response; header names lower-cased. */
    record Resp(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        boolean connectionClose() {
            return "close".equalsIgnoreCase(header("connection"));
        }
    }

    HttpConn timeout(int millis) {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    Socket socket() {
        return socket;
    }

    HttpConn send(String ascii) {
        return send(ascii.getBytes(StandardCharsets.ISO_8859_1));
    }

    HttpConn send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    static String get(String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    }

    /** Sends a keep-alive GET and reads its response. */
    Resp get1(String target) {
        send(get(target));
        return read();
    }

    /** Reads one response (not to HEAD). Throws on timeout or when the connection ends first. */
    Resp read() {
        return read(false);
    }

    /** The connection ended (end of stream or reset) before the first byte of a response. */
    static final class NoResponseException extends UncheckedIOException {
        private static final long serialVersionUID = 1L;

        NoResponseException(IOException cause) {
            super(cause);
        }
    }

    /**
     * Reads one response; {@code head}: it answers a HEAD request, so no body follows. Throws
     * {@link NoResponseException} when the connection ends before the response starts.
     */
    Resp read(boolean head) {
        try {
            in.mark(1);
            int first;
            try {
                first = in.read();
            } catch (SocketTimeoutException e) {
                throw e;
            } catch (IOException e) {
                throw new NoResponseException(e);
            }
            if (first == -1) {
                throw new NoResponseException(new IOException("connection closed before a response"));
            }
            in.reset();
            String statusLine = line();
            if (statusLine == null) {
                throw new IOException("connection closed before a response");
            }
            String[] parts = statusLine.split(" ", 3);
            int status = Integer.parseInt(parts[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            String l;
            while ((l = line()) != null && !l.isEmpty()) {
                int colon = l.indexOf(':');
                headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
            }
            byte[] body;
            if (head || status == 204 || status == 304 || (status >= 100 && status < 200)) {
                body = new byte[0];
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = chunked();
            } else if (headers.containsKey("content-length")) {
                int len = Integer.parseInt(headers.get("content-length"));
                body = in.readNBytes(len);
                if (body.length < len) {
                    throw new IOException("connection closed inside a body");
                }
            } else {
                body = in.readAllBytes();
            }
            return new Resp(status, headers, new String(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line();
            if (sizeLine == null) {
                throw new IOException("connection closed inside a chunked body");
            }
            int semi = sizeLine.indexOf(';');
            int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
            if (size == 0) {
                String t;
                while ((t = line()) != null && !t.isEmpty()) {
                    // trailers dropped
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            line();
        }
    }

    private String line() throws IOException {
        StringBuilder b = new StringBuilder(64);
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int n = b.length();
                return n > 0 && b.charAt(n - 1) == '\r' ? b.substring(0, n - 1) : b.toString();
            }
            b.append((char) c);
        }
        return b.isEmpty() ? null : b.toString();
    }

    /**
     * Whether the server ended the connection (end of stream or reset) within {@code millis}; bytes
     * read meanwhile are dropped. False when it is still open at the deadline.
     */
    boolean closedWithin(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        try {
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    return false;
                }
                socket.setSoTimeout((int) Math.max(1, left));
                try {
                    if (in.read() == -1) {
                        return true;
                    }
                } catch (SocketTimeoutException e) {
                    return false;
                }
            }
        } catch (IOException e) {
            return true; // reset
        }
    }

    /**
     * Whether an answer starts within {@code millis}: its first byte is waited for and left unread (a
     * {@link #read} follows); false when nothing came in that time. The read timeout is {@code millis}
     * afterwards.
     */
    boolean answersWithin(long millis) {
        try {
            socket.setSoTimeout((int) millis);
            in.mark(1);
            int c = in.read();
            if (c < 0) {
                throw new AssertionError("connection was closed");
            }
            in.reset();
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            throw new AssertionError("connection was reset", e);
        }
    }

    /** Whether a read gives nothing within {@code millis} (no byte, no end of stream). */
    boolean silentFor(long millis) {
        try {
            socket.setSoTimeout((int) millis);
            int c = in.read();
            throw new AssertionError(c == -1 ? "connection was closed" : "unexpected byte " + c);
        } catch (SocketTimeoutException e) {
            return true;
        } catch (IOException e) {
            throw new AssertionError("connection was reset", e);
        }
    }

    /** Closes with an RST instead of a FIN (SO_LINGER 0). */
    void reset() {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // closing anyway
        }
        close();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
