package dev.brisk.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.Method;
import dev.brisk.ServerOptions;
import dev.brisk.internal.files.FileRegion;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.AppConfig;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link FileRegion} body on an in-memory wire: sent by {@code Wire.transfer} when the wire can, else
 * pumped in bounded pieces through {@code Wire.write}; either way the same bytes under
 * {@code Content-Length}, the file closed exactly once, and a loop turn bounded.
 */
class FileBodyTest {
    private final ExecutorService pump = Executors.newSingleThreadExecutor();
    @TempDir
    Path tmp;
    private MemoryWire wire;
    private Http1Connection conn;
    private byte[] content;
    private Path file;
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicReference<FileRegion> region = new AtomicReference<>();

    @AfterEach
    void stop() {
        pump.shutdownNow();
    }

    private void start(int size, boolean transfers) throws IOException {
        content = new byte[size];
        for (int i = 0; i < size; i++) {
            content[i] = (byte) (i * 7 + i / 999);
        }
        file = tmp.resolve("f.bin");
        Files.write(file, content);
        AppConfig cfg = new AppConfig();
        cfg.route(Method.GET, "/f", ctx -> {
            FileRegion r = new FileRegion(FileChannel.open(file, StandardOpenOption.READ), 0, size, released::incrementAndGet);
            region.set(r);
            ctx.stream(r);
        }).dispatch(Dispatch.EVENT_LOOP);
        cfg.route(Method.GET, "/hello", ctx -> ctx.text("hello")).dispatch(Dispatch.EVENT_LOOP);
        cfg.route(Method.GET, "/later", ctx -> { // on another thread: its answer comes while the loop writes
            FileRegion r = new FileRegion(FileChannel.open(file, StandardOpenOption.READ), 0, size, released::incrementAndGet);
            region.set(r);
            ctx.stream(r);
        }).dispatch(Dispatch.VIRTUAL_THREADS);
        ServerOptions options = ServerOptions.builder().build();
        App app = cfg.freeze(options);
        app.executors(pump, pump);
        Http1Shared shared = new Http1Shared(options, app, null, null);
        shared.streams(pump);
        wire = new MemoryWire(false);
        wire.transfersFiles = transfers;
        conn = new Http1Connection(wire, shared, false);
        wire.protocol(conn);
    }

    private String expected() {
        return "Content-Length: " + content.length + "\r\n";
    }

    private byte[] body(String out) {
        int at = out.indexOf("\r\n\r\n") + 4;
        int end = at + content.length;
        return out.substring(at, Math.min(end, out.length())).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aPlainWireTransfersTheFileItselfThenServesTheNextRequest() throws IOException {
        start(200_000, true);
        wire.feed("GET /f HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n");
        wire.turnUntil(() -> wire.output().endsWith("hello"));
        String out = wire.output();
        assertThat(out).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Type: application/octet-stream\r\n")
                .contains(expected()).doesNotContain("Transfer-Encoding");
        assertThat(body(out)).isEqualTo(content);
        assertThat(wire.transferCalls).as("from the file, not through write").isPositive();
        assertThat(region.get().isClosed()).isTrue();
        assertThat(released.get()).isEqualTo(1);
    }

    @Test
    void aFullSocketResumesWhenWritable() throws IOException {
        start(100_000, true);
        wire.writeBudget = 4096;
        wire.feed("GET /f HTTP/1.1\r\nHost: t\r\n\r\n").turn();
        assertThat(wire.writeInterest).as("the socket took only part: wait to be writable").isTrue();
        assertThat(released.get()).isZero();
        wire.turnUntil(() -> released.get() == 1);
        assertThat(body(wire.output())).isEqualTo(content);
        assertThat(wire.transferCalls).isGreaterThan(20);
        assertThat(wire.writeInterest).isFalse();
    }

    @Test
    void aWireThatNeedsTheBytesGetsThemInBoundedPieces() throws IOException {
        start(200_000, false);
        wire.feed("GET /f HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n");
        wire.turnUntil(() -> wire.output().endsWith("hello"));
        String out = wire.output();
        assertThat(out).contains(expected()).doesNotContain("Transfer-Encoding");
        assertThat(body(out)).isEqualTo(content);
        assertThat(wire.transferCalls).isZero();
        assertThat(wire.writeCalls).as("16 KiB pieces").isGreaterThanOrEqualTo(200_000 / (16 * 1024));
        assertThat(released.get()).isEqualTo(1);
    }

    @Test
    void oneLoopTurnSendsAtMostItsShareOfALargeFile() throws IOException {
        start((int) (3 * Output.MAX_TRANSFER_PER_TURN), true);
        wire.feed("GET /f HTTP/1.1\r\nHost: t\r\n\r\n").turn();
        int head = wire.output().indexOf("\r\n\r\n") + 4;
        assertThat(wire.output().length() - head).isEqualTo((int) Output.MAX_TRANSFER_PER_TURN);
        assertThat(wire.writeInterest).as("the rest on later turns").isTrue();
        wire.turnUntil(() -> released.get() == 1);
        assertThat(body(wire.output())).isEqualTo(content);
    }

    @Test
    void aClosedConnectionClosesTheFile() throws IOException {
        start(100_000, true);
        wire.writeBudget = 1000;
        wire.feed("GET /f HTTP/1.1\r\nHost: t\r\n\r\n").turn();
        assertThat(region.get().isClosed()).isFalse();
        conn.close();
        assertThat(region.get().isClosed()).isTrue();
        assertThat(released.get()).isEqualTo(1);
    }

    /**
     * A file answer that comes while the answers batched before it are still being written waits behind
     * them; a connection that closes first (a client that stopped reading, cut at the write timeout) closes
     * that file too: it holds a descriptor and an open-file place.
     */
    @Test
    void aFileWaitingBehindAStalledWriteIsClosedWithTheConnection() throws Exception {
        start(100_000, true);
        wire.writeBudget = 0; // the client reads nothing
        wire.feed("GET /hello HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n"
                + "GET /later HTTP/1.1\r\nHost: t\r\n\r\n").turn();
        assertThat(wire.writeInterest).as("the batched answers wait for the socket").isTrue();
        pump.submit(() -> { }).get(5, TimeUnit.SECONDS); // /later's handler has ended: its answer is handed back
        wire.runTasks();
        assertThat(region.get()).isNotNull();
        assertThat(region.get().isClosed()).as("waiting behind the batch").isFalse();
        conn.close();
        assertThat(region.get().isClosed()).isTrue();
        assertThat(released.get()).isEqualTo(1);
    }

    @Test
    void aFileTruncatedWhileSentEndsTheConnection() throws IOException {
        start(100_000, true);
        wire.writeBudget = 10_000;
        wire.feed("GET /f HTTP/1.1\r\nHost: t\r\n\r\n").turn();
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(20_000);
        }
        wire.turnUntil(() -> wire.closed);
        assertThat(released.get()).isEqualTo(1);
        String out = wire.output();
        assertThat(out.length() - (out.indexOf("\r\n\r\n") + 4)).isEqualTo(20_000);
        assertThat(Arrays.copyOf(body(out), 20_000)).isEqualTo(Arrays.copyOf(content, 20_000));
    }

    @Test
    void headSendsTheLengthAndClosesTheFileUnread() throws IOException {
        start(50_000, true);
        wire.feed("HEAD /f HTTP/1.1\r\nHost: t\r\n\r\n").turn();
        assertThat(wire.output()).contains(expected()).endsWith("\r\n\r\n");
        assertThat(wire.transferCalls).isZero();
        assertThat(released.get()).isEqualTo(1);
    }
}
