package dev.brisk;

import java.security.cert.Certificate;
import java.util.List;

/**
 * What the TLS handshake of a request's connection settled, for {@link Context#tls()}.
 *
 * @param protocol the TLS version, {@code TLSv1.3} or {@code TLSv1.2}
 * @param cipherSuite the cipher suite, e.g. {@code TLS_AES_128_GCM_SHA256}
 * @param serverName the host name the client asked for (SNI), or null when it sent none
 * @param applicationProtocol the protocol agreed by ALPN ({@code http/1.1}), or null when none was
 * @param peerCertificates the client's certificate chain, its own first; empty when it sent none
 */
public record TlsInfo(String protocol, String cipherSuite, String serverName, String applicationProtocol,
        List<Certificate> peerCertificates) {
    /**
     * Copies the list, which may not be null.
     *
     * @throws NullPointerException when {@code peerCertificates} is null
     */
    public TlsInfo {
        peerCertificates = List.copyOf(peerCertificates);
    }
}
