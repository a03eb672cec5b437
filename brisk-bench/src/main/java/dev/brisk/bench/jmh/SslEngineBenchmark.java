package dev.brisk.bench.jmh;

import dev.brisk.bench.BenchTls;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cipher cost of one HTTP/1.1 keep-alive exchange over TLS, with nothing else: the JDK's
 * {@code SSLEngine} in memory, a client and a server engine past their handshake (the harness's throwaway
 * EC key, each protocol's default cipher suite), and per operation the client wrapping the {@code tls-hello}
 * request, the server unwrapping it and wrapping Brisk's hello response, and the client unwrapping that. Each
 * side does one wrap and one unwrap of the same two records, so a server's share is half the time per
 * operation: the floor under what {@code tls-hello} adds to {@code hello} per request (README, TLS).
 *
 * <p>{@code pairs}: how many engine pairs, each past its own handshake with its own keys, take turns
 * (one exchange each, round robin). 1 is the floor with everything hot in the caches; 50 is the number
 * of connections {@code ./brisk bench --tls-keepalive} keeps, each with its own engine and key state,
 * as a server meets them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class SslEngineBenchmark {
    private static final byte[] REQUEST = "GET /hello HTTP/1.1\r\nHost: 127.0.0.1:18443\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: 13\r\n\r\nHello, World!").getBytes(StandardCharsets.US_ASCII);

    @Param({"TLSv1.2", "TLSv1.3"})
    public String protocol;

    @Param({"1"})
    public int pairs;

    private SSLEngine[] clients;
    private SSLEngine[] servers;
    private int turn;
    private SSLEngine client;
    private SSLEngine server;
    private ByteBuffer toServer;
    private ByteBuffer toClient;
    private ByteBuffer app;
    private final ByteBuffer request = ByteBuffer.wrap(REQUEST);
    private final ByteBuffer response = ByteBuffer.wrap(RESPONSE);

    @Setup(Level.Trial)
    public void handshake() throws Exception {
        Path dir = Files.createTempDirectory("brisk-jmh-tls");
        BenchTls tls = BenchTls.create(dir);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(tls.keyStore());
        SSLContext trusting = SSLContext.getInstance("TLS");
        trusting.init(null, tmf.getTrustManagers(), null);
        clients = new SSLEngine[pairs];
        servers = new SSLEngine[pairs];
        for (int p = 0; p < pairs; p++) {
            pair(tls, trusting);
            clients[p] = client;
            servers[p] = server;
        }
        for (String file : new String[] {"cert.pem", "key.pem", "keystore.p12"}) {
            Files.deleteIfExists(dir.resolve(file));
        }
        Files.deleteIfExists(dir);
    }

    /** Makes {@link #client} and {@link #server} a new pair past its handshake. */
    private void pair(BenchTls tls, SSLContext trusting) throws Exception {
        server = tls.sslContext().createSSLEngine();
        server.setUseClientMode(false);
        server.setEnabledProtocols(new String[] {protocol});
        client = trusting.createSSLEngine("localhost", 18443);
        client.setUseClientMode(true);
        client.setEnabledProtocols(new String[] {protocol});
        int net = server.getSession().getPacketBufferSize();
        toServer = ByteBuffer.allocate(net);
        toClient = ByteBuffer.allocate(net);
        app = ByteBuffer.allocate(server.getSession().getApplicationBufferSize());
        client.beginHandshake();
        server.beginHandshake();
        // both sides step until neither has anything left to do (TLS 1.3: the server's session tickets too)
        for (int i = 0; i < 1_000; i++) {
            boolean progress = step(client, toServer, toClient) | step(server, toClient, toServer);
            if (!progress && idle(client) && idle(server)) {
                return;
            }
        }
        throw new IllegalStateException("no handshake after 1,000 steps");
    }

    private static boolean idle(SSLEngine e) {
        return e.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
                || e.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.FINISHED;
    }

    /** One handshake step of an engine: wraps into out or unwraps from in; whether any bytes moved. */
    private boolean step(SSLEngine e, ByteBuffer out, ByteBuffer in) throws SSLException {
        boolean moved = false;
        switch (e.getHandshakeStatus()) {
            case NEED_WRAP -> {
                SSLEngineResult r = e.wrap(ByteBuffer.allocate(0), out);
                moved = r.bytesProduced() > 0 || r.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NEED_WRAP;
            }
            case NEED_TASK -> {
                for (Runnable t; (t = e.getDelegatedTask()) != null; ) {
                    t.run();
                }
                moved = true;
            }
            default -> { }
        }
        in.flip();
        if (in.hasRemaining()) {
            app.clear();
            SSLEngineResult r = e.unwrap(in, app);
            moved |= r.bytesConsumed() > 0;
        }
        in.compact();
        return moved;
    }

    /** One request and its response through both engines; returns the bytes the client got. */
    @Benchmark
    public int requestAndResponse() throws SSLException {
        if (pairs > 1) {
            client = clients[turn];
            server = servers[turn];
            turn = turn + 1 == pairs ? 0 : turn + 1;
        }
        request.rewind();
        toServer.clear();
        client.wrap(request, toServer);
        toServer.flip();
        app.clear();
        server.unwrap(toServer, app);
        response.rewind();
        toClient.clear();
        server.wrap(response, toClient);
        toClient.flip();
        app.clear();
        // TLS 1.3 may have tickets ahead of the data in the first rounds: unwrap until the data arrives
        for (int i = 0; i < 4 && app.position() == 0 && toClient.hasRemaining(); i++) {
            client.unwrap(toClient, app);
        }
        if (app.position() != RESPONSE.length) {
            throw new IllegalStateException("the client got " + app.position() + " bytes, not " + RESPONSE.length);
        }
        return app.position();
    }
}
