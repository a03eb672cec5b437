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
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * A server's TLS: the context its key files make, the parameters every connection gets (TLS 1.3 and
 * 1.2 only, ALPN {@code h2} and {@code http/1.1} or {@code http/1.1} alone, client authentication), and
 * the reload of the key files when they change (their contents, not their times). A watcher checks
 * them every {@code tls-reload-interval} while the server runs, whether connections arrive or not, so
 * the first connection after a change already gets the new key once the check has run; only a context
 * that loads replaces the one in use (a failure is logged and counted, and the old key stays).
 * Connections keep the context they started with.
 *
 * <pre>
 *   created (files read) --startWatching--> watching --stopWatching--> stopped
 * </pre>
 *
 * <p>Threads: {@link #open} on any loop thread; the watcher is a virtual thread of its own;
 * {@link #checkNow} any thread (one check at a time).
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
    private volatile SSLContext context;
    /** Held by a check: one at a time. */
    private final Object checking = new Object();
    /** The files' contents last loaded; under {@code checking}. */
    private String stamp;
    /** The files' contents that last failed to load (logged once); under {@code checking}. */
    private String failedStamp;
    private Thread watcher;

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
    }

    /** Starts checking the key files every {@code tls-reload-interval} (never when it is 0). Call once. */
    public synchronized void startWatching() {
        if (reloadNanos == 0 || watcher != null) {
            return;
        }
        watcher = Thread.ofVirtual().name("brisk-tls-reload").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    java.util.concurrent.TimeUnit.NANOSECONDS.sleep(reloadNanos); // a period, not a wait for a condition
                } catch (InterruptedException e) {
                    return;
                }
                checkNow();
            }
        });
    }

    /** Stops the checks (the server closes). Idempotent. */
    public synchronized void stopWatching() {
        if (watcher != null) {
            watcher.interrupt();
        }
    }

    /** Starts TLS on a new connection. Its loop thread. */
    @Override
    public Protocol open(Wire plain) {
        return TlsWire.open(plain, engine(context, alpn), next, counters, handshakeNanos, writeTimeoutNanos);
    }

    /** The same keys, offering HTTP/1.1 alone, then what {@code next} does when busy; null when it does nothing. */
    @Override
    public ProtocolFactory whenBusy() {
        ProtocolFactory busyNext = next.whenBusy();
        if (busyNext == null) {
            return null;
        }
        return plain -> TlsWire.open(plain, engine(context, HTTP1_ONLY), busyNext, counters, handshakeNanos,
                writeTimeoutNanos);
    }

    private static final String[] HTTP1_ONLY = {"http/1.1"};

    /** {@return how many times changed key files were loaded and put in use} */
    public long reloads() {
        return counters.reloads();
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

    /** Checks the files now, and loads them when they changed; the watcher's step, and for tests. */
    public void checkNow() {
        synchronized (checking) {
            String s = stamp(files);
            if (Thread.currentThread().isInterrupted()) {
                return; // the watcher stopped mid-read: what it read may be a failed read, not a change
            }
            if (!s.equals(stamp)) {
                reload(s);
            }
        }
    }

    private void reload(String s) {
        try {
            context = KeyMaterial.context(options);
            stamp = s;
            failedStamp = null; // a later failure is a new one, whatever the files hold
            counters.reloaded();
            LOG.log(System.Logger.Level.INFO, "TLS key files changed: new connections use the new key");
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return; // the watcher stopped mid-read (the server closes): not a failure of the files
            }
            // a half-written file is the usual cause: the next check tries again (and logs again only
            // when the files change once more)
            if (!s.equals(failedStamp)) {
                failedStamp = s;
                counters.reloadFailed();
                LOG.log(System.Logger.Level.ERROR, "TLS key files changed but cannot be used; the old key stays: "
                        + e.getMessage());
            }
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
