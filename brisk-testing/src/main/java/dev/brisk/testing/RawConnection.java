package dev.brisk.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A plain socket for wire tests: write exact bytes, read responses one at a time (framed by
 * Content-Length, chunked coding or close), and observe whether the server closed the connection.
 * Every read is bounded by a timeout (default 5 s), so a test never hangs.
 */
public final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.socket.setSoTimeout(5_000);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Connects, with a 5 s read timeout.
     *
     * @param host the server's address
     * @param port the server's port
     * @return the open connection; the caller closes it
     * @throws UncheckedIOException when the connection cannot be made
     */
    public static RawConnection open(String host, int port) {
        try {
            return new RawConnection(new Socket(host, port));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A parsed response. Header names are lower-cased; repeated headers keep the last value.
     *
     * @param status the status code
     * @param statusLine the whole status line, without CRLF
     * @param headers lower-cased name to the last value
     * @param bodyBytes the body after any chunked coding was removed
     * @param trailers the trailer fields after a chunked body, lower-cased name to the last value
     */
    public record Response(int status, String statusLine, Map<String, String> headers, byte[] bodyBytes,
            Map<String, String> trailers) {
        /**
         * A response without trailer fields.
         *
         * @param status the status code
         * @param statusLine the status line as sent
         * @param headers lower-cased name to the last value
         * @param bodyBytes the body
         */
        public Response(int status, String statusLine, Map<String, String> headers, byte[] bodyBytes) {
            this(status, statusLine, headers, bodyBytes, Map.of());
        }

        /**
         * {@return the last value of a trailer field, or null}
         *
         * @param name the field's name, any case
         */
        public String trailer(String name) {
            return trailers.get(name.toLowerCase(Locale.ROOT));
        }

        /** {@return the body decoded as UTF-8} */
        public String body() {
            return new String(bodyBytes, StandardCharsets.UTF_8);
        }

        /**
         * {@return the last value of a response header, or null}
         *
         * @param name the header's name, any case
         */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * Sets the read timeout of every later read.
     *
     * @param millis the timeout; 0 waits forever, which a test should not do
     * @return this connection
     */
    public RawConnection timeout(int millis) {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * Writes {@code ascii} as Latin-1 bytes and flushes.
     *
     * @param ascii the bytes to write, one char each
     * @return this connection
     */
    public RawConnection send(String ascii) {
        return send(ascii.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Writes {@code bytes} and flushes.
     *
     * @param bytes the bytes to write
     * @return this connection
     * @throws UncheckedIOException when the write fails, e.g. the server closed
     */
    public RawConnection send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * Half-closes: the server sees end of input.
     *
     * @return this connection
     */
    public RawConnection shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** {@return one response to a request that was not HEAD, read to its end} */
    public Response read() {
        return read(false);
    }

    /**
     * {@return one response, read to its end}
     *
     * @param head whether the request was HEAD (then no body follows)
     */
    public Response read(boolean head) {
        try {
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
            if (status == 100) {
                return new Response(status, statusLine, headers, new byte[0]);
            }
            byte[] body;
            Map<String, String> trailers = new LinkedHashMap<>();
            if (head || status == 204 || status == 304) {
                body = new byte[0];
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = readChunked(trailers);
            } else if (headers.containsKey("content-length")) {
                body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
            } else {
                body = in.readAllBytes();
            }
            return new Response(status, statusLine, headers, body, trailers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] readChunked(Map<String, String> trailers) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line();
            if (sizeLine == null) {
                throw new IOException("connection closed inside a chunked body");
            }
            int semi = sizeLine.indexOf(';');
            int size = Integer.parseInt(semi < 0 ? sizeLine.trim() : sizeLine.substring(0, semi).trim(), 16);
            if (size == 0) {
                String t;
                while ((t = line()) != null && !t.isEmpty()) {
                    int colon = t.indexOf(':');
                    trailers.put(t.substring(0, colon).trim().toLowerCase(Locale.ROOT), t.substring(colon + 1).trim());
                }
                if (t == null) {
                    throw new IOException("connection closed inside a chunked body's trailer section");
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            line();
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * {@return {@code n} responses, in order (pipelining)}
     *
     * @param n how many to read
     */
    public List<Response> read(int n) {
        List<Response> r = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            r.add(read());
        }
        return r;
    }

    /**
     * Whether the server closed the connection within {@code millis}: reads (and drops) bytes until
     * end of stream or reset.
     *
     * @param millis how long to wait
     * @return true when closed or reset; false when the connection is still open at the deadline
     */
    public boolean closedWithin(int millis) {
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
            return true; // reset by the server
        }
    }

    /**
     * Whether nothing at all (no byte, no end of stream, no reset) arrives within {@code millis}: the
     * server keeps the connection open and says nothing. A byte that does arrive is consumed. The read
     * timeout set before is restored.
     *
     * @param millis how long to listen
     * @return true when nothing arrived
     */
    public boolean silentFor(int millis) {
        try {
            int before = socket.getSoTimeout();
            socket.setSoTimeout(Math.max(1, millis));
            try {
                in.read();
                return false;
            } catch (SocketTimeoutException e) {
                return true;
            } finally {
                socket.setSoTimeout(before);
            }
        } catch (IOException e) {
            return false; // reset by the server
        }
    }

    /**
     * Writes {@code ascii} in pieces of at most {@code pieceSize} bytes, flushing each and sleeping
     * {@code pauseMillis} between them, so the server sees the bytes arrive a few at a time.
     *
     * @param ascii the bytes to write, one Latin-1 char each
     * @param pieceSize bytes per write, at least 1
     * @param pauseMillis pause between writes; 0 for none
     * @return this connection
     */
    public RawConnection sendInPieces(String ascii, int pieceSize, int pauseMillis) {
        byte[] b = ascii.getBytes(StandardCharsets.ISO_8859_1);
        for (int off = 0; off < b.length; off += pieceSize) {
            if (off > 0 && pauseMillis > 0) {
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            send(java.util.Arrays.copyOfRange(b, off, Math.min(b.length, off + pieceSize)));
        }
        return this;
    }

    /**
     * Reads the next response head exactly as it was sent, for tests that compare bytes: the status
     * line, every header line in order (repeats and case kept), and the blank line that ends it.
     *
     * @return the head as Latin-1 text, CRLFs included
     * @throws UncheckedIOException when the connection closes first or a read times out
     */
    public String readHead() {
        try {
            StringBuilder head = new StringBuilder(256);
            while (true) {
                String l = line();
                if (l == null) {
                    throw new IOException("connection closed inside a response head: " + head);
                }
                head.append(l).append("\r\n");
                if (l.isEmpty()) {
                    return head.toString();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads exactly {@code n} bytes (a body whose length the test knows).
     *
     * @param n how many bytes
     * @return the bytes
     * @throws UncheckedIOException when the connection closes first or a read times out
     */
    public byte[] readBytes(int n) {
        try {
            byte[] b = in.readNBytes(n);
            if (b.length < n) {
                throw new IOException("connection closed after " + b.length + " of " + n + " bytes");
            }
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@return all bytes until the server closes, as Latin-1 text; empty when the connection is reset}
     *
     * @throws UncheckedIOException when the server does not close it within the read timeout
     */
    public String readAll() {
        try {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (SocketTimeoutException e) {
            throw new UncheckedIOException("server did not close the connection", e);
        } catch (IOException e) {
            return "";
        }
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
