package dev.brisk.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A WebSocket echo load client for {@code bench/ws.sh}: {@code WsLoad <port> <size> <connections>
 * <seconds> <warmupSeconds> <statsPort>}. Opens the connections to {@code /ws/echo}, then each one sends a
 * masked binary message of {@code size} bytes, waits for its echo, and sends the next (a closed loop, so
 * the rate is the server's), all on one selector thread. After the warm-up it counts for
 * {@code seconds}: echoes, their round-trip latency, and the server's CPU time and allocated bytes
 * (from {@link ServerMain}'s stats port). Prints one line of {@code key=value} pairs.
 */
public final class WsLoad {
    private static final int MAX_MICROS = 1_000_000;

    private WsLoad() {
    }

    /** One connection: what it read and not yet parsed, what it has to write, when its message left. */
    private static final class Conn {
        final SocketChannel ch;
        final ByteBuffer in;
        ByteBuffer out;
        long sentAt;

        Conn(SocketChannel ch, int size) {
            this.ch = ch;
            this.in = ByteBuffer.allocate(Math.max(64 * 1024, size * 2 + 64));
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: WsLoad <port> <size> <connections> <seconds> <warmupSeconds> <statsPort>");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        int size = Integer.parseInt(args[1]);
        int conns = Integer.parseInt(args[2]);
        long seconds = Long.parseLong(args[3]);
        long warmup = Long.parseLong(args[4]);
        int statsPort = Integer.parseInt(args[5]);
        byte[] frame = frame(size);
        Selector selector = Selector.open();
        List<Conn> all = new ArrayList<>();
        for (int i = 0; i < conns; i++) {
            all.add(open(port, size, selector));
        }
        long start = System.nanoTime();
        long measureFrom = start + warmup * 1_000_000_000L;
        long measureTo = measureFrom + seconds * 1_000_000_000L;
        for (Conn c : all) {
            send(c, frame, System.nanoTime(), selector);
        }
        long[] micros = new long[MAX_MICROS + 1];
        long count = 0;
        long[] before = null;
        long[] after = null;
        while (true) {
            long now = System.nanoTime();
            if (before == null && now - measureFrom >= 0) {
                before = stats(statsPort);
            }
            if (now - measureTo >= 0) {
                after = stats(statsPort);
                break;
            }
            selector.select(100);
            var keys = selector.selectedKeys();
            for (SelectionKey k : keys) {
                Conn c = (Conn) k.attachment();
                if (k.isValid() && k.isWritable()) {
                    c.ch.write(c.out);
                    if (!c.out.hasRemaining()) {
                        k.interestOps(SelectionKey.OP_READ);
                    }
                }
                if (k.isValid() && k.isReadable()) {
                    int n = c.ch.read(c.in);
                    if (n < 0) {
                        throw new IOException("the server closed a connection");
                    }
                    c.in.flip();
                    long t = System.nanoTime();
                    while (echoed(c.in)) {
                        if (before != null && t - measureTo < 0) {
                            count++;
                            micros[(int) Math.min(MAX_MICROS, (t - c.sentAt) / 1000)]++;
                        }
                        send(c, frame, t, selector);
                    }
                    c.in.compact();
                }
            }
            keys.clear();
        }
        for (Conn c : all) {
            c.ch.close();
        }
        double secs = seconds;
        long cpuNanos = after[1] - before[1];
        long allocated = after[0] - before[0];
        System.out.printf("size=%d conns=%d messages=%d rate=%.0f p50_us=%d p99_us=%d cpu_us_per_msg=%.2f bytes_per_msg=%.0f%n",
                size, conns, count, count / secs, percentile(micros, count, 0.50), percentile(micros, count, 0.99),
                count == 0 ? 0 : cpuNanos / 1000.0 / count, count == 0 ? 0 : (double) allocated / count);
    }

    /** Takes one whole echo frame from {@code in} (read mode) if it holds one. */
    private static boolean echoed(ByteBuffer in) {
        int p = in.position();
        if (in.remaining() < 2) {
            return false;
        }
        int len7 = in.get(p + 1) & 0x7F;
        int head = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0);
        if (in.remaining() < head) {
            return false;
        }
        long len = len7 == 126 ? (in.getShort(p + 2) & 0xFFFF) : len7 == 127 ? in.getLong(p + 2) : len7;
        if (in.remaining() < head + len) {
            return false;
        }
        in.position((int) (p + head + len));
        return true;
    }

    private static void send(Conn c, byte[] frame, long now, Selector selector) throws IOException {
        c.sentAt = now;
        c.out = ByteBuffer.wrap(frame);
        c.ch.write(c.out);
        if (c.out.hasRemaining()) {
            c.ch.keyFor(selector).interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private static Conn open(int port, int size, Selector selector) throws IOException {
        SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        ch.socket().setTcpNoDelay(true);
        Socket s = ch.socket();
        s.getOutputStream().write(("GET /ws/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: MDEyMzQ1Njc4OWFiY2RlZg==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the handshake: " + head);
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + head);
        }
        ch.configureBlocking(false);
        Conn c = new Conn(ch, size);
        ch.register(selector, SelectionKey.OP_READ, c);
        return c;
    }

    /** A masked binary frame of {@code size} random bytes (the same bytes each time: the server cannot tell). */
    private static byte[] frame(int size) {
        int head = size <= 125 ? 2 : size <= 0xFFFF ? 4 : 10;
        byte[] f = new byte[head + 4 + size];
        f[0] = (byte) 0x82;
        if (size <= 125) {
            f[1] = (byte) (0x80 | size);
        } else if (size <= 0xFFFF) {
            f[1] = (byte) (0x80 | 126);
            f[2] = (byte) (size >>> 8);
            f[3] = (byte) size;
        } else {
            f[1] = (byte) (0x80 | 127);
            for (int i = 0; i < 8; i++) {
                f[2 + i] = (byte) ((long) size >>> (56 - 8 * i));
            }
        }
        byte[] mask = {0x12, 0x34, 0x56, 0x78};
        System.arraycopy(mask, 0, f, head, 4);
        Random r = new Random(7);
        for (int i = 0; i < size; i++) {
            f[head + 4 + i] = (byte) (r.nextInt(256) ^ mask[i & 3]);
        }
        return f;
    }

    /** The stats port's {@code allocatedBytes cpuNanos}. */
    private static long[] stats(int statsPort) throws IOException {
        try (Socket s = new Socket("127.0.0.1", statsPort)) {
            String[] p = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
            return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1])};
        }
    }

    private static long percentile(long[] micros, long count, double q) {
        long target = (long) Math.ceil(count * q);
        long seen = 0;
        for (int i = 0; i < micros.length; i++) {
            seen += micros[i];
            if (seen >= target && target > 0) {
                return i;
            }
        }
        return MAX_MICROS;
    }
}
