package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.Context;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Buffered bodies larger than {@code body-spool-threshold} go to a temporary file under the
 * {@code body-spool-disk} cap, and the file is gone once the exchange is over, however it ends.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class SpooledBodyTest {
    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;

    @Parameter
    Engine engine;

    @TempDir
    Path dir;

    private long files() {
        return SpoolFiles.count(dir);
    }

    private String describe(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return "n=" + body.length + " crc=" + Long.toHexString(crc.getValue()) + " files=" + files();
    }

    private String describe(InputStream in) throws IOException {
        try (in) {
            return describe(in.readAllBytes());
        }
    }

    private void routes(BriskConfig cfg) {
        cfg.post("/whole", ctx -> ctx.text(describe(ctx.body()))).maxBodySize(8 * MIB);
        cfg.post("/stream", (Context ctx) -> ctx.text(describe(ctx.bodyAsStream()))).maxBodySize(8 * MIB);
        cfg.get("/hello", ctx -> ctx.text("hello"));
        cfg.post("/lost", ctx -> { // its file taken away (a cleaner of /tmp), then asked for whole twice
            for (Path f : SpoolFiles.in(dir)) {
                Files.delete(f);
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                try {
                    ctx.body();
                    out.add("read");
                } catch (UncheckedIOException e) {
                    out.add("failed");
                }
            }
            ctx.text(String.join(",", out));
        }).maxBodySize(8 * MIB);
    }

    private BriskTestServer start(Consumer<BriskConfig> options) {
        return Wire.start(engine, cfg -> {
            cfg.options().bodySpoolThreshold(64 * KIB).bodySpoolDir(dir.toString());
            options.accept(cfg);
            routes(cfg);
        });
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static String expect(byte[] body, int files) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return "n=" + body.length + " crc=" + Long.toHexString(crc.getValue()) + " files=" + files;
    }

    /** Waits (5 s at most) until the spool directory has {@code n} files. */
    private void awaitFiles(long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (files() != n && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertThat(files()).as("files in the spool directory").isEqualTo(n);
    }

    private static void awaitNothingHeld(BriskTestServer t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.app().metrics().bodySpoolReserved() != 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertThat(t.app().metrics().bodySpoolReserved()).as("spool disk reserved").isZero();
        BodyBudgetTest.awaitNoneReserved(t);
    }

    @Test
    void aDeclaredBodyOverTheThresholdIsSpooledAndItsFileDeletedAfterTheResponse() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] body = random(MIB, 1);
            for (String path : new String[] {"/whole", "/stream"}) {
                c.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n").send(body);
                assertThat(c.read().body()).as(path).isEqualTo(expect(body, 1));
                awaitFiles(0);
            }
            awaitNothingHeld(t);
        }
    }

    @Test
    void aBodyAtTheThresholdStaysInMemory() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] body = random(64 * KIB, 2);
            c.send("POST /whole HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n").send(body);
            assertThat(c.read().body()).isEqualTo(expect(body, 0));
            awaitNothingHeld(t);
        }
    }

    @Test
    void aChunkedBodyMovesToAFileOncePastTheThreshold() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] body = random(MIB + 123, 3);
            for (String path : new String[] {"/whole", "/stream"}) {
                c.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
                for (int off = 0; off < body.length; off += 10_000) {
                    int n = Math.min(10_000, body.length - off);
                    c.send(Integer.toHexString(n) + "\r\n").send(java.util.Arrays.copyOfRange(body, off, off + n))
                            .send("\r\n");
                }
                c.send("0\r\n\r\n");
                assertThat(c.read().body()).as(path).isEqualTo(expect(body, 1));
                awaitFiles(0);
            }
            awaitNothingHeld(t);
        }
    }

    @Test
    void aClientThatLeavesMidUploadLeavesNoFile() throws Exception {
        try (BriskTestServer t = start(cfg -> { })) {
            try (Socket s = new Socket("127.0.0.1", t.port())) {
                s.getOutputStream().write(("POST /whole HTTP/1.1\r\nHost: x\r\nContent-Length: " + 4 * MIB
                        + "\r\n\r\n").getBytes());
                s.getOutputStream().write(random(MIB, 4));
                awaitFiles(1);
                assertThat(t.app().metrics().bodySpoolReserved()).as("the declared length").isEqualTo(4L * MIB);
                s.setSoLinger(true, 0);
            }
            awaitFiles(0);
            awaitNothingHeld(t);
            assertThat(t.get("/hello").body()).isEqualTo("hello");
        }
    }

    @Test
    void aBodyTheDiskCapCannotTakeIs503AtOnce() throws Exception {
        try (BriskTestServer t = start(cfg -> cfg.options().bodySpoolDisk(256 * KIB)); RawConnection c = t.raw()) {
            c.send("POST /whole HTTP/1.1\r\nHost: x\r\nContent-Length: " + 512 * KIB + "\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(r.header("Connection")).isEqualTo("close");
            assertThat(r.body()).contains("disk");
            assertThat(t.app().metrics().shed()).containsEntry("body-disk", 1L);
            awaitFiles(0);
            awaitNothingHeld(t);
        }
    }

    @Test
    void aSpooledBodyReadWholeWithoutTheMemoryForItIs503ButStreams() throws Exception {
        try (BriskTestServer t = start(cfg -> cfg.options().bodyMemoryBudget(256 * KIB))) {
            byte[] body = random(MIB, 5);
            try (RawConnection c = t.raw()) {
                c.send("POST /whole HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n").send(body);
                RawConnection.Response r = c.read();
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.header("Retry-After")).isEqualTo("1");
            }
            // the refused body's file goes when its connection lets go of it (on the blocking engine, just
            // after the answer): the next body must find only its own
            awaitFiles(0);
            try (RawConnection c = t.raw()) {
                c.send("POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n").send(body);
                assertThat(c.read().body()).isEqualTo(expect(body, 1));
            }
            awaitFiles(0);
            awaitNothingHeld(t);
        }
    }

    @Test
    void aSpooledBodyThatCannotBeReadGivesItsMemoryBackEachTime() throws Exception {
        try (BriskTestServer t = start(cfg -> { }); RawConnection c = t.raw()) {
            byte[] body = random(MIB, 9);
            c.send("POST /lost HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n").send(body);
            assertThat(c.read().body()).isEqualTo("failed,failed");
            // the second attempt's reservation used to overwrite the first, which was never given back
            awaitNothingHeld(t);
        }
    }

    @Test
    void withSpoolingOffALargeBodyStaysInMemory() throws Exception {
        try (BriskTestServer t = start(cfg -> cfg.options().bodySpoolDisk(0)); RawConnection c = t.raw()) {
            byte[] body = random(MIB, 6);
            c.send("POST /whole HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n").send(body);
            assertThat(c.read().body()).isEqualTo(expect(body, 0));
            awaitNothingHeld(t);
        }
    }
}
