package dev.brisk.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients that move data at a rate of their own over any socket (plain or TLS): an upload paced to a
 * number of bytes per second, and a reader taking a response one byte a second through a tiny receive
 * buffer. Each paces itself with sleeps: the rate is the behaviour under test, not a wait for a
 * condition. Every loop is bounded in count and time.
 */
public final class SlowPeers {
    private SlowPeers() {
    }

    /**
     * What the server answered a paced upload.
     *
     * @param status the status code (-1: the connection ended before an answer)
     * @param head the status line and header fields
     * @param body the body as text
     * @param millis from the first body byte sent to the answer's head read
     * @param bytesSent body bytes the client had sent when it stopped
     * @param closedAfter whether the answer said {@code Connection: close} and the connection then ended
     *                    (end of stream or reset) within 3 s
     */
    public record Answer(int status, String head, String body, long millis, long bytesSent, boolean closedAfter) {
        /**
         * {@return a header field's value from {@link #head}, or null}
         *
         * @param name the field name, any case
         */
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    /**
     * POSTs a body of {@code length} bytes to {@code path} on the connected {@code s} at
     * {@code bytesPerSecond} (an eighth of a second's worth every 125 ms, from a thread of its own),
     * until the server answers or the body is sent, and reads the answer. The sender stops at the answer.
     *
     * @param s a connected socket, closed by the caller
     * @param path the target
     * @param length the declared Content-Length
     * @param bytesPerSecond the pace
     * @param max the longest wait for the answer
     * @return the answer
     * @throws IOException when the socket fails before any answer
     * @throws InterruptedException when interrupted
     */
    public static Answer pacedUpload(Socket s, String path, int length, int bytesPerSecond, Duration max)
            throws IOException, InterruptedException {
        s.setSoTimeout((int) max.toMillis());
        OutputStream out = s.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong sent = new AtomicLong();
        int piece = Math.max(1, bytesPerSecond / 8);
        long start = System.nanoTime();
        Thread sender = Thread.ofVirtual().start(() -> {
            byte[] bytes = new byte[piece];
            java.util.Arrays.fill(bytes, (byte) 'a');
            try {
                while (!stop.get() && sent.get() < length) {
                    int n = (int) Math.min(piece, length - sent.get());
                    out.write(bytes, 0, n);
                    out.flush();
                    sent.addAndGet(n);
                    Thread.sleep(125); // the pace: an eighth of a second per piece
                }
            } catch (IOException | InterruptedException e) {
                // the server closed, or the test ended: stop sending
            }
        });
        InputStream in = s.getInputStream();
        String head;
        try {
            head = readHead(in);
        } finally {
            stop.set(true);
        }
        long millis = (System.nanoTime() - start) / 1_000_000L;
        sender.join(Duration.ofSeconds(3));
        if (head == null) {
            return new Answer(-1, "", "", millis, sent.get(), true);
        }
        Answer partial = new Answer(0, head, "", millis, sent.get(), false);
        String cl = partial.header("Content-Length");
        String body = cl == null ? "" : new String(in.readNBytes(Integer.parseInt(cl)), StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(head.substring(9, 12));
        boolean closing = "close".equalsIgnoreCase(partial.header("Connection"));
        return new Answer(status, head, body, millis, sent.get(), closing && endsWithin(s, in, 3_000));
    }

    /** The head up to its blank line, or null when the stream ended (or was reset) first. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            for (int i = 0; i < 64 * 1024; i++) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
                if (head.size() >= 4 && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    return head.toString(StandardCharsets.ISO_8859_1);
                }
            }
        } catch (java.net.SocketException e) {
            return null; // reset
        }
        throw new IOException("no head in 64 KiB: " + head.toString(StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
    }

    /** Whether the stream ends (or is reset) within {@code millis}, dropping what still arrives. */
    private static boolean endsWithin(Socket s, InputStream in, int millis) throws IOException {
        long end = System.nanoTime() + millis * 1_000_000L;
        byte[] sink = new byte[8192];
        while (System.nanoTime() - end < 0) {
            s.setSoTimeout((int) Math.max(1, (end - System.nanoTime()) / 1_000_000L));
            try {
                if (in.read(sink) < 0) {
                    return true;
                }
            } catch (java.net.SocketTimeoutException e) {
                return false;
            } catch (java.net.SocketException e) {
                return true; // reset: ended too
            }
        }
        return false;
    }

    /**
     * A reader taking one byte a second: {@code s} (not connected yet) gets a 1 KiB receive buffer,
     * connects to {@code to}, sends {@code request}, and a thread of its own reads a byte, waits a
     * second, and again, until the stream ends or {@link AutoCloseable#close} (which closes {@code s}).
     *
     * @param s an unconnected socket (plain or TLS)
     * @param to where to connect
     * @param request the whole request, ASCII
     * @return stops the reader and closes the socket
     * @throws IOException when connecting or sending fails
     */
    public static AutoCloseable oneBytePerSecond(Socket s, InetSocketAddress to, String request) throws IOException {
        s.setReceiveBufferSize(1024);
        s.connect(to, 5_000);
        s.setSoTimeout(2_000);
        OutputStream out = s.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        AtomicBoolean stop = new AtomicBoolean();
        InputStream in = s.getInputStream();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < 600 && !stop.get(); i++) {
                    try {
                        if (in.read() < 0) {
                            return;
                        }
                    } catch (java.net.SocketTimeoutException e) {
                        // nothing this second: read on
                    }
                    Thread.sleep(1_000); // the pace: a byte a second
                }
            } catch (IOException | InterruptedException e) {
                // closed: done
            }
        });
        return () -> {
            stop.set(true);
            s.close();
            reader.join(Duration.ofSeconds(3));
        };
    }
}
