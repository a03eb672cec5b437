package dev.brisk.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Opens many keep-alive connections, sends one {@code GET /hello} on each and reads its response, then
 * holds the answered ones open and idle, so that the server's memory per idle connection can be read
 * ({@code bench/engines.sh}). One thread, non-blocking channels, everything bounded in time.
 *
 * <p>{@code IdleConnections <port> <count> <window> <open-seconds> <hold-seconds>}: at most {@code window}
 * connections are being opened (connecting or waiting for their response) at once; opening stops when
 * {@code count} are answered with a 2xx or after {@code open-seconds}. It prints one {@code IDLE} line,
 * then {@code HOLDING}, holds until standard input ends (or has a line) or {@code hold-seconds} pass,
 * and prints a {@code HELD} line with how many the server closed meanwhile.
 */
public final class IdleConnections {
    /** What opening produced. {@code unanswered}: still connecting or waiting for a response at the end. */
    public record Opened(int ok, int status503, int otherStatus, int failed, int unanswered, long elapsedMs) {
        String line() {
            return "IDLE ok=" + ok + " status503=" + status503 + " other_status=" + otherStatus + " failed=" + failed
                    + " unanswered=" + unanswered + " elapsed_ms=" + elapsedMs;
        }
    }

    private static final byte[] REQUEST = ResponseReader.get("/hello");

    private final Selector selector;
    private final InetSocketAddress address;
    private final List<SocketChannel> idle = new ArrayList<>();
    private final ByteBuffer readBuf = ByteBuffer.allocate(4096);
    private int inFlight;
    private int ok;
    private int status503;
    private int otherStatus;
    private int failed;
    private int closedByServer;

    private IdleConnections(int port) throws IOException {
        this.selector = Selector.open();
        this.address = new InetSocketAddress("127.0.0.1", port);
    }

    /** One connection being opened. */
    private static final class Pending {
        final ResponseReader reader = new ResponseReader();
        final ByteBuffer out = ByteBuffer.wrap(REQUEST);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: IdleConnections <port> <count> <window> <open-seconds> <hold-seconds>");
            System.exit(2);
        }
        IdleConnections c = new IdleConnections(Integer.parseInt(args[0]));
        Opened opened = c.open(Integer.parseInt(args[1]), Integer.parseInt(args[2]),
                TimeUnit.SECONDS.toNanos(Long.parseLong(args[3])));
        System.out.println(opened.line());
        System.out.println("HOLDING");
        System.out.flush();
        AtomicBoolean release = new AtomicBoolean();
        Thread.ofPlatform().daemon().name("stdin").start(() -> {
            try {
                InputStream in = System.in;
                while (true) {
                    int b = in.read();
                    if (b < 0 || b == '\n') {
                        break;
                    }
                }
            } catch (IOException ignored) {
                // treat as the end of input
            }
            release.set(true);
            c.selector.wakeup();
        });
        c.hold(TimeUnit.SECONDS.toNanos(Long.parseLong(args[4])), release);
        System.out.println("HELD still_open=" + c.idle.size() + " closed_by_server=" + c.closedByServer);
        System.out.flush();
        c.closeAll();
    }

    /** Opens connections as {@link #main} does, then closes them all at once (for tests). */
    static Opened openAndClose(int port, int count, int window, long openNanos) throws IOException {
        IdleConnections c = new IdleConnections(port);
        try {
            return c.open(count, window, openNanos);
        } finally {
            c.closeAll();
        }
    }

    private Opened open(int count, int window, long openNanos) throws IOException {
        long start = System.nanoTime();
        long deadline = start + openNanos;
        // refused ones are replaced, but not forever: at most count refusals in all
        while (ok < count && System.nanoTime() - deadline < 0 && failed + status503 + otherStatus <= count) {
            while (inFlight < window && ok + inFlight < count) {
                startOne();
            }
            selector.select(10);
            for (SelectionKey k : selector.selectedKeys()) {
                step(k);
            }
            selector.selectedKeys().clear();
        }
        int unanswered = inFlight;
        // what is still being opened is abandoned: only answered connections are held
        for (SelectionKey k : selector.keys()) {
            if (k.attachment() instanceof Pending) {
                k.cancel();
                k.channel().close();
            }
        }
        inFlight = 0;
        selector.selectNow();
        return new Opened(ok, status503, otherStatus, failed, unanswered,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private void startOne() throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.configureBlocking(false);
        inFlight++;
        try {
            Pending p = new Pending();
            if (ch.connect(address)) {
                ch.register(selector, SelectionKey.OP_WRITE, p);
            } else {
                ch.register(selector, SelectionKey.OP_CONNECT, p);
            }
        } catch (IOException e) {
            fail(ch, null);
        }
    }

    private void step(SelectionKey k) {
        if (!k.isValid() || !(k.attachment() instanceof Pending p)) {
            return;
        }
        SocketChannel ch = (SocketChannel) k.channel();
        try {
            if (k.isConnectable()) {
                ch.finishConnect();
                k.interestOps(SelectionKey.OP_WRITE);
                return;
            }
            if (k.isWritable()) {
                ch.write(p.out);
                if (!p.out.hasRemaining()) {
                    k.interestOps(SelectionKey.OP_READ);
                }
                return;
            }
            if (k.isReadable()) {
                readBuf.clear();
                int n = ch.read(readBuf);
                if (n < 0) {
                    fail(ch, k);
                    return;
                }
                readBuf.flip();
                int status = p.reader.feed(readBuf);
                if (status == ResponseReader.INCOMPLETE) {
                    return;
                }
                inFlight--;
                if (status >= 200 && status < 300) {
                    ok++;
                    idle.add(ch);
                    k.attach(ch); // held: a read now means the server closed it (or sent something unasked)
                    return;
                }
                if (status == 503) {
                    status503++;
                } else {
                    otherStatus++;
                }
                k.cancel();
                ch.close();
            }
        } catch (IOException e) {
            fail(ch, k);
        }
    }

    private void fail(SocketChannel ch, SelectionKey k) {
        failed++;
        inFlight--;
        if (k != null) {
            k.cancel();
        }
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Holds the idle connections until {@code release} or the deadline, counting those the server closes. */
    private void hold(long holdNanos, AtomicBoolean release) throws IOException {
        long deadline = System.nanoTime() + holdNanos;
        while (!release.get() && System.nanoTime() - deadline < 0) {
            selector.select(200);
            for (SelectionKey k : selector.selectedKeys()) {
                if (k.isValid() && k.isReadable() && k.attachment() instanceof SocketChannel ch) {
                    readBuf.clear();
                    int n;
                    try {
                        n = ch.read(readBuf);
                    } catch (IOException e) {
                        n = -1;
                    }
                    if (n < 0) {
                        closedByServer++;
                        idle.remove(ch);
                        k.cancel();
                        ch.close();
                    }
                }
            }
            selector.selectedKeys().clear();
        }
    }

    private void closeAll() {
        for (SelectionKey k : selector.keys()) {
            try {
                k.channel().close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // exiting
        }
    }
}
