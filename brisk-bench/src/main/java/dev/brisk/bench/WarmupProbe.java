package dev.brisk.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A server's first seconds: started together with a fresh server process, it polls until the port
 * accepts, then keeps {@code connections} keep-alive connections busy with {@code GET path} (one request
 * in flight on each, closed loop) for {@code seconds}, and reports per second of that window the
 * responses completed, the errors (non-2xx, connections refused or closed under a request) and the
 * latency. One thread, non-blocking channels ({@code bench/engines.sh}).
 *
 * <p>{@code WarmupProbe <port> <server-start-epoch-ms> <connections> <seconds> <path>} prints
 * <pre>
 * WARMUP probe_ready_ms=90 port_open_ms=412 first_response_ms=530 connections=50 seconds=5
 * SECOND n=1 ok=10234 errors=0 p50_ms=2.1 p99_ms=40.2 max_ms=95.0
 * ...
 * WARMUP_END unanswered=0 reconnects=0
 * </pre>
 * with times from the server's start ({@code probe_ready_ms}: when the probe itself began to poll); a second is counted from the moment the port first accepted;
 * {@code unanswered}: requests still waiting, at the end, for over a second.
 */
public final class WarmupProbe {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** How long the probe waits for the port to accept at all. */
    private static final long PORT_WAIT = TimeUnit.SECONDS.toNanos(60);

    private final InetSocketAddress address;
    private final byte[] request;
    private final Selector selector;
    private final ByteBuffer readBuf = ByteBuffer.allocate(16 * 1024);
    private final ArrayDeque<Long> reconnectAt = new ArrayDeque<>();
    private final Bucket[] buckets;
    private long loadStart;
    private long firstResponse = -1;
    private int reconnects;

    /** One second of the window. */
    static final class Bucket {
        int ok;
        int errors;
        long[] micros = new long[1024];
        int n;

        void add(long us) {
            if (n == micros.length) {
                micros = Arrays.copyOf(micros, n * 2);
            }
            micros[n++] = us;
        }

        double percentileMs(double q) {
            if (n == 0) {
                return 0;
            }
            long[] sorted = Arrays.copyOf(micros, n);
            Arrays.sort(sorted);
            int i = (int) Math.ceil(q * n) - 1;
            return sorted[Math.max(0, Math.min(n - 1, i))] / 1000.0;
        }
    }

    /** One connection: the request in flight and when it was sent. */
    private static final class Conn {
        final ResponseReader reader = new ResponseReader();
        ByteBuffer out;
        long sentAt;
    }

