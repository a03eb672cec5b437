package dev.brisk.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Brisk;
import dev.brisk.ClientAuth;
import dev.brisk.ServerOptions;
import dev.brisk.TlsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue 17: a mistake in the TLS options or key files fails the app's creation, naming the file and the reason. */
class TlsKeyFilesTest {
    static Path dir;
    static TestKeys.Key server;
    static TestKeys.Key other;

    @BeforeAll
    static void keys() throws Exception {
        TestKeys.Shared keys = TestKeys.shared();
        dir = keys.dir();
        server = keys.server();
        other = keys.other();
    }

    private static void create(java.util.function.Consumer<ServerOptions.Builder> options) {
        Brisk.create(cfg -> {
            cfg.options().port(0);
            options.accept(cfg.options());
        });
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefused() {
        assertThatThrownBy(() -> create(o -> o.tlsPem(server.certPem(), other.keyPem())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tls-key " + other.keyPem() + " is not the key of the first certificate in tls-cert "
                        + server.certPem());
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.pem");
        assertThatThrownBy(() -> create(o -> o.tlsPem(missing, server.keyPem())))
                .hasMessage("tls-cert " + missing + " cannot be read: no such file");
    }

    @Test
    void aPkcs1KeyGetsAHintAndAnEncryptedOneNeedsItsPassword() throws Exception {
        Path pkcs1 = dir.resolve("rsa.pem");
        Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        assertThatThrownBy(() -> create(o -> o.tlsPem(server.certPem(), pkcs1)))
                .hasMessageContaining("holds no PKCS#8 private key").hasMessageContaining("openssl pkcs8 -topk8");
        Path encrypted = dir.resolve("enc.pem");
        Files.writeString(encrypted, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertThatThrownBy(() -> create(o -> o.tlsPem(server.certPem(), encrypted)))
                .hasMessage("tls-key " + encrypted + " is encrypted: give tls-key-password");
    }

    @Test
    void aWrongKeyStorePasswordIsSaid() {
        assertThatThrownBy(() -> create(o -> o.tlsKeyStore(server.p12(), "wrong")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tls-keystore " + server.p12() + ": ");
    }

    @Test
    void aKeyStoreWithoutItsPasswordIsSaidSo() {
        assertThatThrownBy(() -> create(o -> o.tlsKeyStore(server.p12(), null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tls-keystore " + server.p12() + ": its private key cannot be read without a password; set"
                        + " tls-keystore-password (brisk.tls-keystore-password / BRISK_TLS_KEYSTORE_PASSWORD)");
        assertThatThrownBy(() -> create(o -> o.tlsKeyStore(server.p12(), "")))
                .hasMessageStartingWith("tls-keystore " + server.p12() + ": ");
    }

    @Test
    void optionsThatDoNotGoTogetherAreRefused() {
        assertThatThrownBy(() -> ServerOptions.builder().tlsPem(server.certPem(), null).build())
                .hasMessage("tls-cert and tls-key (BRISK_TLS_CERT, BRISK_TLS_KEY) go together: give both, or tls-keystore");
        assertThatThrownBy(() -> ServerOptions.builder().tlsPem(server.certPem(), server.keyPem())
                .tlsKeyStore(server.p12(), "x").build()).hasMessage("give tls-cert and tls-key, or tls-keystore (BRISK_TLS_KEYSTORE), not both");
        assertThatThrownBy(() -> ServerOptions.builder().tlsPem(server.certPem(), server.keyPem())
                .tlsClientAuth(ClientAuth.NEED).build()).hasMessageContaining("needs tls-trust");
        assertThatThrownBy(() -> ServerOptions.builder().tlsPem(server.certPem(), server.keyPem())
                .tlsProtocols(List.of("TLSv1.1")).build()).hasMessage("tls-protocols (brisk.tls-protocols / BRISK_TLS_PROTOCOLS) must be TLSv1.3 and/or TLSv1.2: [TLSv1.1]");
        assertThatThrownBy(() -> ServerOptions.builder().plainPort(8081).build())
                .hasMessage("plain-port (brisk.plain-port / BRISK_PLAIN_PORT) is for a server with TLS on port; without TLS, port is plain");
    }

    @Test
    void passwordsNeverShowInTheOptionsText() {
        ServerOptions o = ServerOptions.builder().tlsKeyStore(server.p12(), "s3cret").build();
        assertThat(o.toString()).doesNotContain("s3cret").contains("keyStorePassword=***");
        assertThat(o.tls().enabled()).isTrue();
        assertThat(ServerOptions.builder().build().tls()).isEqualTo(TlsOptions.NONE);
    }
}
