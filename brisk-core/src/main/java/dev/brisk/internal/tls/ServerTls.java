package dev.brisk.internal.tls;

import dev.brisk.ClientAuth;
import dev.brisk.TlsOptions;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.ProtocolFactory;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * A server's TLS: the context its key files make, the parameters every connection gets (TLS 1.3 and
 * 1.2 only, ALPN {@code h2} and {@code http/1.1} or {@code http/1.1} alone, client authentication), and the reload of the key files when they
 * change (their contents, not their times). The files are checked at most once per {@code tls-reload-interval}, when a connection
 * opens; a change is read on a virtual thread, and only a context that loads replaces the one in use
 * (a failure is logged, and the old key stays). Connections keep the context they started with.
 *
 * <p>Threads: {@link #open} on any loop thread; the reload on a virtual thread of its own.
 */
public final class ServerTls implements ProtocolFactory {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    private final TlsOptions options;
    private final ProtocolFactory next;
    private final String[] alpn;
    private final TlsCounters counters;
    private final long handshakeNanos;
    private final long writeTimeoutNanos;
    private final long reloadNanos;
    private final List<Path> files;
    private final AtomicBoolean reloading = new AtomicBoolean();
    private volatile SSLContext context;
    private volatile String stamp;
    private volatile long checkedAt;
    private volatile long reloads;

    /**
     * Reads the key files now.
     *
     * @param next the protocol a connection speaks once its handshake is done (it may look at the
     *     protocol ALPN settled: {@code wire.tls().applicationProtocol()})
     * @param alpn the application protocols offered, most preferred first
     * @throws IllegalArgumentException when the files cannot be read or used, saying which and why
     */
    public ServerTls(TlsOptions options, ProtocolFactory next, String[] alpn, TlsCounters counters,
            long writeTimeoutNanos) {
        this.options = options;
        this.next = next;
        this.alpn = alpn.clone();
        this.counters = counters;
        this.handshakeNanos = options.handshakeTimeout().toNanos();
        this.writeTimeoutNanos = writeTimeoutNanos;
        this.reloadNanos = options.reloadInterval().toNanos();
        this.files = KeyMaterial.files(options);
        this.stamp = stamp(files);
        this.context = KeyMaterial.context(options);
        this.checkedAt = System.nanoTime();
    }

    /** Starts TLS on a new connection. Its loop thread. */
    @Override
    public Protocol open(Wire plain) {
        maybeReload();
        return TlsWire.open(plain, engine(context, alpn), next, counters, handshakeNanos, writeTimeoutNanos);
    }

    /** The same keys, offering HTTP/1.1 alone, then what {@code next} does when busy; null when it does nothing. */
    @Override
    public ProtocolFactory whenBusy() {
        ProtocolFactory busyNext = next.whenBusy();
        if (busyNext == null) {
            return null;
        }
        return plain -> {
            maybeReload();
            return TlsWire.open(plain, engine(context, HTTP1_ONLY), busyNext, counters, handshakeNanos,
                    writeTimeoutNanos);
        };
    }

    private static final String[] HTTP1_ONLY = {"http/1.1"};

    /** {@return how many times changed key files were loaded and put in use} */
    public long reloads() {
        return reloads;
    }

    private SSLEngine engine(SSLContext ctx, String[] alpn) {
        SSLEngine e = ctx.createSSLEngine();
        e.setUseClientMode(false);
        SSLParameters p = e.getSSLParameters();
        p.setProtocols(options.protocols().toArray(new String[0]));
        p.setApplicationProtocols(alpn);
        p.setCipherSuites(modernSuites(e.getEnabledCipherSuites()));
        p.setUseCipherSuitesOrder(true);
        if (options.clientAuth() == ClientAuth.NEED) {
            p.setNeedClientAuth(true);
        } else if (options.clientAuth() == ClientAuth.WANT) {
            p.setWantClientAuth(true);
        }
        e.setSSLParameters(p);
        return e;
    }

    /**
     * The JDK's enabled suites less the TLS 1.2 ones without forward secrecy or an AEAD cipher (CBC, say):
     * RFC 9113 (9.2.2, Appendix A) prohibits those for HTTP/2, and current guidance (Mozilla's
     * "intermediate") for any TLS 1.2; without this, a client offering only them got h2 over CBC.
     * TLS 1.3 suites, all AEAD, and the renegotiation signal stay.
     */
    static String[] modernSuites(String[] enabled) {
        return java.util.Arrays.stream(enabled)
                .filter(s -> !s.startsWith("TLS_") || s.startsWith("TLS_AES_") || s.startsWith("TLS_CHACHA20_")
                        || s.equals("TLS_EMPTY_RENEGOTIATION_INFO_SCSV")
                        || ((s.startsWith("TLS_ECDHE_") || s.startsWith("TLS_DHE_"))
                                && (s.contains("_GCM_") || s.contains("_CHACHA20_POLY1305_"))))
                .toArray(String[]::new);
    }

    private void maybeReload() {
        long now = System.nanoTime();
        if (reloadNanos == 0 || now - checkedAt < reloadNanos || !reloading.compareAndSet(false, true)) {
            return;
        }
        checkedAt = now;
        Thread.ofVirtual().name("brisk-tls-reload").start(() -> {
            try {
                String s = stamp(files);
                if (!s.equals(stamp)) {
                    reload(s);
                }
            } finally {
                reloading.set(false);
            }
        });
    }

    /** Checks the files at once (not waiting for a connection); for tests and operators. */
    public void checkNow() {
        String s = stamp(files);
        if (!s.equals(stamp)) {
            reload(s);
        }
    }

    private void reload(String s) {
        try {
            context = KeyMaterial.context(options);
            stamp = s;
            reloads++;
            LOG.log(System.Logger.Level.INFO, "TLS key files changed: new connections use the new key");
        } catch (RuntimeException e) {
            // a half-written file is the usual cause: the next check tries again
            LOG.log(System.Logger.Level.ERROR, "TLS key files changed but cannot be used; the old key stays: "
                    + e.getMessage());
        }
    }

    /** The files' contents, hashed (they are small): a change in any calls for a reload. */
    private static String stamp(List<Path> files) {
        StringBuilder b = new StringBuilder();
        for (Path f : files) {
            try {
                b.append(java.util.Arrays.hashCode(Files.readAllBytes(f))).append(';');
            } catch (IOException e) {
                b.append("missing;");
            }
        }
        return b.toString();
    }
}
