package dev.brisk.ws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * RFC 6455 and RFC 7692 conformance, case group by case group of the Autobahn TestSuite (1 framing,
 * 2 pings/pongs, 3 reserved bits, 4 opcodes, 5 fragmentation, 6 UTF-8, 7 close handling, 9 limits,
 * 12/13 compression), driven by a raw-socket client that sends exactly the bytes each case needs, on
 * every engine. The full Autobahn run is {@link AutobahnTest}.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class WebSocketConformanceTest {
    private static final int MAX = 64 * 1024;

    @Parameter
    Engine engine;

    private BriskTestServer server;

    @BeforeEach
    void start() {
        server = BriskTestServer.start(engine, cfg -> {
            cfg.options().wsMaxMessageSize(MAX).wsMaxFrameSize(MAX).wsCloseTimeout(Duration.ofSeconds(2));
            cfg.ws("/echo", ws -> ws
                    .onText((s, t) -> s.sendText(t))
                    .onBinary((s, b) -> s.sendBinary(b))).dispatch(Dispatch.EVENT_LOOP);
        });
    }

    @AfterEach
    void stop() {
        try {
            // every session of the test has ended: whatever its messages held (failed mid-message, inflated,
            // queued for a peer that left) is given back to ws-memory
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while ((server.app().metrics().webSocketBufferedBytes() != 0
                    || server.app().metrics().webSocketSessionsActive() != 0) && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            assertThat(server.app().metrics().webSocketSessionsActive()).as("sessions open after the test").isZero();
            assertThat(server.app().metrics().webSocketBufferedBytes()).as("message bytes held after the test").isZero();
        } finally {
            server.close();
        }
    }

    private RawWs open() throws IOException {
        RawWs c = RawWs.open(server.port(), "/echo");
        assertThat(c.status()).as(c.head).isEqualTo(101);
        return c;
    }

    private RawWs openDeflate(String offer) throws IOException {
        RawWs c = RawWs.open(server.port(), "/echo", "Sec-WebSocket-Extensions: " + offer + "\r\n");
        assertThat(c.status()).as(c.head).isEqualTo(101);
        return c;
    }

    /** The connection is failed with {@code code}: a close frame with it, then the server ends the connection. */
    private static void failsWith(RawWs c, int code) throws IOException {
        RawWs.Frame f = c.readClose();
        assertThat(f.closeCode()).as("close code (%s)", f.closeReason()).isEqualTo(code);
        assertThat(c.endsWithin(5_000)).as("the server ends the connection").isTrue();
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 3);
        }
        return b;
    }

    // ---- 1: framing ---------------------------------------------------------------------------------

    @Test
    void framing_everyLengthEncodingEchoes() throws IOException {
        try (RawWs c = open()) {
            for (int n : new int[] {0, 1, 125, 126, 127, 65535, 65536}) {
                c.send(true, 0, 2, bytes(n));
                RawWs.Frame f = c.readData();
                assertThat(f.opcode()).isEqualTo(2);
                assertThat(f.payload()).as("binary of %d bytes", n).isEqualTo(bytes(n));
                c.text("x".repeat(Math.min(n, 1000)));
                assertThat(c.readData().text()).isEqualTo("x".repeat(Math.min(n, 1000)));
            }
        }
    }

    @Test
    void framing_framesSplitAtEveryByteStillEcho() throws IOException {
        try (RawWs c = open()) {
            byte[] frame = c.frame(true, 0, 1, "split at every byte".getBytes(StandardCharsets.UTF_8), true);
            c.trickle(frame, 1);
            assertThat(c.readData().text()).isEqualTo("split at every byte");
            byte[] two = concat(c.frame(true, 0, 1, "a".getBytes(), true), c.frame(true, 0, 1, "b".getBytes(), true));
            c.raw(two); // two frames in one write
            assertThat(c.readData().text()).isEqualTo("a");
            assertThat(c.readData().text()).isEqualTo("b");
        }
    }

    @Test
    void framing_anUnmaskedClientFrameFails() throws IOException {
        try (RawWs c = open()) {
            c.raw(c.frame(true, 0, 1, "no mask".getBytes(), false));
            failsWith(c, 1002);
        }
    }

    // ---- 2: pings and pongs -------------------------------------------------------------------------

    @Test
    void pings_areAnsweredWithTheirPayload() throws IOException {
        try (RawWs c = open()) {
            c.send(true, 0, 9, new byte[0]);
            RawWs.Frame pong = c.read();
            assertThat(pong.opcode()).isEqualTo(10);
            assertThat(pong.payload()).isEmpty();
            c.send(true, 0, 9, bytes(125));
            pong = c.read();
            assertThat(pong.opcode()).isEqualTo(10);
            assertThat(pong.payload()).isEqualTo(bytes(125));
            c.send(true, 0, 10, "unsolicited".getBytes()); // an unsolicited pong is ignored
            c.text("still open");
            assertThat(c.readData().text()).isEqualTo("still open");
        }
    }

    @Test
    void pings_longerThan125BytesFail() throws IOException {
        try (RawWs c = open()) {
            c.send(true, 0, 9, bytes(126));
            failsWith(c, 1002);
        }
    }

    @Test
    void pings_fragmentedFail() throws IOException {
        try (RawWs c = open()) {
            c.send(false, 0, 9, bytes(3));
            failsWith(c, 1002);
        }
    }

    // ---- 3: reserved bits ---------------------------------------------------------------------------

    @Test
    void reservedBits_withoutAnExtensionFail() throws IOException {
        for (int rsv : new int[] {1, 2, 3, 4, 5, 6, 7}) {
            try (RawWs c = open()) {
                c.send(true, rsv, 1, "rsv".getBytes());
                failsWith(c, 1002);
            }
        }
    }

    // ---- 4: opcodes ---------------------------------------------------------------------------------

    @Test
    void opcodes_reservedOnesFail() throws IOException {
        for (int op : new int[] {3, 4, 5, 6, 7, 11, 12, 13, 14, 15}) {
            try (RawWs c = open()) {
                c.text("before");
                assertThat(c.readData().text()).isEqualTo("before");
                c.send(true, 0, op, new byte[0]);
                failsWith(c, 1002);
            }
        }
    }

    // ---- 5: fragmentation ---------------------------------------------------------------------------

    @Test
    void fragmentation_fragmentsJoinWithControlFramesBetween() throws IOException {
        try (RawWs c = open()) {
            c.send(false, 0, 1, "frag".getBytes());
            c.send(true, 0, 9, "ping".getBytes()); // a control frame between fragments is answered at once
            RawWs.Frame pong = c.read();
            assertThat(pong.opcode()).isEqualTo(10);
            assertThat(pong.text()).isEqualTo("ping");
            c.send(false, 0, 0, "men".getBytes());
            c.send(true, 0, 0, "ted".getBytes());
            assertThat(c.readData().text()).isEqualTo("fragmented");
            c.send(false, 0, 2, bytes(10));
            c.send(true, 0, 0, new byte[0]);
            assertThat(c.readData().payload()).isEqualTo(bytes(10));
        }
    }

    @Test
    void fragmentation_aContinuationWithoutAMessageFails() throws IOException {
        try (RawWs c = open()) {
            c.send(true, 0, 0, "orphan".getBytes());
            failsWith(c, 1002);
        }
    }

    @Test
    void fragmentation_aNewMessageInsideAFragmentedOneFails() throws IOException {
        try (RawWs c = open()) {
            c.send(false, 0, 1, "one".getBytes());
            c.send(true, 0, 1, "two".getBytes());
            failsWith(c, 1002);
        }
    }

    // ---- 6: UTF-8 -----------------------------------------------------------------------------------

    @Test
    void utf8_validTextSplitInsideCharactersEchoes() throws IOException {
        String text = "κόσμε 世界 😀 ok";
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        for (int split = 1; split < b.length; split++) {
            try (RawWs c = open()) {
                c.send(false, 0, 1, Arrays.copyOfRange(b, 0, split));
                c.send(true, 0, 0, Arrays.copyOfRange(b, split, b.length));
                assertThat(c.readData().text()).as("split at %d", split).isEqualTo(text);
            }
        }
    }

    @Test
    void utf8_invalidSequencesFailWith1007() throws IOException {
        byte[][] invalid = {
            {(byte) 0xC0, (byte) 0x80}, // overlong NUL
            {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, // overlong '/'
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a surrogate
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0x80}, // a lone continuation byte
            {(byte) 0xCE, (byte) 0xBA, (byte) 0xE1}, // ends inside a character
            {(byte) 0xFE}, {(byte) 0xFF},
        };
        for (byte[] bad : invalid) {
            try (RawWs c = open()) {
                c.send(true, 0, 1, bad);
                failsWith(c, 1007);
            }
        }
    }

    @Test
    void utf8_invalidTextFailsFastBeforeTheMessageEnds() throws IOException {
        try (RawWs c = open()) {
            c.send(false, 0, 1, new byte[] {'o', 'k', (byte) 0xED, (byte) 0xA0, (byte) 0x80});
            // the message is not finished, yet the server fails it at the invalid bytes
            failsWith(c, 1007);
        }
    }

    // ---- 7: close handling --------------------------------------------------------------------------

    @Test
    void close_validCodesAreEchoedAndTheServerEndsTheConnection() throws IOException {
        for (int code : new int[] {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999}) {
            try (RawWs c = open()) {
                c.close(code, "reason");
                RawWs.Frame f = c.readClose();
                assertThat(f.closeCode()).isEqualTo(code);
                assertThat(c.endsWithin(5_000)).isTrue();
            }
        }
    }

    @Test
    void close_anEmptyCloseGetsAnEmptyOne() throws IOException {
        try (RawWs c = open()) {
            c.send(true, 0, 8, new byte[0]);
            RawWs.Frame f = c.readClose();
            assertThat(f.payload()).isEmpty();
            assertThat(c.endsWithin(5_000)).isTrue();
        }
    }

    @Test
    void close_invalidCodesFail() throws IOException {
        for (int code : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000}) {
            try (RawWs c = open()) {
                c.close(code, "");
                failsWith(c, 1002);
            }
        }
    }

    @Test
    void close_aOneBytePayloadOrAnInvalidReasonFails() throws IOException {
        try (RawWs c = open()) {
            c.send(true, 0, 8, new byte[] {0x03});
            failsWith(c, 1002);
        }
        try (RawWs c = open()) {
            c.send(true, 0, 8, new byte[] {0x03, (byte) 0xE8, (byte) 0xED, (byte) 0xA0, (byte) 0x80});
            failsWith(c, 1007);
        }
    }

    @Test
    void close_framesAfterTheCloseAreIgnored() throws IOException {
        try (RawWs c = open()) {
            c.raw(concat(c.frame(true, 0, 8, new byte[] {0x03, (byte) 0xE8}, true),
                    c.frame(true, 0, 1, "after close".getBytes(), true)));
            RawWs.Frame f = c.read();
            assertThat(f.opcode()).as("no echo of a message after the close").isEqualTo(8);
            assertThat(c.endsWithin(5_000)).isTrue();
        }
    }

    // ---- 9: limits ----------------------------------------------------------------------------------

    @Test
    void limits_aFrameOverTheLimitFailsWith1009BeforeItsPayload() throws IOException {
        try (RawWs c = open()) {
            byte[] header = Arrays.copyOf(c.frame(true, 0, 2, new byte[MAX + 1], true), 2 + 8 + 4);
            c.raw(header); // only the header: the server need not wait for a payload it will refuse
            failsWith(c, 1009);
        }
    }

    @Test
    void limits_aMessageOverTheLimitFailsWith1009() throws IOException {
        try (RawWs c = open()) {
            c.send(false, 0, 2, bytes(MAX / 2));
            c.send(false, 0, 0, bytes(MAX / 2));
            c.send(true, 0, 0, bytes(1));
            failsWith(c, 1009);
        }
    }

    @Test
    void limits_aMessageAtTheLimitEchoes() throws IOException {
        try (RawWs c = open()) {
            c.send(false, 0, 2, bytes(MAX / 2));
            c.send(true, 0, 0, bytes(MAX / 2));
            assertThat(c.readData().payload()).hasSize(MAX);
        }
    }

    @Test
    void limits_aLengthWithTheHighBitSetFails() throws IOException {
        try (RawWs c = open()) {
            c.raw(new byte[] {(byte) 0x82, (byte) 0xFF, (byte) 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4});
            failsWith(c, 1002);
        }
    }

    // ---- 12, 13: permessage-deflate -----------------------------------------------------------------

    @Test
    void compression_isAgreedAndCompressedMessagesEcho() throws IOException {
        try (RawWs c = openDeflate("permessage-deflate; client_max_window_bits")) {
            assertThat(c.header("Sec-WebSocket-Extensions")).isEqualTo("permessage-deflate; server_no_context_takeover");
            String text = "compress me, compress me, compress me, compress me ".repeat(40);
            c.send(true, 4, 1, RawWs.deflate(text.getBytes(StandardCharsets.UTF_8)));
            RawWs.Frame f = c.readData();
            assertThat(f.rsv1()).as("a large repetitive answer goes compressed").isTrue();
            assertThat(f.text()).isEqualTo(text);
            c.text("small, uncompressed");
            RawWs.Frame small = c.readData();
            assertThat(small.rsv1()).isFalse();
            assertThat(small.text()).isEqualTo("small, uncompressed");
            // a compressed message in fragments: RSV1 on the first only
            byte[] z = RawWs.deflate(bytes(5000));
            c.send(false, 4, 2, Arrays.copyOfRange(z, 0, z.length / 2));
            c.send(true, 0, 0, Arrays.copyOfRange(z, z.length / 2, z.length));
            assertThat(c.readData().payload()).isEqualTo(bytes(5000));
        }
    }

    @Test
    void compression_everyOfferParameterIsHonoured() throws IOException {
        try (RawWs c = openDeflate("permessage-deflate; server_max_window_bits=9; client_no_context_takeover")) {
            assertThat(c.header("Sec-WebSocket-Extensions")).isEqualTo(
                    "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=9");
            String text = "a window of 512 bytes ".repeat(100); // longer than the window: goes uncompressed
            c.send(true, 4, 1, RawWs.deflate(text.getBytes(StandardCharsets.UTF_8)));
            RawWs.Frame f = c.readData();
            assertThat(f.rsv1()).isFalse();
            assertThat(f.text()).isEqualTo(text);
        }
        try (RawWs c = openDeflate("permessage-deflate; unknown_param, permessage-deflate; server_no_context_takeover")) {
            assertThat(c.header("Sec-WebSocket-Extensions")).as("the first acceptable offer wins")
                    .isEqualTo("permessage-deflate; server_no_context_takeover");
        }
        try (RawWs c = openDeflate("permessage-deflate; server_max_window_bits=7")) {
            assertThat(c.header("Sec-WebSocket-Extensions")).as("no acceptable offer: no compression").isNull();
        }
    }

    @Test
    void compression_aMessageThatInflatesPastTheLimitFailsWith1009() throws IOException {
        try (RawWs c = openDeflate("permessage-deflate")) {
            byte[] bomb = RawWs.deflate(new byte[MAX * 16]); // about a kilobyte that inflates to 1 MiB
            assertThat(bomb.length).isLessThan(MAX);
            c.send(true, 4, 2, bomb);
            failsWith(c, 1009);
        }
    }

    @Test
    void compression_rsv1OnAContinuationFails() throws IOException {
        try (RawWs c = openDeflate("permessage-deflate")) {
            c.send(false, 4, 1, RawWs.deflate("ab".getBytes()));
            c.send(true, 4, 0, new byte[0]);
            failsWith(c, 1002);
        }
    }

    @Test
    void compression_invalidDataFailsWith1007() throws IOException {
        try (RawWs c = openDeflate("permessage-deflate")) {
            c.send(true, 4, 2, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x00});
            failsWith(c, 1007);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
