package dev.brisk.internal.tls;

import dev.brisk.ClientAuth;
import dev.brisk.TlsOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Reads a server's key and certificates from the files {@link TlsOptions} names (PEM: a certificate
 * chain and a PKCS#8 key, plain or encrypted; or a PKCS#12 key store) into an {@link SSLContext}. Every
 * mistake is an {@link IllegalArgumentException} that names the file and says what is wrong with it.
 * Stateless.
 */
final class KeyMaterial {
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"};

    private KeyMaterial() {
    }

    /** A server context for {@code o}, read from its files now. */
    static SSLContext context(TlsOptions o) {
        try {
            KeyStore keys = o.keyStore() != null ? keyStore(o.keyStore(), o.keyStorePassword())
                    : pemKeyStore(o.certificate(), o.privateKey(), o.privateKeyPassword());
            char[] pw = o.keyStore() != null && o.keyStorePassword() != null ? o.keyStorePassword().toCharArray()
                    : new char[0];
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, pw);
            TrustManagerFactory tmf = null;
            if (o.clientAuth() != ClientAuth.NONE) {
                tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trustStore(o.trustedCertificates()));
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("TLS key material cannot be used: " + e.getMessage(), e);
        }
    }

    /** The files whose changes call for a reload. */
    static List<Path> files(TlsOptions o) {
        return java.util.stream.Stream.of(o.certificate(), o.privateKey(), o.keyStore(), o.trustedCertificates())
                .filter(java.util.Objects::nonNull).toList();
    }

    private static KeyStore keyStore(Path file, String password) throws GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, password == null ? null : password.toCharArray());
        } catch (IOException e) {
            throw new IllegalArgumentException("tls-keystore " + file + ": " + reason(e)
                    + " (a PKCS#12 file and its password are needed)", e);
        }
        boolean hasKey = false;
        for (String alias : java.util.Collections.list(ks.aliases())) {
            if (ks.isKeyEntry(alias)) {
                hasKey = true;
                // a store read without its password loads, but its keys do not: say so here, with the file
                try {
                    ks.getKey(alias, password == null ? new char[0] : password.toCharArray());
                } catch (java.security.UnrecoverableKeyException e) {
                    throw new IllegalArgumentException("tls-keystore " + file + ": its private key cannot be read "
                            + (password == null || password.isEmpty()
                                    ? "without a password; set tls-keystore-password (brisk.tls-keystore-password /"
                                            + " BRISK_TLS_KEYSTORE_PASSWORD)"
                                    : "with tls-keystore-password (a wrong password, or a key with a password of"
                                            + " its own)"), e);
                }
            }
        }
        if (!hasKey) {
            throw new IllegalArgumentException("tls-keystore " + file + " holds no private key");
        }
        return ks;
    }

    private static KeyStore pemKeyStore(Path certFile, Path keyFile, String keyPassword) throws GeneralSecurityException {
        List<X509Certificate> chain = certificates(certFile, "tls-cert");
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("tls-cert " + certFile + " holds no certificate");
        }
        PrivateKey key = privateKey(keyFile, keyPassword);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try {
            ks.load(null, null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        try {
            ks.setKeyEntry("server", key, new char[0], chain.toArray(new Certificate[0]));
        } catch (java.security.KeyStoreException e) {
            throw new IllegalArgumentException("tls-key " + keyFile + " does not go with the certificate in tls-cert "
                    + certFile + ": " + e.getMessage(), e);
        }
        if (!matches(chain.get(0), key)) {
            throw new IllegalArgumentException("tls-key " + keyFile + " is not the key of the first certificate in"
                    + " tls-cert " + certFile);
        }
        return ks;
    }

    /** Whether {@code key} is the private half of {@code cert}'s public key (signs, and the signature verifies). */
    private static boolean matches(X509Certificate cert, PrivateKey key) {
        String alg = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null;
        };
        if (alg == null) {
            return true; // no way to check here: the handshake will tell
        }
        try {
            byte[] probe = "brisk".getBytes(StandardCharsets.US_ASCII);
            java.security.Signature s = java.security.Signature.getInstance(alg);
            s.initSign(key);
            s.update(probe);
            byte[] sig = s.sign();
            s.initVerify(cert.getPublicKey());
            s.update(probe);
            return s.verify(sig);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static KeyStore trustStore(Path file) throws GeneralSecurityException {
        List<X509Certificate> cas = certificates(file, "tls-trust");
        if (cas.isEmpty()) {
            throw new IllegalArgumentException("tls-trust " + file + " holds no certificate");
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try {
            ks.load(null, null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < cas.size(); i++) {
            ks.setCertificateEntry("ca-" + i, cas.get(i));
        }
        return ks;
    }

    static List<X509Certificate> certificates(Path file, String option) {
        byte[] bytes = read(file, option);
        try {
            Collection<? extends Certificate> all = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes));
            return all.stream().map(c -> (X509Certificate) c).toList();
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(option + " " + file + " is not a PEM certificate file: " + e.getMessage(), e);
        }
    }

    private static PrivateKey privateKey(Path file, String password) throws GeneralSecurityException {
        String pem = new String(read(file, "tls-key"), StandardCharsets.US_ASCII);
        byte[] der = block(pem, "PRIVATE KEY");
        if (der == null) {
            byte[] encrypted = block(pem, "ENCRYPTED PRIVATE KEY");
            if (encrypted == null) {
                String hint = pem.contains("BEGIN RSA PRIVATE KEY") || pem.contains("BEGIN EC PRIVATE KEY")
                        ? ": it is a PKCS#1 or SEC 1 key; convert it with"
                                + " 'openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pk8.pem'"
                        : "";
                throw new IllegalArgumentException("tls-key " + file + " holds no PKCS#8 private key"
                        + " (-----BEGIN PRIVATE KEY----- or -----BEGIN ENCRYPTED PRIVATE KEY-----)" + hint);
            }
            if (password == null) {
                throw new IllegalArgumentException("tls-key " + file + " is encrypted: give tls-key-password");
            }
            der = decrypt(encrypted, password, file);
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String alg : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException ignored) {
                // not this kind: try the next
            }
        }
        throw new IllegalArgumentException("tls-key " + file + ": not an RSA, EC or EdDSA private key");
    }

    private static byte[] decrypt(byte[] encrypted, String password, Path file) {
        try {
            EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(encrypted);
            SecretKeyFactory f = SecretKeyFactory.getInstance(info.getAlgName());
            Cipher c = Cipher.getInstance(info.getAlgName());
            c.init(Cipher.DECRYPT_MODE, f.generateSecret(new PBEKeySpec(password.toCharArray())), info.getAlgParameters());
            return info.getKeySpec(c).getEncoded();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("tls-key " + file + " cannot be decrypted with tls-key-password: "
                    + e.getMessage(), e);
        }
    }

    /** The bytes of the first PEM block labelled {@code label}, or null. */
    private static byte[] block(String pem, String label) {
        String begin = "-----BEGIN " + label + "-----";
        int from = pem.indexOf(begin);
        if (from < 0) {
            return null;
        }
        int to = pem.indexOf("-----END " + label + "-----", from);
        if (to < 0) {
            return null;
        }
        return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
    }

    private static byte[] read(Path file, String option) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be read: " + reason(e), e);
        }
    }

    private static String reason(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such file"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : String.valueOf(e.getMessage());
    }
}