    private WarmupProbe(int port, String path, int seconds) throws IOException {
        this.address = new InetSocketAddress("127.0.0.1", port);
        this.request = ResponseReader.get(path);
        this.selector = Selector.open();
        this.buckets = new Bucket[seconds];
        for (int i = 0; i < seconds; i++) {
            buckets[i] = new Bucket();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: WarmupProbe <port> <server-start-epoch-ms> <connections> <seconds> <path>");
            System.exit(2);
        }
        // the offset between the wall clock (the server's start, taken by the script) and nanoTime
        long startNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis() - Long.parseLong(args[1]));
        System.out.print(run(Integer.parseInt(args[0]), startNanos, Integer.parseInt(args[2]),
                Integer.parseInt(args[3]), args[4]));
    }

    /** Runs the probe against {@code port}; {@code serverStart} on the {@link System#nanoTime} scale. */
    static String run(int port, long serverStart, int connections, int seconds, String path) throws IOException {
        WarmupProbe p = new WarmupProbe(port, path, seconds);
        try {
            return p.probe(serverStart, connections);
        } finally {
            for (SelectionKey k : p.selector.keys()) {
                k.channel().close();
            }
            p.selector.close();
        }
    }

    private String probe(long serverStart, int connections) throws IOException {
        long ready = System.nanoTime() - serverStart;
        SocketChannel first = awaitPort();
        if (first == null) {
            return "WARMUP probe_ready_ms=" + TimeUnit.NANOSECONDS.toMillis(ready)
                    + " port_open_ms=-1 first_response_ms=-1 connections=" + connections + " seconds=" + buckets.length + "\n";
        }
        loadStart = System.nanoTime();
        long portOpen = loadStart - serverStart;
        register(first);
        for (int i = 1; i < connections; i++) {
            connect();
        }
        long end = loadStart + buckets.length * SECOND;
        while (System.nanoTime() - end < 0) {
            long now = System.nanoTime();
            while (!reconnectAt.isEmpty() && reconnectAt.peekFirst() - now <= 0) {
                reconnectAt.pollFirst();
                connect();
            }
            selector.select(Math.max(1, Math.min(10, TimeUnit.NANOSECONDS.toMillis(end - now))));
            for (SelectionKey k : selector.selectedKeys()) {
                step(k);
            }
            selector.selectedKeys().clear();
        }
        // every connection has a request in flight at the end: count those waiting for over a second
        int unanswered = 0;
        long now = System.nanoTime();
        for (SelectionKey k : selector.keys()) {
            if (k.attachment() instanceof Conn c && c.sentAt != 0 && now - c.sentAt > SECOND) {
                unanswered++;
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "WARMUP probe_ready_ms=%d port_open_ms=%d first_response_ms=%d connections=%d seconds=%d%n",
                TimeUnit.NANOSECONDS.toMillis(ready), TimeUnit.NANOSECONDS.toMillis(portOpen),
                firstResponse < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(firstResponse - serverStart), connections, buckets.length));
        for (int i = 0; i < buckets.length; i++) {
            Bucket b = buckets[i];
            sb.append(String.format(Locale.ROOT, "SECOND n=%d ok=%d errors=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f%n",
                    i + 1, b.ok, b.errors, b.percentileMs(0.5), b.percentileMs(0.99), b.percentileMs(1.0)));
        }
        sb.append("WARMUP_END unanswered=").append(unanswered).append(" reconnects=").append(reconnects).append('\n');
        return sb.toString();
    }

    /** Polls (every 2 ms, at most a minute) until the port accepts; returns that connection, blocking mode. */
    private SocketChannel awaitPort() throws IOException {
        long deadline = System.nanoTime() + PORT_WAIT;
        while (System.nanoTime() - deadline < 0) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.connect(address);
                return ch;
            } catch (IOException e) {
                ch.close();
                try {
                    Thread.sleep(2);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        }
        return null;
    }

    private void register(SocketChannel ch) throws IOException {
        ch.configureBlocking(false);
        Conn c = new Conn();
        SelectionKey k = ch.register(selector, 0, c);
        send(k, c);
    }

    private void connect() throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.configureBlocking(false);
        Conn c = new Conn();
        try {
            if (ch.connect(address)) {
                send(ch.register(selector, 0, c), c);
            } else {
                ch.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException e) {
            ch.close();
            error(System.nanoTime());
            reconnectLater();
        }
    }

    private void send(SelectionKey k, Conn c) throws IOException {
        c.out = ByteBuffer.wrap(request);
        c.sentAt = System.nanoTime();
        ((SocketChannel) k.channel()).write(c.out);
        k.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    private void step(SelectionKey k) {
        if (!k.isValid() || !(k.attachment() instanceof Conn c)) {
            return;
        }
        SocketChannel ch = (SocketChannel) k.channel();
        try {
            if (k.isConnectable()) {
                ch.finishConnect();
                send(k, c);
                return;
            }
            if (k.isWritable()) {
                ch.write(c.out);
                if (!c.out.hasRemaining()) {
                    k.interestOps(SelectionKey.OP_READ);
                }
                return;
            }
            if (k.isReadable()) {
                readBuf.clear();
                if (ch.read(readBuf) < 0) {
                    throw new IOException("closed by the server");
                }
                readBuf.flip();
                int status = c.reader.feed(readBuf);
                if (status == ResponseReader.INCOMPLETE) {
                    return;
                }
                long now = System.nanoTime();
                if (status >= 200 && status < 300) {
                    if (firstResponse < 0) {
                        firstResponse = now;
                    }
                    Bucket b = bucket(now);
                    if (b != null) {
                        b.ok++;
                        b.add(TimeUnit.NANOSECONDS.toMicros(now - c.sentAt));
                    }
                    send(k, c);
                } else {
                    throw new IOException("status " + status); // a refusal closes the connection: start over
                }
            }
        } catch (IOException e) {
            error(System.nanoTime());
            k.cancel();
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            reconnectLater();
        }
    }

    private void reconnectLater() {
        reconnects++;
        reconnectAt.addLast(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10));
    }

    private void error(long now) {
        Bucket b = bucket(now);
        if (b != null) {
            b.errors++;
        }
    }

    private Bucket bucket(long now) {
        long i = (now - loadStart) / SECOND;
        return i >= 0 && i < buckets.length ? buckets[(int) i] : null;
    }
}
