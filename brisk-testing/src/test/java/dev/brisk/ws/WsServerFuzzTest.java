package dev.brisk.ws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.LogCapture;
import dev.brisk.testing.WireFuzzRun;
import dev.brisk.tls.TestKeys;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Seeded wire fuzzing of WebSocket sessions over real sockets, on every engine, in the clear and over
 * TLS 1.3: each connection upgrades (some offering permessage-deflate), then sends a script of frames
 * built from valid messages (text, binary, fragmented with control frames between, compressed where
 * negotiated) and from what RFC 6455 forbids (invalid UTF-8, reserved opcodes and bits, unmasked
 * frames, control frames too long or fragmented, a continuation with nothing to continue, a new message
 * inside a fragmented one, close codes that may not be sent, frames and messages over the limits, a
 * 64-bit length with its top bit set); 30 % of the scripts then have bytes mutated; the bytes go out in
 * random pieces, and the script ends with a close handshake, a half-close, nothing, or a reset.
 *
 * <p>Checked per connection: a {@code 101}; every frame from the server well-formed (unmasked, a known
 * opcode, RSV1 only on a compressed message's first frame, control frames whole and at most 125 bytes,
 * a close code that may be sent, nothing after the close); the connection ended (no read waited 6 s;
 * the server's timeouts are 2 s); for scripts not mutated, the echoed messages are the messages sent
 * before the first fault, in order, a prefix of them; all of them, with the close code echoed, for a
 * script valid to its close or left to idle out; and a fault read to the end answered with a close
 * frame naming it (1002, 1007 or 1009). Afterwards: no connection and no session counted, no message byte held, no ERROR logged, the
 * I/O loops alive, and a new session echoing.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class WsServerFuzzTest {
    static final long SEED = Long.getLong("brisk.fuzz.seed", 0x3E_B50C_4E75L);
    static final int CONNECTIONS = Integer.getInteger("brisk.fuzz.connections", 200);
    static final int PARALLEL = 16;
    static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Well past what the server's timeouts (idle 2 s, then the close handshake's 2 s) take. */
    static final int READ_TIMEOUT_MILLIS = 6_000;
    static final int MAX_FRAME = 256;
    static final int MAX_MESSAGE = 1024;
    static final String DEFLATE_OFFER = "permessage-deflate; server_no_context_takeover; client_no_context_takeover";
    /** Close codes an endpoint may send (RFC 6455 7.4): 1005, 1006 and 1015 never go on the wire. */
    static final Set<Integer> SENDABLE = Set.of(1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014);

    @Parameter
    Engine engine;

    private static TestKeys.Key key;

    @BeforeAll
    static void keys() throws Exception {
        key = TestKeys.shared().server();
    }

    // ---- scripts ----------------------------------------------------------------------------------

    enum End { CLOSE, HALF_CLOSE, NOTHING, RESET }

    /** A whole data message as sent, and as it must come back. */
    record Message(int opcode, byte[] payload) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Message m && m.opcode == opcode && Arrays.equals(m.payload, payload);
        }

        @Override
        public int hashCode() {
            return opcode * 31 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return (opcode == 1 ? "text(" : "binary(") + payload.length + ")";
        }
    }

    /**
     * @param sent the whole valid messages sent before the first fault, in order
     * @param validToClose whether every frame is valid and the script ends with a close of code 1000
     * @param valid whether every frame is valid (and no byte mutated), however the script ends
     * @param faultCodes the close codes the server may answer the script's fault with; null without a fault
     */
    record Script(int id, boolean deflate, byte[] payload, int[] cuts, End end, boolean mutated,
            List<Message> sent, boolean validToClose, boolean valid, Set<Integer> faultCodes, List<String> ops) {
        String describe() {
            return "seed=" + SEED + " connection=" + id + " deflate=" + deflate + " end=" + end + " mutated=" + mutated
                    + " ops=" + ops + " cuts=" + Arrays.toString(cuts);
        }
    }

    /** Builds a connection's frames, masked with keys from the script's random. */
    static final class Frames {
        final Random r;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Frames(Random r) {
            this.r = r;
        }

        void frame(boolean fin, int rsv, int opcode, byte[] payload, boolean masked) {
            RawWs.writeFrame(out, r, fin, rsv, opcode, payload, masked);
        }

        void frame(boolean fin, int rsv, int opcode, byte[] payload) {
            frame(fin, rsv, opcode, payload, true);
        }
    }

    /** Valid UTF-8 of at most {@code n} bytes: ASCII and two-, three- and four-byte characters. */
    static byte[] text(Random r, int n) {
        StringBuilder b = new StringBuilder();
        int bytes = 0;
        while (true) {
            int k = r.nextInt(10);
            String c = k < 7 ? String.valueOf((char) ('a' + r.nextInt(26))) : k == 7 ? "é" : k == 8 ? "€" : "😀";
            int size = c.getBytes(StandardCharsets.UTF_8).length;
            if (bytes + size > n) {
                return b.toString().getBytes(StandardCharsets.UTF_8);
            }
            b.append(c);
            bytes += size;
        }
    }

    static byte[] binary(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** Deflates one message on its own (no context takeover), without the final 00 00 FF FF (RFC 7692 7.2.1). */
    static byte[] compress(byte[] data) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        try {
            d.setInput(data);
            byte[] buf = new byte[data.length + 64];
            int n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
            return Arrays.copyOf(buf, n - 4);
        } finally {
            d.end();
        }
    }

    static Script script(Random r, int id) {
        boolean deflate = r.nextInt(3) == 0;
        Frames f = new Frames(r);
        List<Message> sent = new ArrayList<>();
        List<String> ops = new ArrayList<>();
        boolean faulted = false;
        Set<Integer> faultCodes = null;
        int count = 1 + r.nextInt(8);
        for (int i = 0; i < count && !faulted; i++) {
            int op = r.nextInt(10) < 6 ? r.nextInt(5) : 5 + r.nextInt(12);
            String name;
            switch (op) {
                case 0, 1 -> { // a whole text or binary message in one frame
                    int opcode = op == 0 ? 1 : 2;
                    byte[] p = opcode == 1 ? text(r, r.nextInt(200)) : binary(r, r.nextInt(200));
                    if (deflate && r.nextBoolean()) {
                        f.frame(true, 4, opcode, compress(p));
                        name = "compressed-" + opcode;
                    } else {
                        f.frame(true, 0, opcode, p);
                        name = "whole-" + opcode;
                    }
                    sent.add(new Message(opcode, p));
                }
                case 2 -> { // fragmented in two to four frames, a control frame maybe between
                    int opcode = r.nextBoolean() ? 1 : 2;
                    int pieces = 2 + r.nextInt(3);
                    ByteArrayOutputStream whole = new ByteArrayOutputStream();
                    for (int k = 0; k < pieces; k++) {
                        byte[] p = opcode == 1 ? text(r, r.nextInt(60)) : binary(r, r.nextInt(60));
                        whole.writeBytes(p);
                        f.frame(k == pieces - 1, 0, k == 0 ? opcode : 0, p);
                        if (k < pieces - 1 && r.nextInt(3) == 0) {
                            f.frame(true, 0, 9, binary(r, r.nextInt(20))); // a ping between fragments
                        }
                    }
                    sent.add(new Message(opcode, whole.toByteArray()));
                    name = "fragmented-" + opcode + "x" + pieces;
                }
                case 3 -> {
                    f.frame(true, 0, 9, binary(r, r.nextInt(126)));
                    name = "ping";
                }
                case 4 -> {
                    f.frame(true, 0, 10, binary(r, r.nextInt(126)));
                    name = "pong";
                }
                default -> { // a fault: the server ends the session
                    faulted = true;
                    name = fault(r, f, op - 5, deflate);
                    faultCodes = FAULT_CODES.get(name);
                }
            }
            ops.add(name);
        }
        End end = faulted ? End.values()[r.nextInt(End.values().length)]
                : r.nextInt(3) == 0 ? End.values()[1 + r.nextInt(3)] : End.CLOSE;
        boolean validToClose = !faulted && end == End.CLOSE;
        if (end == End.CLOSE) {
            f.frame(true, 0, 8, new byte[] {0x03, (byte) 0xE8, 'b', 'y', 'e'});
            ops.add("close-1000");
        }
        byte[] payload = f.out.toByteArray();
        boolean mutated = r.nextInt(10) < 3 && payload.length > 0;
        if (mutated) {
            payload = payload.clone();
            for (int m = 1 + r.nextInt(3); m > 0; m--) {
                int at = r.nextInt(payload.length);
                payload[at] = switch (r.nextInt(4)) {
                    case 0 -> (byte) r.nextInt(256);
                    case 1 -> (byte) (payload[at] ^ (1 << r.nextInt(8)));
                    case 2 -> (byte) 0x80;
                    default -> (byte) 0xFF;
                };
            }
            validToClose = false;
        }
        int[] cuts = r.ints(r.nextInt(5), 0, Math.max(1, payload.length)).sorted().distinct().toArray();
        return new Script(id, deflate, payload, cuts, end, mutated, sent, validToClose, !faulted && !mutated,
                faultCodes, ops);
    }

    /** The close codes each fault may be answered with (RFC 6455 7.4.1): 1002 protocol, 1007 data, 1009 size. */
    static final Map<String, Set<Integer>> FAULT_CODES = Map.ofEntries(
            Map.entry("invalid-utf8", Set.of(1007)),
            Map.entry("reserved-opcode", Set.of(1002)),
            Map.entry("reserved-bits", Set.of(1002)),
            Map.entry("unmasked", Set.of(1002)),
            Map.entry("long-ping", Set.of(1002)),
            Map.entry("fragmented-ping", Set.of(1002)),
            Map.entry("continuation-alone", Set.of(1002)),
            Map.entry("message-in-message", Set.of(1002)),
            Map.entry("close-999", Set.of(1002)),
            Map.entry("close-1004", Set.of(1002)),
            Map.entry("close-1005", Set.of(1002)),
            Map.entry("close-1006", Set.of(1002)),
            Map.entry("close-1015", Set.of(1002)),
            Map.entry("close-1016", Set.of(1002)),
            Map.entry("close-2999", Set.of(1002)),
            Map.entry("close-5000", Set.of(1002)),
            Map.entry("close-one-byte", Set.of(1002)),
            Map.entry("close-reason-not-utf8", Set.of(1007)),
            Map.entry("frame-too-large", Set.of(1009)),
            Map.entry("message-too-large", Set.of(1009)),
            Map.entry("length-top-bit", Set.of(1002, 1009)));

    /** Writes one fault into {@code f}; returns its name. */
    static String fault(Random r, Frames f, int kind, boolean deflate) {
        switch (kind) {
            case 0 -> {
                f.frame(true, 0, 1, new byte[] {'a', (byte) 0xFF, 'b'});
                return "invalid-utf8";
            }
            case 1 -> {
                f.frame(true, 0, 3 + r.nextInt(5) + (r.nextBoolean() ? 8 : 0), binary(r, 3));
                return "reserved-opcode";
            }
            case 2 -> {
                // RSV1 is 4 here; where permessage-deflate was offered it may be set, so not alone
                int[] bits = deflate ? new int[] {1, 2, 3, 5, 6, 7} : new int[] {1, 2, 3, 4, 5, 6, 7};
                f.frame(true, bits[r.nextInt(bits.length)], 2, binary(r, 4));
                return "reserved-bits";
            }
            case 3 -> {
                f.frame(true, 0, 1, "unmasked".getBytes(StandardCharsets.US_ASCII), false);
                return "unmasked";
            }
            case 4 -> {
                f.frame(true, 0, 9, binary(r, 126 + r.nextInt(10)));
                return "long-ping";
            }
            case 5 -> {
                f.frame(false, 0, 9, binary(r, 3));
                return "fragmented-ping";
            }
            case 6 -> {
                f.frame(true, 0, 0, text(r, 5));
                return "continuation-alone";
            }
            case 7 -> {
                f.frame(false, 0, 1, text(r, 5));
                f.frame(true, 0, 2, binary(r, 5));
                return "message-in-message";
            }
            case 8 -> {
                int[] codes = {999, 1004, 1005, 1006, 1015, 1016, 2999, 5000};
                int code = codes[r.nextInt(codes.length)];
                f.frame(true, 0, 8, new byte[] {(byte) (code >> 8), (byte) code});
                return "close-" + code;
            }
            case 9 -> {
                if (r.nextBoolean()) {
                    f.frame(true, 0, 8, new byte[] {0x03});
                    return "close-one-byte";
                }
                f.frame(true, 0, 8, new byte[] {0x03, (byte) 0xE8, (byte) 0xC0});
                return "close-reason-not-utf8";
            }
            case 10 -> {
                f.frame(true, 0, 2, binary(r, MAX_FRAME + 1 + r.nextInt(300)));
                return "frame-too-large";
            }
            default -> {
                if (r.nextBoolean()) {
                    for (int k = 0; k < 5; k++) { // frames within the limit, the message over it
                        f.frame(k == 4, 0, k == 0 ? 2 : 0, binary(r, MAX_FRAME));
                    }
                    return "message-too-large";
                }
                f.out.write(0x82);
                f.out.write(0x80 | 127);
                f.out.writeBytes(new byte[] {(byte) 0x80, 0, 0, 0, 0, 0, 0, 1}); // a length with its top bit set
                f.out.writeBytes(new byte[] {1, 2, 3, 4});
                return "length-top-bit";
            }
        }
    }

    // ---- running a connection -----------------------------------------------------------------------

    enum Closed { EOF, RESET, TIMEOUT, NOT_READ }

    record Received(String head, byte[] bytes, Closed how) {
    }

    static Received run(int port, Script s, SSLContext tls) throws IOException, InterruptedException {
        Socket socket = tls == null ? WireFuzzRun.plain(port) : WireFuzzRun.tls(port, tls, "http/1.1", READ_TIMEOUT_MILLIS);
        try (Socket c = socket) {
            c.setTcpNoDelay(true);
            c.setSoTimeout(READ_TIMEOUT_MILLIS);
            OutputStream out = c.getOutputStream();
            out.write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: MDEyMzQ1Njc4OWFiY2RlZg==\r\nSec-WebSocket-Version: 13\r\n"
                    + (s.deflate() ? "Sec-WebSocket-Extensions: " + DEFLATE_OFFER + "\r\n" : "") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = c.getInputStream();
            String head = readHead(in);
            if (head == null || !head.startsWith("HTTP/1.1 101")) {
                return new Received(head, new byte[0], Closed.EOF);
            }
            int from = 0;
            for (int i = 0; i <= s.cuts().length; i++) {
                int to = i < s.cuts().length ? s.cuts()[i] : s.payload().length;
                try {
                    out.write(s.payload(), from, to - from);
                    out.flush();
                } catch (IOException e) {
                    break; // the server ended the session early (a fault)
                }
                from = to;
                if (i < s.cuts().length) {
                    Thread.sleep(1); // paces the pieces so the server sees them apart
                }
            }
            switch (s.end()) {
                case RESET -> {
                    c.setSoLinger(true, 0);
                    return new Received(head, new byte[0], Closed.NOT_READ);
                }
                case HALF_CLOSE -> {
                    try {
                        c.shutdownOutput(); // over TLS: close_notify
                    } catch (IOException | UnsupportedOperationException ignored) {
                        // the server may have closed first
                    }
                }
                default -> {
                }
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    got.write(buf, 0, n);
                }
                return new Received(head, got.toByteArray(), Closed.EOF);
            } catch (SocketTimeoutException e) {
                return new Received(head, got.toByteArray(), Closed.TIMEOUT);
            } catch (IOException e) {
                return new Received(head, got.toByteArray(), Closed.RESET);
            }
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int c;
            try {
                c = in.read();
            } catch (SocketTimeoutException e) {
                return null;
            }
            if (c < 0) {
                return null;
            }
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1
                    : c == '\r' ? 1 : 0;
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    // ---- checking what came back ----------------------------------------------------------------------

    /** What a connection's frames said: the data messages echoed (inflated), and the close code (0: none). */
    record Heard(List<Message> echoed, int closeCode) {
    }

    /** Parses the server's frames; returns a failure, or null with {@code heard} filled. */
    static String check(Script s, Received got, List<Heard> heard) {
        if (got.head() == null || !got.head().startsWith("HTTP/1.1 101")) {
            return "no 101 to a valid upgrade: " + got.head();
        }
        boolean deflate = got.head().toLowerCase(java.util.Locale.ROOT).contains("permessage-deflate");
        if (deflate && !s.deflate()) {
            return "permessage-deflate accepted where it was not offered";
        }
        if (deflate && !got.head().contains("server_no_context_takeover")) {
            return "server_no_context_takeover offered, not in the answer: " + got.head();
        }
        if (got.how() == Closed.TIMEOUT) {
            return "not closed within " + READ_TIMEOUT_MILLIS + " ms of silence (timeouts 2 s); received "
                    + got.bytes().length + " bytes";
        }
        ByteBuffer b = ByteBuffer.wrap(got.bytes());
        List<Message> echoed = new ArrayList<>();
        ByteArrayOutputStream message = null;
        int messageOpcode = 0;
        boolean compressed = false;
        int closeCode = 0;
        while (b.hasRemaining()) {
            if (closeCode != 0) {
                return "bytes after the server's close frame";
            }
            if (b.remaining() < 2) {
                return "a frame cut short (" + b.remaining() + " bytes)";
            }
            int b0 = b.get() & 0xFF;
            int b1 = b.get() & 0xFF;
            boolean fin = (b0 & 0x80) != 0;
            int rsv = (b0 >> 4) & 7;
            int opcode = b0 & 0x0F;
            if ((b1 & 0x80) != 0) {
                return "a masked frame from the server";
            }
            long len = b1 & 0x7F;
            if (len == 126) {
                if (b.remaining() < 2) {
                    return "a frame cut short in its length";
                }
                len = b.getShort() & 0xFFFF;
            } else if (len == 127) {
                if (b.remaining() < 8) {
                    return "a frame cut short in its length";
                }
                len = b.getLong();
            }
            if (len < 0 || len > b.remaining()) {
                return "a frame cut short: length " + len + ", " + b.remaining() + " bytes left";
            }
            byte[] p = new byte[(int) len];
            b.get(p);
            if (opcode >= 8) {
                if (!fin || len > 125 || rsv != 0) {
                    return "a control frame fragmented, with RSV bits or over 125 bytes: opcode " + opcode;
                }
                if (opcode == 8) {
                    if (len == 1) {
                        return "a close frame of one byte";
                    }
                    closeCode = len == 0 ? 1005 : (p[0] & 0xFF) << 8 | p[1] & 0xFF;
                    if (len >= 2 && !SENDABLE.contains(closeCode) && (closeCode < 3000 || closeCode > 4999)) {
                        return "close code " + closeCode + " may not be sent";
                    }
                    if (len > 2 && !validUtf8(Arrays.copyOfRange(p, 2, p.length))) {
                        return "a close reason that is not UTF-8";
                    }
                } else if (opcode != 9 && opcode != 10) {
                    return "reserved control opcode " + opcode;
                }
                continue;
            }
            if (opcode != 0 && opcode != 1 && opcode != 2) {
                return "reserved data opcode " + opcode;
            }
            if (opcode == 0 ? message == null : message != null) {
                return opcode == 0 ? "a continuation with no message" : "a new message inside a fragmented one";
            }
            if (opcode != 0) {
                if (rsv != 0 && !(rsv == 4 && deflate)) {
                    return "RSV bits " + rsv + " on a message's first frame";
                }
                message = new ByteArrayOutputStream();
                messageOpcode = opcode;
                compressed = rsv == 4;
            } else if (rsv != 0) {
                return "RSV bits on a continuation frame";
            }
            message.writeBytes(p);
            if (fin) {
                byte[] data = message.toByteArray();
                if (compressed) {
                    try {
                        data = inflate(data);
                    } catch (DataFormatException e) {
                        return "a compressed message that does not inflate: " + e.getMessage();
                    }
                }
                if (messageOpcode == 1 && !validUtf8(data)) {
                    return "a text message that is not UTF-8";
                }
                echoed.add(new Message(messageOpcode, data));
                message = null;
            }
        }
        if (message != null && got.how() == Closed.EOF && closeCode != 0) {
            return "a message left unfinished before the close frame";
        }
        heard.add(new Heard(echoed, closeCode));
        if (s.mutated()) {
            return null; // the bytes sent are not what the script says: well-formedness is all that holds
        }
        if (echoed.size() > s.sent().size() || !s.sent().subList(0, echoed.size()).equals(echoed)) {
            return "echoed " + echoed + ", not a prefix of what was sent before the first fault: " + s.sent();
        }
        if (s.faultCodes() != null && got.how() == Closed.EOF && !s.faultCodes().contains(closeCode)) {
            // read to the end (not cut by a reset): the fault was answered with a close frame naming it
            return "a fault answered with close code " + (closeCode == 0 ? "none (no close frame)" : closeCode)
                    + ", not one of " + s.faultCodes();
        }
        if (s.valid() && s.end() == End.NOTHING && !echoed.equals(s.sent())) {
            // the session idled out (1 s) long after its handlers ran: every message came back
            return "a valid session left idle did not get all its messages back: " + echoed + " of " + s.sent();
        }
        if (s.validToClose()) {
            if (!echoed.equals(s.sent())) {
                return "a valid session closed before all its messages came back: " + echoed + " of " + s.sent();
            }
            if (closeCode != 1000) {
                return "a valid close (1000) answered with " + closeCode;
            }
        }
        return null;
    }

    static byte[] inflate(byte[] data) throws DataFormatException {
        Inflater inf = new Inflater(true);
        try {
            inf.setInput(ByteBuffer.wrap(concat(data, new byte[] {0, 0, (byte) 0xFF, (byte) 0xFF})));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            int n;
            while ((n = inf.inflate(buf)) > 0) {
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            inf.end();
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static boolean validUtf8(byte[] b) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    // ---- the test ---------------------------------------------------------------------------------------

    BriskTestServer start(boolean tls) {
        return BriskTestServer.start(cfg -> {
            engine.apply(cfg);
            if (tls) {
                cfg.options().tlsPem(key.certPem(), key.keyPem());
            }
            cfg.options()
                    .ioThreads(2)
                    .headerReadTimeout(Duration.ofSeconds(1))
                    .idleTimeout(Duration.ofSeconds(1))
                    .writeTimeout(Duration.ofSeconds(1))
                    .shutdownTimeout(Duration.ofSeconds(1))
                    .wsMaxFrameSize(MAX_FRAME)
                    .wsMaxMessageSize(MAX_MESSAGE)
                    // 2 s, not 1: a loaded machine's stall must not pass for a silent client or a late close
                    .wsIdleTimeout(Duration.ofSeconds(2))
                    .wsPingInterval(Duration.ZERO)
                    .wsCloseTimeout(Duration.ofSeconds(2))
                    .wsCompression(true);
            cfg.ws("/echo", ws -> ws
                    .onText((session, t) -> session.sendText(t))
                    .onBinary((session, b) -> session.sendBinary(b)));
        });
    }

    @Test
    @Timeout(90)
    void sessionsSurviveMutatedAndForbiddenFrames() throws Exception {
        fuzz(false);
    }

    /** The same scripts over TLS 1.3: TLS records, and {@code close_notify} for the half-close. */
    @Test
    @Timeout(90)
    void sessionsSurviveMutatedAndForbiddenFramesOverTls() throws Exception {
        fuzz(true);
    }

    private void fuzz(boolean tls) throws Exception {
        Random r = new Random(SEED);
        List<Script> scripts = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            scripts.add(script(r, i));
        }
        Set<Thread> before = WireFuzzRun.ioThreads();
        SSLContext client = tls ? key.trustingContext() : null;
        try (LogCapture capture = LogCapture.install("WsServerFuzzTest"); BriskTestServer t = start(tls)) {
            Set<Thread> io = WireFuzzRun.loopsStarted(before, engine);
            WireFuzzRun.Outcome<Received> run = WireFuzzRun.runAll(scripts, PARALLEL, BUDGET_NANOS,
                    s -> run(t.port(), s, client), Script::describe);
            List<String> failures = new ArrayList<>(run.failures());
            WireFuzzRun.assertNoConnections(t.app(), "after the clients ended");
            Map<Closed, Integer> ends = new TreeMap<>();
            Map<Integer, Integer> codes = new TreeMap<>();
            int echoes = 0;
            for (int i = 0; i < scripts.size(); i++) {
                Script s = scripts.get(i);
                Received got = run.received().get(i);
                if (got == null) {
                    continue;
                }
                ends.merge(got.how(), 1, Integer::sum);
                if (got.how() == Closed.NOT_READ) {
                    continue;
                }
                List<Heard> heard = new ArrayList<>(1);
                String failure = check(s, got, heard);
                if (failure != null) {
                    failures.add(s.describe() + "\n    " + failure);
                } else {
                    codes.merge(heard.get(0).closeCode(), 1, Integer::sum);
                    echoes += heard.get(0).echoed().size();
                }
            }
            System.out.printf("WsServerFuzzTest (%s%s): seed=%d connections=%d skipped=%d in %d ms; ends %s; close codes %s;"
                    + " messages echoed %d%n", engine, tls ? ", TLS" : "", SEED, scripts.size() - run.skipped(),
                    run.skipped(), run.millis(), ends, codes, echoes);
            assertThat(failures).as("seed=%d: connections breaking an invariant", SEED).isEmpty();
            assertThat(scripts.size() - run.skipped()).as("connections run within the budget").isGreaterThan(CONNECTIONS / 2);

            // still serving: a clean session echoes and closes
            Random clean = new Random(1);
            Frames f = new Frames(clean);
            f.frame(true, 0, 1, "still here".getBytes(StandardCharsets.UTF_8));
            f.frame(true, 0, 8, new byte[] {0x03, (byte) 0xE8});
            Script ask = new Script(-1, false, f.out.toByteArray(), new int[0], End.CLOSE, false,
                    List.of(new Message(1, "still here".getBytes(StandardCharsets.UTF_8))), true, true, null,
                    List.of("ask"));
            Received answer = run(t.port(), ask, client);
            assertThat(check(ask, answer, new ArrayList<>())).as("a clean session after the run").isNull();
            WireFuzzRun.assertNoConnections(t.app(), "after the run");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while ((t.app().metrics().webSocketSessionsActive() != 0 || t.app().metrics().webSocketBufferedBytes() != 0)
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(t.app().metrics().webSocketSessionsActive()).as("sessions open after the run").isZero();
            assertThat(t.app().metrics().webSocketBufferedBytes()).as("message bytes held after the run").isZero();
            assertThat(io).as("I/O threads alive").allMatch(Thread::isAlive);
            assertThat(capture.severe()).as("ERROR records logged by the server").isEmpty();
        }
    }
}
