package dev.brisk.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * What the seeded wire fuzz tests (HTTP/1.1, HTTP/2 and WebSocket sessions) share: many scripted connections run on a
 * pool of clients within a time budget, the sockets they use (plain, or TLS 1.3 with one ALPN
 * protocol), the wait for the server to have closed every connection, and the I/O loop threads whose
 * survival is checked.
 */
public final class WireFuzzRun {
    private WireFuzzRun() {
    }

    /** One script's client: sends it over a new connection and returns what came back. */
    @FunctionalInterface
    public interface Client<S, R> {
        R run(S script) throws Exception;
    }

    /**
     * What a run gave.
     *
     * @param received each script's result at the script's index in the list run; null where it was skipped or failed
     * @param failures a line per client that failed (the script described, then the cause)
     * @param skipped scripts not started because the budget was spent
     * @param millis the run's duration
     */
    public record Outcome<R>(List<R> received, List<String> failures, int skipped, long millis) {
    }

    /**
     * Runs every script on {@code parallel} client threads; a script whose turn comes after
     * {@code budgetNanos} from the start is skipped. Each client's result is waited for at most 30 s.
     */
    public static <S, R> Outcome<R> runAll(List<S> scripts, int parallel, long budgetNanos, Client<S, R> client,
            Function<S, String> describe) throws InterruptedException {
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        List<Future<R>> results = new ArrayList<>();
        AtomicInteger skipped = new AtomicInteger();
        for (S s : scripts) {
            results.add(pool.submit(() -> {
                if (System.nanoTime() - start > budgetNanos) {
                    skipped.incrementAndGet();
                    return null;
                }
                return client.run(s);
            }));
        }
        pool.shutdown();
        List<R> received = new ArrayList<>(Collections.nCopies(scripts.size(), null));
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            try {
                received.set(i, results.get(i).get(30, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                failures.add(describe.apply(scripts.get(i)) + "\n    client failed: " + e.getCause());
            } catch (TimeoutException e) {
                failures.add(describe.apply(scripts.get(i)) + "\n    client still running after 30 s");
            }
        }
        pool.shutdownNow();
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).as("the clients ended").isTrue();
        return new Outcome<>(received, failures, skipped.get(), (System.nanoTime() - start) / 1_000_000);
    }

    /** A plain connection to {@code port} on 127.0.0.1. */
    public static Socket plain(int port) throws IOException {
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress("127.0.0.1", port), 3_000);
        } catch (IOException e) {
            plain.close();
            throw e;
        }
        return plain;
    }

    /**
     * A TLS 1.3 connection to {@code port}, handshaken, offering only {@code alpn}; fails unless the
     * server chose it. Its half-close ({@code shutdownOutput}) is a {@code close_notify}, which ends the
     * client's side only (RFC 8446 6.1).
     */
    public static SSLSocket tls(int port, SSLContext tls, String alpn, int readTimeoutMillis) throws IOException {
        Socket plain = plain(port);
        SSLSocket socket;
        try {
            socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, "localhost", port, true);
        } catch (IOException e) {
            plain.close();
            throw e;
        }
        try {
            socket.setSoTimeout(readTimeoutMillis);
            SSLParameters p = socket.getSSLParameters();
            p.setApplicationProtocols(new String[] {alpn});
            p.setProtocols(new String[] {"TLSv1.3"});
            socket.setSSLParameters(p);
            socket.startHandshake();
            if (!alpn.equals(socket.getApplicationProtocol())) {
                throw new IOException("ALPN chose " + socket.getApplicationProtocol() + ", not " + alpn);
            }
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        return socket;
    }

    /** Waits (bounded, 5 s) until {@code app} counts no connection; the caller asserts the count. */
    public static void awaitNoConnections(Brisk app) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (app.connectionCount() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /** The I/O loop threads alive now: selector loops ({@code brisk-io-*}) and io_uring loops ({@code brisk-uring-*}). */
    public static Set<Thread> ioThreads() {
        Set<Thread> s = new HashSet<>();
        for (Thread th : Thread.getAllStackTraces().keySet()) {
            if (th.getName().startsWith("brisk-io-") || th.getName().startsWith("brisk-uring-")) {
                s.add(th);
            }
        }
        return s;
    }

    /**
     * The I/O loop threads a server started since {@code before} was taken ({@link #ioThreads}); asserts
     * there are as many as {@link #loops} says for {@code engine}.
     */
    public static Set<Thread> loopsStarted(Set<Thread> before, Engine engine) {
        Set<Thread> io = ioThreads();
        io.removeAll(before);
        // the blocking engine has no I/O loops: a thread per connection instead
        assertThat(io).as("this server's I/O loops").hasSize(loops(engine));
        return io;
    }

    /** Waits (bounded, 5 s) until {@code app} counts no connection, then asserts it counts none. */
    public static void assertNoConnections(Brisk app, String when) throws InterruptedException {
        awaitNoConnections(app);
        assertThat(app.connectionCount()).as("open connections " + when).isZero();
    }

    /** The I/O loops a server started with {@code io-threads=2} on {@code engine} has: none on the blocking engine. */
    public static int loops(Engine engine) {
        return engine == Engine.NIO || engine == Engine.URING ? 2 : 0;
    }
}
