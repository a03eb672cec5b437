package dev.brisk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The blocking engine's lingering closes on their own thread, with real sockets: what the client still
 * sends is dropped, and the socket closes at the client's end, past the byte bound, at the deadline,
 * or when the lingerer stops, each time once.
 */
class LingererTest {
    private ServerSocketChannel listener;
    private Lingerer lingerer;

    @BeforeEach
    void open() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        lingerer = new Lingerer();
    }

    @AfterEach
    void close() throws IOException {
        lingerer.stop();
        listener.close();
    }

    /** A connected pair: the client's socket, and the server's channel with its output shut (as a lingering close has it). */
    private record Pair(Socket client, SocketChannel server) {
    }

    private Pair pair() throws IOException {
        Socket client = new Socket(InetAddress.getLoopbackAddress(), ((InetSocketAddress) listener.getLocalAddress()).getPort());
        SocketChannel server = listener.accept();
        server.shutdownOutput();
        return new Pair(client, server);
    }

    @Test
    void whatArrivesIsDroppedAndTheSocketClosesAtTheClientsEnd() throws Exception {
        Pair p = pair();
        CountDownLatch ended = new CountDownLatch(1);
        lingerer.add(p.server(), 1 << 20, System.nanoTime() + TimeUnit.SECONDS.toNanos(10), ended::countDown);
        OutputStream out = p.client().getOutputStream();
        out.write(new byte[200 * 1024]); // more than one read: several turns
        InputStream in = p.client().getInputStream();
        assertThat(in.read()).as("the server's output was shut: the client reads its end").isEqualTo(-1);
        assertThat(ended.getCount()).as("still draining while the client sends").isEqualTo(1);
        p.client().shutdownOutput();
        assertThat(ended.await(5, TimeUnit.SECONDS)).as("closed at the client's end").isTrue();
        assertThat(p.server().isOpen()).isFalse();
        p.client().close();
    }

    @Test
    void aClientSendingPastTheBoundIsCutOff() throws Exception {
        Pair p = pair();
        CountDownLatch ended = new CountDownLatch(1);
        lingerer.add(p.server(), 64 * 1024, System.nanoTime() + TimeUnit.SECONDS.toNanos(10), ended::countDown);
        OutputStream out = p.client().getOutputStream();
        byte[] piece = new byte[16 * 1024];
        for (int i = 0; i < 64 && ended.getCount() > 0; i++) { // 1 MiB at most, bounded
            try {
                out.write(piece);
            } catch (IOException reset) {
                break; // the server closed with unread bytes: a reset
            }
            ended.await(10, TimeUnit.MILLISECONDS);
        }
        assertThat(ended.await(5, TimeUnit.SECONDS)).as("closed past 64 KiB").isTrue();
        assertThat(p.server().isOpen()).isFalse();
        p.client().close();
    }

    @Test
    void aSilentClientIsClosedAtTheDeadline() throws Exception {
        Pair p = pair();
        CountDownLatch ended = new CountDownLatch(1);
        long start = System.nanoTime();
        lingerer.add(p.server(), 1 << 20, start + TimeUnit.MILLISECONDS.toNanos(200), ended::countDown);
        assertThat(ended.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("not before its deadline").isGreaterThanOrEqualTo(200);
        assertThat(p.server().isOpen()).isFalse();
        p.client().close();
    }

    @Test
    void stoppingEndsEveryDrainOnceAndRefusesNewOnes() throws Exception {
        CountDownLatch ended = new CountDownLatch(3);
        Pair[] pairs = {pair(), pair(), pair()};
        for (Pair p : pairs) {
            lingerer.add(p.server(), 1 << 20, System.nanoTime() + TimeUnit.SECONDS.toNanos(30), ended::countDown);
        }
        lingerer.stop();
        assertThat(ended.await(5, TimeUnit.SECONDS)).isTrue();
        for (Pair p : pairs) {
            assertThat(p.server().isOpen()).isFalse();
            p.client().close();
        }
        Pair late = pair();
        CountDownLatch lateEnded = new CountDownLatch(1);
        lingerer.add(late.server(), 1 << 20, System.nanoTime() + TimeUnit.SECONDS.toNanos(30), lateEnded::countDown);
        assertThat(lateEnded.await(5, TimeUnit.SECONDS)).as("a drain after the stop ends at once").isTrue();
        assertThat(late.server().isOpen()).isFalse();
        late.client().close();
    }
}
