package dev.brisk.http2;

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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Seeded wire fuzzing of HTTP/2, h2c with prior knowledge and h2 over TLS 1.3: a few hundred connections send the preface
 * and then a script of frames built from requests, bodies, trailers, resets, window updates, settings,
 * pings, priorities, {@code GOAWAY}s and unknown frames, often with stream ids, flags and values out of
 * place and sometimes with the bytes mutated, in random pieces, ending with a half-close, nothing, a
 * close or a reset. Against a server with small limits and one-second timeouts:
 * <ul>
 *   <li>every byte received is a sequence of well-formed frames, at least one: a {@code SETTINGS} first, known types,
 *       each within the frame size, on stream 0 or on a stream the client opened as their type requires,
 *       error codes RFC 9113 defines, answers' {@code :status} from a known set; after a {@code GOAWAY} no
 *       answer begins on a stream above its last stream id;</li>
 *   <li>the server closes every connection it read within its timeouts;</li>
 *   <li>a mark request's handler runs at most once, and its answer is received only if it ran, never on
 *       another connection; sent whole before a half-close, it is answered unless the connection failed,
 *       the stream was reset or a {@code GOAWAY} left it out;</li>
 *   <li>afterwards the server still serves, counts no connection and no request-body memory, logged no
 *       ERROR and has its I/O threads alive.</li>
 * </ul>
 * A failure names the seed, the connection and its bytes; override with {@code -Dbrisk.fuzz.seed=N} and
 * {@code -Dbrisk.fuzz.connections=N}.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class Http2ServerFuzzTest {
    @Parameter
    Engine engine;

    private static TestKeys.Key key;

    @BeforeAll
    static void keys() throws Exception {
        key = TestKeys.shared().server();
    }

    static final long SEED = Long.getLong("brisk.fuzz.seed", 0x48_3253_E7A1L);
    static final int CONNECTIONS = Integer.getInteger("brisk.fuzz.connections", 240);
    static final int PARALLEL = 16;
    /** No new connection starts after this (a loaded machine); a run takes 2 to 4 s here. */
    static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(15);
    static final int READ_TIMEOUT_MILLIS = 4_000;
    static final Set<Integer> STATUSES = Set.of(100, 200, 400, 404, 405, 408, 413, 431, 501, 503);
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    static final int MAX_FRAME = 16_384;

    // ---- scripts ----------------------------------------------------------------------------------

    enum End { HALF_CLOSE, LEAVE_OPEN, CLOSE, RESET }

    /** What one connection does: its bytes, in which pieces, and how it ends. */
    record Script(int id, byte[] payload, int[] cuts, End end, boolean marked, int markStream, boolean markFresh,
            boolean markReset, boolean mutated, int maxFrame) {
        String describe() {
            return "seed=" + SEED + " connection=" + id + " end=" + end + " cuts=" + Arrays.toString(cuts)
                    + " payload(" + payload.length + ")=" + HexFormat.of().formatHex(payload);
        }
    }

    static final List<String> PATHS = List.of("/hello", "/echo", "/missing", "/hello?x=%zz", "", "*", "hello", "/a#b");
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "HEAD", "DELETE", "CONNECT", "get", "");
    static final List<String[]> EXTRA = List.of(
            new String[] {"x-junk", "v"}, new String[] {"content-length", "3"}, new String[] {"content-length", "999"},
            new String[] {"connection", "keep-alive"}, new String[] {"te", "trailers"}, new String[] {"te", "gzip"},
            new String[] {"X-Upper", "v"}, new String[] {":path", "/again"}, new String[] {":status", "200"},
            new String[] {"host", "h"}, new String[] {"cookie", "a=1"}, new String[] {"x-bad", "a\r\nb"},
            new String[] {"x-long", "l".repeat(600)}, new String[] {"expect", "100-continue"});

    /** Builds one connection's frames. Stream ids mostly go up by two from 1; sometimes they do not. */
    static final class Builder {
        final Random r;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        int next = 1;
        int lastOpened;
        int markStream;
        /** The client reset its own mark stream: no answer is owed. */
        boolean markReset;
        /** The mark went out whole, on a new odd stream id: an answer on that stream is the mark's. */
        boolean markFresh;
        int maxFrame = MAX_FRAME;

        Builder(Random r) {
            this.r = r;
        }

        void frame(int type, int flags, int stream, byte[] payload) {
            markReset |= type == H2Conn.RST_STREAM && stream == markStream && stream != 0;
            out.writeBytes(H2Conn.encode(type, flags, stream, payload));
        }

        int newStream() {
            int roll = r.nextInt(20);
            int id = roll == 0 ? Math.max(1, lastOpened - 2) : roll == 1 ? next + 1 : roll == 2 ? 0 : next;
            next = Math.max(next, id + 2);
            lastOpened = Math.max(lastOpened, id);
            return id;
        }

        int someStream() {
            return switch (r.nextInt(6)) {
                case 0 -> 0;
                case 1 -> next + 2 * r.nextInt(3);
                case 2 -> r.nextInt(1 << 20);
                default -> Math.max(1, lastOpened);
            };
        }

        byte[] block(String method, String path, boolean extra) {
            List<String> more = new ArrayList<>();
            if (extra) {
                for (int k = 1 + r.nextInt(2); k > 0; k--) {
                    String[] e = EXTRA.get(r.nextInt(EXTRA.size()));
                    more.add(e[0]);
                    more.add(e[1]);
                }
            }
            byte[] b = H2Conn.request(method, path, more.toArray(String[]::new));
            if (r.nextInt(12) == 0) {
                b = Arrays.copyOf(b, b.length + 1);
                b[b.length - 1] = (byte) (0x80 | r.nextInt(128)); // an indexed field, maybe beyond the tables
            }
            return b;
        }

        /** Sends a header block, sometimes split, sometimes broken; true when it went out whole and in order. */
        boolean headers(int stream, byte[] block, boolean endStream) {
            int flags = endStream ? H2Conn.END_STREAM : 0;
            if (block.length > 8 && r.nextInt(4) == 0) {
                int cut = 1 + r.nextInt(block.length - 1);
                frame(H2Conn.HEADERS, flags, stream, Arrays.copyOf(block, cut));
                boolean ping = r.nextInt(8) == 0;
                if (ping) {
                    frame(H2Conn.PING, 0, 0, new byte[8]); // out of place inside a header block
                }
                int next = r.nextInt(10) == 0 ? stream + 2 : stream;
                frame(H2Conn.CONTINUATION, H2Conn.END_HEADERS, next, Arrays.copyOfRange(block, cut, block.length));
                return !ping && next == stream;
            }
            boolean whole = r.nextInt(15) != 0;
            frame(H2Conn.HEADERS, flags | (whole ? H2Conn.END_HEADERS : 0), stream, block);
            return whole;
        }

        void data(int stream, int size, boolean endStream) {
            byte[] body = new byte[size];
            Arrays.fill(body, (byte) 'b');
            if (r.nextInt(6) == 0) {
                byte[] padded = new byte[size + 1 + 4];
                padded[0] = (byte) (r.nextInt(8) == 0 ? 250 : 4); // 250: padding longer than the frame
                System.arraycopy(body, 0, padded, 1, size);
                frame(H2Conn.DATA, (endStream ? H2Conn.END_STREAM : 0) | 0x8, stream, padded);
            } else {
                frame(H2Conn.DATA, endStream ? H2Conn.END_STREAM : 0, stream, body);
            }
        }

        void action(int connection, boolean mark) {
            if (mark) {
                int before = lastOpened;
                markStream = newStream();
                boolean whole = headers(markStream, H2Conn.request("GET", "/mark/" + connection), true);
                markFresh = whole && markStream > before && markStream % 2 == 1;
                return;
            }
            switch (r.nextInt(16)) {
                case 0, 1, 2 -> headers(newStream(), block(pick(r, List.of("GET", "GET", "HEAD")), pick(r, PATHS), r.nextInt(4) == 0), true);
                case 3, 4 -> { // a body, in one or more DATA frames, maybe over the 64-byte limit, maybe with trailers
                    int s = newStream();
                    headers(s, block(pick(r, List.of("POST", "PUT")), "/echo", r.nextInt(5) == 0), false);
                    for (int k = r.nextInt(3); k > 0; k--) {
                        data(s, r.nextInt(40), false);
                    }
                    if (r.nextInt(5) == 0) {
                        headers(s, H2Conn.request("GET", "/trailer"), true); // pseudo-fields in trailers: malformed
                    } else if (r.nextInt(4) == 0) {
                        ByteArrayOutputStream t = new ByteArrayOutputStream();
                        H2Conn.literal(t, "x-trailer", "t");
                        headers(s, t.toByteArray(), true);
                    } else {
                        data(s, r.nextInt(50), r.nextInt(8) != 0);
                    }
                }
                case 5 -> headers(newStream(), block(pick(r, METHODS), pick(r, PATHS), true), r.nextBoolean());
                case 6 -> data(someStream(), r.nextInt(100), r.nextBoolean());
                case 7 -> frame(H2Conn.RST_STREAM, 0, someStream(), Arrays.copyOf(ByteBuffer.allocate(4)
                        .putInt(0, r.nextInt(16)).array(), r.nextInt(10) == 0 ? 3 : 4));
                case 8 -> {
                    int inc = switch (r.nextInt(4)) {
                        case 0 -> 0;
                        case 1 -> Integer.MAX_VALUE;
                        default -> 1 + r.nextInt(100_000);
                    };
                    frame(H2Conn.WINDOW_UPDATE, 0, r.nextBoolean() ? 0 : someStream(), ByteBuffer.allocate(4).putInt(inc).array());
                }
                case 9 -> frame(H2Conn.PING, r.nextInt(4) == 0 ? H2Conn.ACK : 0, r.nextInt(10) == 0 ? 1 : 0,
                        new byte[r.nextInt(10) == 0 ? 7 : 8]);
                case 10 -> settings();
                case 11 -> frame(H2Conn.PRIORITY, 0, someStream(), ByteBuffer.allocate(r.nextInt(8) == 0 ? 4 : 5)
                        .putInt(0, r.nextInt(4) == 0 ? lastOpened : r.nextInt(9)).array());
                case 12 -> frame(H2Conn.GOAWAY, 0, r.nextInt(10) == 0 ? 1 : 0, ByteBuffer.allocate(8)
                        .putInt(lastOpened).putInt(r.nextInt(14)).array());
                case 13 -> frame(0x20 + r.nextInt(200), r.nextInt(256), someStream(), new byte[r.nextInt(20)]);
                case 14 -> frame(H2Conn.SETTINGS, H2Conn.ACK, 0, new byte[r.nextInt(10) == 0 ? 6 : 0]);
                default -> { // a request left open: its body never comes
                    headers(newStream(), H2Conn.request("POST", "/echo"), false);
                }
            }
        }

        void settings() {
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            for (int k = r.nextInt(3); k >= 0; k--) {
                int id = 1 + r.nextInt(8);
                int value = switch (id) {
                    case 2 -> r.nextInt(3); // ENABLE_PUSH: 0, 1, or invalid
                    case 4 -> r.nextInt(4) == 0 ? 0 : r.nextInt(4) == 0 ? Integer.MIN_VALUE : r.nextInt(70_000); // window
                    case 5 -> r.nextInt(4) == 0 ? 100 : MAX_FRAME + r.nextInt(40_000); // max frame size
                    default -> r.nextInt();
                };
                if (id == 5 && value >= MAX_FRAME && value < 1 << 24) {
                    maxFrame = Math.max(maxFrame, value);
                }
                s.writeBytes(ByteBuffer.allocate(6).putShort((short) id).putInt(value).array());
            }
            byte[] p = s.toByteArray();
            if (r.nextInt(15) == 0) {
                p = Arrays.copyOf(p, p.length - 1);
            }
            frame(H2Conn.SETTINGS, 0, r.nextInt(15) == 0 ? 1 : 0, p);
        }
    }

    static <T> T pick(Random r, List<T> l) {
        return l.get(r.nextInt(l.size()));
    }

    static byte[] mutate(Random r, byte[] in) {
        byte[] b = in.clone();
        for (int k = 1 + r.nextInt(3); k > 0 && b.length > PREFACE.length; k--) {
            int at = PREFACE.length + r.nextInt(b.length - PREFACE.length);
            switch (r.nextInt(3)) {
                case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
                case 1 -> b = Arrays.copyOf(b, at);
                default -> {
                    byte[] junk = new byte[1 + r.nextInt(12)];
                    r.nextBytes(junk);
                    byte[] out = new byte[b.length + junk.length];
                    System.arraycopy(b, 0, out, 0, at);
                    System.arraycopy(junk, 0, out, at, junk.length);
                    System.arraycopy(b, at, out, at + junk.length, b.length - at);
                    b = out;
                }
            }
        }
        return b;
    }

    static Script script(Random r, int id) {
        Builder b = new Builder(r);
        b.out.writeBytes(PREFACE);
        if (r.nextInt(10) != 0) {
            b.settings();
        }
        boolean marked = r.nextBoolean();
        int actions = 1 + r.nextInt(10);
        int markAt = marked ? r.nextInt(actions + 1) : -1;
        for (int i = 0; i <= actions; i++) {
            b.action(id, i == markAt);
        }
        byte[] payload = b.out.toByteArray();
        boolean mutated = r.nextInt(10) < 3;
        if (mutated) {
            payload = mutate(r, payload);
        }
        int[] cuts = r.ints(r.nextInt(5), 1, Math.max(2, payload.length)).sorted().distinct().toArray();
        int e = r.nextInt(20);
        End end = e < 11 ? End.HALF_CLOSE : e < 15 ? End.LEAVE_OPEN : e < 17 ? End.CLOSE : End.RESET;
        return new Script(id, payload, cuts, end, marked, b.markStream, b.markFresh, b.markReset, mutated, b.maxFrame);
    }

    // ---- running a connection ---------------------------------------------------------------------

    enum Closed { EOF, RESET, TIMEOUT, NOT_READ }

    record Received(byte[] bytes, Closed how) {
    }

    /** Runs {@code s} over a new connection: h2c, or h2 over TLS 1.3 by ALPN ({@code tls} not null). */
    static Received run(int port, Script s, SSLContext tls) throws IOException, InterruptedException {
        return run(tls == null ? WireFuzzRun.plain(port) : WireFuzzRun.tls(port, tls, "h2", READ_TIMEOUT_MILLIS), s);
    }

    private static Received run(Socket connected, Script s) throws IOException, InterruptedException {
        try (Socket socket = connected) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            int from = 0;
            for (int i = 0; i <= s.cuts().length; i++) {
                int to = i < s.cuts().length ? Math.min(s.cuts()[i], s.payload().length) : s.payload().length;
                try {
                    out.write(s.payload(), from, to - from);
                    out.flush();
                } catch (IOException e) {
                    break; // the server closed early (a connection error)
                }
                from = to;
                if (i < s.cuts().length && (s.cuts()[i] & 1) == 0) {
                    Thread.sleep(1); // some pieces apart in time, some together
                }
            }
            switch (s.end()) {
                case CLOSE -> {
                    return new Received(new byte[0], Closed.NOT_READ);
                }
                case RESET -> {
                    socket.setSoLinger(true, 0);
                    return new Received(new byte[0], Closed.NOT_READ);
                }
                case HALF_CLOSE -> {
                    try {
                        socket.shutdownOutput();
                    } catch (IOException e) {
                        // the server reset it already
                    }
                }
                case LEAVE_OPEN -> {
                }
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            while (true) {
                int n;
                try {
                    n = in.read(buf);
                } catch (SocketTimeoutException e) {
                    return new Received(got.toByteArray(), Closed.TIMEOUT);
                } catch (IOException e) {
                    return new Received(got.toByteArray(), Closed.RESET);
                }
                if (n < 0) {
                    return new Received(got.toByteArray(), Closed.EOF);
                }
                got.write(buf, 0, n);
                if (got.size() > 1 << 20) {
                    return new Received(got.toByteArray(), Closed.TIMEOUT); // never ending: reported as not closed
                }
            }
        }
    }

    // ---- checking what came back ------------------------------------------------------------------

    /** Checks the invariants for one connection; returns the failure, or null. */
    static String check(Script s, Received got, Map<Integer, Integer> marks) {
        int runs = marks.getOrDefault(s.id(), 0);
        if (runs > 1) {
            return "mark handler ran " + runs + " times";
        }
        if (!s.marked() && runs > 0) {
            return "mark handler ran for a connection that sent no mark";
        }
        if (got.how() == Closed.NOT_READ) {
            return null;
        }
        if (got.how() == Closed.TIMEOUT) {
            return "the server did not close within " + READ_TIMEOUT_MILLIS + " ms (timeouts are 1 s); received "
                    + HexFormat.of().formatHex(got.bytes());
        }
        ByteBuffer b = ByteBuffer.wrap(got.bytes());
        int frames = 0;
        int goAwayLast = Integer.MAX_VALUE;
        boolean connectionError = false;
        boolean markRefused = false; // answered by the engine itself (503 shed, 431...): no handler ran
        Set<Integer> reset = new java.util.HashSet<>();
        boolean markAnswered = false;
        int highestClientStream = highestStream(s.payload());
        while (b.remaining() > 0) {
            if (b.remaining() < 9) {
                if (got.how() == Closed.RESET) {
                    break; // a reset may cut what was on its way
                }
                return "a truncated frame header at the end after " + frames + " frames";
            }
            int length = (b.get() & 0xff) << 16 | (b.get() & 0xff) << 8 | b.get() & 0xff;
            int type = b.get() & 0xff;
            b.get(); // flags
            int stream = b.getInt() & 0x7fffffff;
            if (length > s.maxFrame()) {
                return "frame " + frames + " of " + length + " bytes (type " + type + ")";
            }
            if (b.remaining() < length) {
                if (got.how() == Closed.RESET) {
                    break;
                }
                return "frame " + frames + " (type " + type + ") truncated: " + length + " announced, " + b.remaining() + " left";
            }
            byte[] p = new byte[length];
            b.get(p);
            if (frames == 0 && (type != H2Conn.SETTINGS || stream != 0)) {
                return "the server's first frame is type " + type + " on stream " + stream + ", not SETTINGS";
            }
            frames++;
            switch (type) {
                case H2Conn.SETTINGS, H2Conn.PING, H2Conn.GOAWAY -> {
                    if (stream != 0) {
                        return "frame type " + type + " on stream " + stream;
                    }
                    if (type == H2Conn.GOAWAY) {
                        int code = ByteBuffer.wrap(p).getInt(4);
                        if (code < 0 || code > 0xd) {
                            return "GOAWAY with code " + code;
                        }
                        goAwayLast = Math.min(goAwayLast, ByteBuffer.wrap(p).getInt(0) & 0x7fffffff);
                        connectionError |= code != H2Conn.NO_ERROR;
                    }
                }
                case H2Conn.WINDOW_UPDATE -> {
                    if (stream != 0 && (stream % 2 == 0 || stream > highestClientStream)) {
                        return "WINDOW_UPDATE on stream " + stream + ", which the client never opened";
                    }
                }
                case H2Conn.HEADERS, H2Conn.DATA, H2Conn.RST_STREAM, H2Conn.CONTINUATION -> {
                    if (stream == 0 || stream % 2 == 0 || stream > highestClientStream) {
                        return "frame type " + type + " on stream " + stream + ", which the client never opened";
                    }
                    if (type == H2Conn.RST_STREAM) {
                        int code = ByteBuffer.wrap(p).getInt(0);
                        if (code < 0 || code > 0xd) {
                            return "RST_STREAM with code " + code;
                        }
                        reset.add(stream);
                    }
                    if (type == H2Conn.HEADERS && stream > goAwayLast) {
                        return "an answer on stream " + stream + " after a GOAWAY whose last stream is " + goAwayLast;
                    }
                    if (type == H2Conn.HEADERS && p.length > 0) {
                        H2Conn.Frame f = new H2Conn.Frame(type, 0, stream, p);
                        int status;
                        try {
                            status = f.status();
                        } catch (RuntimeException e) {
                            status = -1; // trailers, or a status this check does not read
                        }
                        if (status >= 0 && !STATUSES.contains(status)) {
                            return "status " + status + " on stream " + stream;
                        }
                        // its body may wait for a window the client never opens: the answer's head is enough
                        markAnswered |= s.markFresh() && !s.mutated() && stream == s.markStream() && status == 200;
                        markRefused |= s.markFresh() && !s.mutated() && stream == s.markStream() && status != 200;
                    }
                    String text = new String(p, StandardCharsets.ISO_8859_1);
                    if (type == H2Conn.DATA && text.startsWith("mark:")) {
                        if (!text.equals("mark:" + s.id())) {
                            return "answer for another connection: " + text;
                        }
                        markAnswered = true;
                    }
                }
                default -> {
                    return "frame of type " + type + " from the server";
                }
            }
        }
        if (frames == 0 && got.how() == Closed.EOF) {
            return "the connection ended without a frame: not even the server's SETTINGS (the preface was sent whole)";
        }
        if (markAnswered && runs != 1) {
            return "a mark answered whose handler ran " + runs + " times";
        }
        // a request sent whole before the client's half-close is answered, unless the connection failed
        // first, either side reset the stream, or a GOAWAY left it out (bytes mutated: not known)
        if (s.end() == End.HALF_CLOSE && s.markFresh() && !s.mutated() && !s.markReset() && !markAnswered && !markRefused
                && !connectionError
                && got.how() == Closed.EOF && !reset.contains(s.markStream()) && s.markStream() <= goAwayLast) {
            return "the mark request on stream " + s.markStream() + ", sent whole before the half-close, got no answer; received "
                    + HexFormat.of().formatHex(got.bytes());
        }
        return null;
    }

    /** The highest stream id on any HEADERS frame in {@code payload}, read as frames after the preface (0 if none). */
    static int highestStream(byte[] payload) {
        int highest = 0;
        int i = PREFACE.length;
        while (payload.length - i >= 9) {
            int length = (payload[i] & 0xff) << 16 | (payload[i + 1] & 0xff) << 8 | payload[i + 2] & 0xff;
            int stream = ByteBuffer.wrap(payload, i + 5, 4).getInt() & 0x7fffffff;
            if (payload[i + 3] == H2Conn.HEADERS) {
                highest = Math.max(highest, stream);
            }
            i += 9 + length;
        }
        return highest;
    }

    // ---- the test -----------------------------------------------------------------------------------

    BriskTestServer start(Map<Integer, Integer> marks) {
        return start(marks, false);
    }

    BriskTestServer start(Map<Integer, Integer> marks, boolean tls) {
        return BriskTestServer.start(cfg -> {
            engine.apply(cfg);
            if (tls) {
                cfg.options().tlsPem(key.certPem(), key.keyPem());
            }
            cfg.options()
                    .ioThreads(2)
                    .maxBodySize(64)
                    .maxHeaderSize(1024)
                    .h2MaxConcurrentStreams(4)
                    .h2InitialWindowSize(100)
                    .headerReadTimeout(Duration.ofSeconds(1))
                    .bodyReadTimeout(Duration.ofSeconds(1))
                    .idleTimeout(Duration.ofSeconds(1))
                    .writeTimeout(Duration.ofSeconds(1))
                    .shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body()));
            cfg.put("/echo", ctx -> ctx.bytes(ctx.body()));
            cfg.get("/mark/{id}", ctx -> {
                int id = Integer.parseInt(ctx.pathParam("id"));
                marks.merge(id, 1, Integer::sum);
                ctx.text("mark:" + id);
            });
        });
    }

    @Test
    @Timeout(60)
    void serverSurvivesMutatedAndRandomFrames() throws Exception {
        fuzz(false);
    }

    /** The same scripts over TLS 1.3 (h2 by ALPN): TLS records, and {@code close_notify} for the half-close. */
    @Test
    @Timeout(60)
    void serverSurvivesMutatedAndRandomFramesOverTls() throws Exception {
        fuzz(true);
    }

    private void fuzz(boolean tls) throws Exception {
        Random r = new Random(SEED);
        List<Script> scripts = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            scripts.add(script(r, i));
        }
        Map<Integer, Integer> marks = new ConcurrentHashMap<>();
        Set<Thread> before = WireFuzzRun.ioThreads();
        SSLContext client = tls ? key.trustingContext() : null;
        try (LogCapture capture = LogCapture.install("Http2ServerFuzzTest"); BriskTestServer t = start(marks, tls)) {
            Set<Thread> io = WireFuzzRun.loopsStarted(before, engine);
            WireFuzzRun.Outcome<Received> run = WireFuzzRun.runAll(scripts, PARALLEL, BUDGET_NANOS,
                    s -> run(t.port(), s, client), Script::describe);
            List<String> failures = new ArrayList<>(run.failures());
            // the mark counts are final once the server has closed every connection (timeouts are 1 s)
            WireFuzzRun.assertNoConnections(t.app(), "after the clients ended");
            Map<Closed, Integer> ends = new TreeMap<>();
            for (int i = 0; i < scripts.size(); i++) {
                Script s = scripts.get(i);
                Received got = run.received().get(i);
                if (got == null) {
                    continue;
                }
                ends.merge(got.how(), 1, Integer::sum);
                String failure = check(s, got, marks);
                if (failure != null) {
                    failures.add(s.describe() + "\n    " + failure);
                }
            }
            System.out.printf("Http2ServerFuzzTest (%s%s): seed=%d connections=%d skipped=%d in %d ms; ends %s; marks %d%n",
                    engine, tls ? ", TLS" : "", SEED, scripts.size() - run.skipped(), run.skipped(), run.millis(), ends, marks.size());
            assertThat(failures).as("seed=%d: connections breaking an invariant", SEED).isEmpty();
            assertThat(scripts.size() - run.skipped()).as("connections run within the budget").isGreaterThan(CONNECTIONS / 2);

            // still serving: a plain request, then the end of the client's side
            byte[] hello = H2Conn.encode(H2Conn.HEADERS, H2Conn.END_STREAM | H2Conn.END_HEADERS, 1, H2Conn.request("GET", "/hello"));
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(PREFACE);
            request.writeBytes(H2Conn.encode(H2Conn.SETTINGS, 0, 0, new byte[0]));
            request.writeBytes(hello);
            Script ask = new Script(-1, request.toByteArray(), new int[0], End.HALF_CLOSE, false, 0, false, false, false, MAX_FRAME);
            Received answer = run(t.port(), ask, client);
            assertThat(answer.how()).isEqualTo(Closed.EOF);
            assertThat(new String(answer.bytes(), StandardCharsets.ISO_8859_1)).as("the answer to a last request").contains("hello");
            WireFuzzRun.awaitNoConnections(t.app());
            assertThat(t.app().connectionCount()).as("open connections after the run").isZero();
            assertThat(t.app().metrics().bodyMemoryReserved()).as("request-body memory reserved after the run").isZero();
            assertThat(io).as("I/O threads alive").allMatch(Thread::isAlive);
            assertThat(capture.severe()).as("ERROR records logged by the server").isEmpty();
        }
    }
}
