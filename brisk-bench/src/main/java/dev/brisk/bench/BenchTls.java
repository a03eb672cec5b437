package dev.brisk.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The throwaway key of the TLS scenarios and the port they use: a self-signed EC P-256 certificate for
 * {@code localhost} and {@code 127.0.0.1}, made at run time by {@link #create(Path)} (keytool, valid two
 * days) under the run's directory and never committed, in the two forms the servers take: PEM
 * ({@code cert.pem}, PKCS#8 {@code key.pem}) and PKCS#12 ({@code keystore.p12}, password
 * {@link #PASSWORD}). Every TLS-speaking server offers {@code h2} and {@code http/1.1} by ALPN on
 * {@link #port()}, beside its plain port.
 *
 * <p>{@code BenchTls <dir>} (run by bench/harness.sh) writes the files; servers get them from the
 * environment ({@code BENCH_TLS_DIR}, {@code BENCH_TLS_PORT}, see {@link #fromEnv()}).
 *
 * @param port the TLS port
 * @param dir the directory holding the files
 */
public record BenchTls(int port, Path dir) {
    /** The key store's password: a throwaway key, so a fixed one. */
    public static final String PASSWORD = "bench-only";

    /** {@return the PEM certificate (the chain is this one certificate)} */
    public Path certPem() {
        return dir.resolve("cert.pem");
    }

    /** {@return the PEM PKCS#8 private key, unencrypted} */
    public Path keyPem() {
        return dir.resolve("key.pem");
    }

    /** {@return the PKCS#12 key store holding the key and certificate (alias {@code bench})} */
    public Path keyStorePath() {
        return dir.resolve("keystore.p12");
    }

    /** {@return the loaded PKCS#12 key store} */
    public KeyStore keyStore() throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStorePath())) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    /** {@return the private key} */
    public PrivateKey privateKey() throws IOException, GeneralSecurityException {
        return (PrivateKey) keyStore().getKey("bench", PASSWORD.toCharArray());
    }

    /** {@return the certificate chain, the server's own first} */
    public List<X509Certificate> chain() throws IOException, GeneralSecurityException {
        return Arrays.stream(keyStore().getCertificateChain("bench")).map(c -> (X509Certificate) c).toList();
    }

    /** {@return a TLS context over the key (the JDK provider), for servers that take one} */
    public SSLContext sslContext() throws IOException, GeneralSecurityException {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore(), PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    /**
     * {@return the TLS settings from {@code BENCH_TLS_DIR} and {@code BENCH_TLS_PORT}, or null when they are
     * not set (the harness sets them only when a TLS scenario runs)}
     */
    public static BenchTls fromEnv() {
        String dir = System.getenv("BENCH_TLS_DIR");
        String port = System.getenv("BENCH_TLS_PORT");
        if (dir == null || dir.isBlank() || port == null || port.isBlank()) {
            return null;
        }
        return new BenchTls(Integer.parseInt(port), Path.of(dir));
    }

    /**
     * Writes a new key and certificate into {@code dir} (created if missing), replacing any there.
     *
     * @param dir where the files go
     * @return the files, with port 0 (set the port with {@code new BenchTls(port, dir)})
     */
    public static BenchTls create(Path dir) throws IOException, GeneralSecurityException, InterruptedException {
        Files.createDirectories(dir);
        BenchTls tls = new BenchTls(0, dir);
        Files.deleteIfExists(tls.keyStorePath());
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "bench",
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", tls.keyStorePath().toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("keytool failed: " + out);
        }
        Certificate cert = tls.keyStore().getCertificate("bench");
        Files.writeString(tls.certPem(), pem("CERTIFICATE", cert.getEncoded()));
        Files.writeString(tls.keyPem(), pem("PRIVATE KEY", tls.privateKey().getEncoded()));
        return tls;
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    /**
     * {@code BenchTls <dir>}: writes the key and certificate into dir.
     *
     * @param args the directory
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: BenchTls <dir>");
            System.exit(2);
        }
        create(Path.of(args[0]));
    }
}
