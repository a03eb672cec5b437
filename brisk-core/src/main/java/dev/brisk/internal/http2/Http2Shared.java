package dev.brisk.internal.http2;

import dev.brisk.Http2Options;
import dev.brisk.ServerOptions;
import dev.brisk.internal.http1.Http1Shared;
import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.ProtocolFactory;
import dev.brisk.internal.transport.Upgrade;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import java.nio.ByteBuffer;

/**
 * What every HTTP/2 connection of one server shares: the options, the app, the access log and the
 * admission control (each null when off), and the
 * HTTP/1.1 side's server-wide state it reports to (the drain, lingering closes, where response
 * streams are pumped). Also the two ways a connection becomes HTTP/2: {@link #afterHandshake} picks
 * HTTP/2 or HTTP/1.1 by what ALPN settled, {@link #priorKnowledge} takes over a plain connection
 * whose HTTP/1.1 side found the HTTP/2 preface.
 *
 * <p>Threads: immutable; any thread.
 */
public final class Http2Shared {
    final ServerOptions options;
    final Http2Options h2;
    final App app;
    final AccessLog accessLog;
    final Http1Shared http1;
    final AdmissionControl admission;
    /** {@code min-body-rate} for each stream's body, or null. */
    final dev.brisk.internal.transport.DataRate.Limit bodyRate;
    /** {@code min-response-rate} for each stream's answer while it waits for the client's window, or null. */
    final dev.brisk.internal.transport.DataRate.Limit responseRate;

    public Http2Shared(ServerOptions options, App app, AccessLog accessLog, AdmissionControl admission,
            Http1Shared http1) {
        this.options = options;
        this.admission = admission;
        this.h2 = options.http2();
        this.bodyRate = dev.brisk.internal.transport.DataRate.Limit.of(options.minBodyRate(),
                options.rateGrace().toNanos(), options.rateWindow().toNanos());
        this.responseRate = dev.brisk.internal.transport.DataRate.Limit.of(options.minResponseRate(),
                options.rateGrace().toNanos(), options.rateWindow().toNanos());
        this.app = app;
        this.accessLog = accessLog;
        this.http1 = http1;
    }

    /** The protocol of a TLS connection once its handshake is done: HTTP/2 when ALPN chose {@code h2}. */
    public ProtocolFactory afterHandshake() {
        return new ProtocolFactory() {
            @Override
            public Protocol open(Wire wire) {
                dev.brisk.TlsInfo t = wire.tls();
                if (h2.enabled() && t != null && "h2".equals(t.applicationProtocol())) {
                    return Http2Shared.this.open(wire, null);
                }
                return http1.open(wire);
            }

            @Override
            public ProtocolFactory whenBusy() {
                return http1.whenBusy(); // its ALPN offers HTTP/1.1 alone (ServerTls)
            }
        };
    }

    /** The h2c take-over of a plain connection that opened with the preface (the bytes read so far buffered). */
    public Upgrade priorKnowledge() {
        return this::open;
    }

    /** The ALPN protocols a TLS server offers, most preferred first. */
    public String[] alpn() {
        return h2.enabled() ? new String[] {"h2", "http/1.1"} : new String[] {"http/1.1"};
    }

    Protocol open(Wire wire, ByteBuffer buffered) {
        return new Http2Connection(wire, this, buffered);
    }
}
