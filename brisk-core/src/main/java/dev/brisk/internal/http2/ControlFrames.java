package dev.brisk.internal.http2;

import dev.brisk.Http2Options;
import java.util.function.LongSupplier;

/**
 * The client's control frames on one HTTP/2 connection (RFC 9113 section 6): {@code SETTINGS} applied
 * and acknowledged, {@code PING} answered (the drain's own answer goes to {@link GoAway}),
 * {@code WINDOW_UPDATE} for the connection's send window or a stream's, the client's {@code GOAWAY},
 * and frames that carry nothing, each counted by the {@link FloodGuard}. Also the server's own
 * preface: its {@code SETTINGS} and the connection's larger receive window. Loop thread only.
 */
final class ControlFrames implements FrameReader.ConnectionFrames {
    private final FrameWriter frames;
    private final ResponseSender sender;
    private final RequestStreams streams;
    private final FloodGuard flood;
    private final GoAway goAway;
    private final LongSupplier clock;

    ControlFrames(FrameWriter frames, ResponseSender sender, RequestStreams streams, FloodGuard flood, GoAway goAway,
            LongSupplier clock) {
        this.frames = frames;
        this.sender = sender;
        this.streams = streams;
        this.flood = flood;
        this.goAway = goAway;
        this.clock = clock;
    }

    /** The server's preface: SETTINGS first, then the connection's window raised to {@code connWindow}. */
    void preface(Http2Options h2, int connWindow) {
        int[] settings = h2.maxFrameSize() != H2.MIN_MAX_FRAME_SIZE
                ? new int[] {H2.SETTINGS_MAX_CONCURRENT_STREAMS, h2.maxConcurrentStreams(),
                        H2.SETTINGS_INITIAL_WINDOW_SIZE, h2.initialWindowSize(),
                        H2.SETTINGS_MAX_HEADER_LIST_SIZE, h2.maxHeaderListSize(),
                        H2.SETTINGS_MAX_FRAME_SIZE, h2.maxFrameSize()}
                : new int[] {H2.SETTINGS_MAX_CONCURRENT_STREAMS, h2.maxConcurrentStreams(),
                        H2.SETTINGS_INITIAL_WINDOW_SIZE, h2.initialWindowSize(),
                        H2.SETTINGS_MAX_HEADER_LIST_SIZE, h2.maxHeaderListSize()};
        frames.settings(settings);
        if (connWindow > H2.DEFAULT_WINDOW) {
            frames.windowUpdate(0, connWindow - H2.DEFAULT_WINDOW);
        }
    }

    @Override
    public void setting(int id, int value) throws Http2Exception {
        switch (id) {
            case H2.SETTINGS_HEADER_TABLE_SIZE -> sender.encoder().peerTableSize(value < 0 ? Integer.MAX_VALUE : value);
            case H2.SETTINGS_ENABLE_PUSH -> {
                if (value != 0 && value != 1) {
                    throw new Http2Exception(H2.PROTOCOL_ERROR, "SETTINGS_ENABLE_PUSH must be 0 or 1");
                }
            }
            case H2.SETTINGS_INITIAL_WINDOW_SIZE -> {
                if (value < 0) {
                    throw new Http2Exception(H2.FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1");
                }
                streams.peerInitialWindow(value);
            }
            case H2.SETTINGS_MAX_FRAME_SIZE -> {
                if (value < H2.MIN_MAX_FRAME_SIZE || value > H2.MAX_MAX_FRAME_SIZE) {
                    throw new Http2Exception(H2.PROTOCOL_ERROR, "SETTINGS_MAX_FRAME_SIZE out of range");
                }
                frames.peerMaxFrame(value);
            }
            default -> {
                // SETTINGS_MAX_CONCURRENT_STREAMS limits pushes, which this server never makes;
                // SETTINGS_MAX_HEADER_LIST_SIZE is advisory; unknown settings are ignored (6.5.2)
            }
        }
    }

    @Override
    public void settingsEnd(boolean ack) throws Http2Exception {
        if (ack) {
            return;
        }
        FloodGuard.enforce(flood.control(clock.getAsLong()));
        frames.settingsAck();
    }

    @Override
    public void ping(boolean ack, long payload) throws Http2Exception {
        if (ack) {
            goAway.pingAnswered(payload, streams.lastClientStream());
            return;
        }
        FloodGuard.enforce(flood.control(clock.getAsLong()));
        frames.ping(true, payload);
    }

    @Override
    public void goAway(int lastStream, int code) {
        goAway.peerSent(); // no new streams will come; those in flight finish
    }

    @Override
    public void unknownFrame(int type) throws Http2Exception {
        FloodGuard.enforce(flood.control(clock.getAsLong()));
    }

    @Override
    public void emptyContinuation() throws Http2Exception {
        FloodGuard.enforce(flood.control(clock.getAsLong()));
    }

    @Override
    public void windowUpdate(int stream, int increment) throws Http2Exception {
        if (stream != 0) {
            streams.windowUpdate(stream, increment);
            return;
        }
        if (increment == 0) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "WINDOW_UPDATE of 0 for the connection");
        }
        if (!sender.connWindowUpdate(increment)) {
            throw new Http2Exception(H2.FLOW_CONTROL_ERROR, "connection window above 2^31-1");
        }
    }
}
