package dev.brisk.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Keys and self-signed certificates for TLS tests, made by the JDK's {@code keytool} (the JDK has no
 * public API to make a certificate): a PKCS#12 file, and the same key as PEM files (the certificate
 * exported by keytool, the PKCS#8 key written here from the key store).
 */
public final class TestKeys {
    public static final String PASSWORD = "changeit";

    /** One key: where its files are, and the certificate. */
    public record Key(Path p12, Path certPem, Path keyPem, X509Certificate cert) {
        /** A client context that trusts this key's certificate (and only it). */
        public SSLContext trustingContext() throws Exception {
            return context(null, this);
        }
    }

    /** The keys the TLS tests share: made once per test JVM (keytool takes a second or two per key). */
    public record Shared(Path dir, Key server, Key other, Key client) {
    }

    private static Shared shared;

    private TestKeys() {
    }

    public static synchronized Shared shared() throws Exception {
        if (shared == null) {
            Path dir = Files.createTempDirectory("brisk-tls-test");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "brisk-tls-test-cleanup"));
            shared = new Shared(dir, make(dir, "server", "localhost"), make(dir, "other", "localhost"),
                    make(dir, "client", "test-client"));
        }
        return shared;
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the system cleans it up in the end
        }
    }

    /** Makes a key pair and a self-signed certificate for {@code cn} (also a SAN for localhost and 127.0.0.1). */
    static Key make(Path dir, String name, String cn) throws Exception {
        Files.createDirectories(dir);
        Path p12 = dir.resolve(name + ".p12");
        Files.deleteIfExists(p12);
        keytool("-genkeypair", "-alias", "key", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + cn, "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-keystore", p12.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        X509Certificate cert = (X509Certificate) ks.getCertificate("key");
        PrivateKey key = (PrivateKey) ks.getKey("key", PASSWORD.toCharArray());
        Path certPem = dir.resolve(name + "-cert.pem");
        Path keyPem = dir.resolve(name + "-key.pem");
        Files.writeString(certPem, pem("CERTIFICATE", cert.getEncoded()));
        Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));
        return new Key(p12, certPem, keyPem, cert);
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    /** A client context with {@code own} as its key (or none) that trusts {@code trusted}'s certificate. */
    static SSLContext context(Key own, Key trusted) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", trusted.cert());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (own != null) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(own.p12())) {
                ks.load(in, PASSWORD.toCharArray());
            }
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD.toCharArray());
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }

    static List<Certificate> chain(Key k) {
        return List.of(k.cert());
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        String tool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(tool));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + out);
        }
    }
}
