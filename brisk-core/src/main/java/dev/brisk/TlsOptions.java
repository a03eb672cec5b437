package dev.brisk;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The TLS settings of a server ({@link ServerOptions#tls()}): the options {@code tls-*}. TLS is on
 * when a key is given, as PEM files (a certificate chain and a PKCS#8 private key) or as a PKCS#12
 * key store, never both. Only TLS 1.3 and 1.2 are offered. The files are read at start and read again
 * when they change (checked every {@code reloadInterval} by a watcher, connections or not), so
 * a renewed certificate is used by new connections without a restart; open connections keep theirs.
 *
 * @param certificate PEM file with the certificate chain, the server's own first ({@code tls-cert})
 * @param privateKey PEM file with its PKCS#8 private key, plain or encrypted ({@code tls-key})
 * @param privateKeyPassword the password of an encrypted private key, or null ({@code tls-key-password})
 * @param keyStore PKCS#12 file with the key and its chain ({@code tls-keystore})
 * @param keyStorePassword the key store's password, or null for none ({@code tls-keystore-password})
 * @param clientAuth whether clients must show a certificate ({@code tls-client-auth}, default none)
 * @param trustedCertificates PEM file with the CA certificates client certificates must chain to; needed
 *     when {@code clientAuth} is not {@link ClientAuth#NONE} ({@code tls-trust})
 * @param protocols the TLS versions offered ({@code tls-protocols}, default {@code TLSv1.3,TLSv1.2})
 * @param handshakeTimeout how long a client may take to finish its handshake from accept
 *     ({@code tls-handshake-timeout}, default 10 s)
 * @param reloadInterval how often the key files are checked for changes; 0 never
 *     ({@code tls-reload-interval}, default 10 s)
 */
public record TlsOptions(Path certificate, Path privateKey, String privateKeyPassword, Path keyStore,
        String keyStorePassword, ClientAuth clientAuth, Path trustedCertificates, List<String> protocols,
        Duration handshakeTimeout, Duration reloadInterval) {

    /** The TLS versions a server may offer. */
    public static final Set<String> SUPPORTED_PROTOCOLS = Set.of("TLSv1.3", "TLSv1.2");
    /** Default of the option {@code tls-protocols}. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /** Default of the option {@code tls-handshake-timeout}. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    /** Default of the option {@code tls-reload-interval}. */
    public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(10);
    /** No TLS. */
    public static final TlsOptions NONE = new TlsOptions(null, null, null, null, null, ClientAuth.NONE, null,
            DEFAULT_PROTOCOLS, DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_RELOAD_INTERVAL);

    /**
     * Checks that the settings make sense together (the files themselves are read when the server starts).
     *
     * @throws IllegalArgumentException when they do not: a certificate without its key or the reverse,
     *     both PEM files and a key store, an unsupported or empty protocol list, client authentication
     *     without trusted certificates, a negative or zero handshake timeout, a negative reload interval
     */
    public TlsOptions {
        if ((certificate == null) != (privateKey == null)) {
            throw new IllegalArgumentException("tls-cert and tls-key (BRISK_TLS_CERT, BRISK_TLS_KEY) go together: give both, or tls-keystore");
        }
        if (certificate != null && keyStore != null) {
            throw new IllegalArgumentException("give tls-cert and tls-key, or tls-keystore (BRISK_TLS_KEYSTORE), not both");
        }
        if (clientAuth == null) {
            throw new IllegalArgumentException("tls-client-auth" + ServerOptions.where("tls-client-auth") + " must be none, want or need");
        }
        if (clientAuth != ClientAuth.NONE && trustedCertificates == null) {
            throw new IllegalArgumentException("tls-client-auth " + clientAuth.name().toLowerCase(java.util.Locale.ROOT)
                    + " needs tls-trust: the CA certificates client certificates must chain to");
        }
        if (protocols == null || protocols.isEmpty() || !SUPPORTED_PROTOCOLS.containsAll(protocols)) {
            throw new IllegalArgumentException("tls-protocols" + ServerOptions.where("tls-protocols") + " must be TLSv1.3 and/or TLSv1.2: " + protocols);
        }
        protocols = List.copyOf(protocols);
        if (handshakeTimeout == null || handshakeTimeout.isNegative() || handshakeTimeout.isZero()
                || handshakeTimeout.compareTo(ServerOptions.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("tls-handshake-timeout" + ServerOptions.where("tls-handshake-timeout") + " must be > 0 and at most 365 days: " + ConfigSource.text(handshakeTimeout));
        }
        if (reloadInterval == null || reloadInterval.isNegative() || reloadInterval.compareTo(ServerOptions.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("tls-reload-interval" + ServerOptions.where("tls-reload-interval") + " must be >= 0 and at most 365 days: " + ConfigSource.text(reloadInterval));
        }
    }

    /** {@return whether TLS is on: a key is given} */
    public boolean enabled() {
        return certificate != null || keyStore != null;
    }

    /** Like the generated form, with the passwords masked. */
    @Override
    public String toString() {
        return "TlsOptions[certificate=" + certificate + ", privateKey=" + privateKey + ", privateKeyPassword="
                + mask(privateKeyPassword) + ", keyStore=" + keyStore + ", keyStorePassword=" + mask(keyStorePassword)
                + ", clientAuth=" + clientAuth + ", trustedCertificates=" + trustedCertificates + ", protocols="
                + protocols + ", handshakeTimeout=" + handshakeTimeout + ", reloadInterval=" + reloadInterval + "]";
    }

    private static String mask(String password) {
        return password == null ? "null" : "***";
    }
}
