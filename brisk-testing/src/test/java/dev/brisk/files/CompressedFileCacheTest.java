package dev.brisk.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Compression;
import dev.brisk.StaticFiles;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A static file's compressed answer is kept and reused ({@code compressed-file-cache}): later clients
 * get the same bytes, counted as hits, per coding; a file changed (size, time, or replaced) is
 * compressed anew, never answered from its old form; one modified within the last two seconds is not
 * kept; the bound holds over every file, and 0 keeps nothing.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class CompressedFileCacheTest {
    private static final Instant OLD = Instant.parse("2025-03-04T05:06:07.123456789Z");
    /** Between the whole-file threshold of the inline path (12 KiB) and of whole compression (256 KiB). */
    private static final String JSON = StaticTree.json();
    /** Small enough to be read whole with the head (up to 12 KiB). */
    private static final String SMALL = JSON.substring(0, 4000) + "]";
    private static final String OTHER = "{\"other\":\"" + "x".repeat(3000) + "\"}";

    @Parameter
    Engine engine;

    @TempDir
    Path tmp;

    private BriskTestServer start(long cacheBytes) {
        return BriskTestServer.start(engine, cfg -> {
            cfg.options().shutdownTimeout(Duration.ofSeconds(1)).ioThreads(2).compressedFileCache(cacheBytes);
            cfg.use(Compression.defaults());
            cfg.staticFiles("/s", StaticFiles.directory(tmp).precompressed(false));
            cfg.after(ctx -> {
                if (ctx.queryParam("swap") != null) { // an after filter that answers with other bytes
                    ctx.bytes(OTHER.getBytes(StandardCharsets.UTF_8)).contentType("application/json");
                }
            });
        });
    }

    private Path write(String name, String content, Instant modified) {
        try {
            Path p = tmp.resolve(name);
            Files.writeString(p, content);
            Files.setLastModifiedTime(p, FileTime.from(modified));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String gzipped(BriskTestServer t, String path) {
        HttpResponse<byte[]> r = t.getBytes(path, "Accept-Encoding", "gzip");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(r.headers().firstValue("Content-Length")).hasValue(String.valueOf(r.body().length));
        return new String(CompressionWireTest.gunzip(r.body()), StandardCharsets.UTF_8);
    }

    private static String deflated(BriskTestServer t, String path) {
        HttpResponse<byte[]> r = t.getBytes(path, "Accept-Encoding", "deflate");
        assertThat(r.headers().firstValue("Content-Encoding")).hasValue("deflate");
        return new String(CompressionWireTest.inflate(r.body()), StandardCharsets.UTF_8);
    }

    @Test
    void aSettledFileIsCompressedOncePerCodingAndTheSameBytesServedAfter() {
        write("a.json", JSON, OLD);
        try (BriskTestServer t = start(1 << 20)) {
            HttpResponse<byte[]> first = t.getBytes("/s/a.json", "Accept-Encoding", "gzip");
            assertThat(t.app().metrics().compressedFileCacheHits()).isZero();
            long kept = t.app().metrics().compressedFileCacheBytes();
            assertThat(kept).as("the gzip form kept, at its size and an entry's overhead")
                    .isEqualTo(first.body().length + dev.brisk.internal.compress.EncodedFiles.ENTRY_OVERHEAD);
            for (int i = 0; i < 3; i++) {
                HttpResponse<byte[]> again = t.getBytes("/s/a.json", "Accept-Encoding", "gzip");
                assertThat(again.body()).isEqualTo(first.body());
                assertThat(again.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
                assertThat(again.headers().firstValue("Vary")).hasValue("Accept-Encoding");
            }
            assertThat(t.app().metrics().compressedFileCacheHits()).isEqualTo(3);
            assertThat(new String(CompressionWireTest.gunzip(first.body()), StandardCharsets.UTF_8)).isEqualTo(JSON);

            assertThat(deflated(t, "/s/a.json")).as("another coding: made, not taken from gzip's").isEqualTo(JSON);
            assertThat(t.app().metrics().compressedFileCacheHits()).isEqualTo(3);
            assertThat(deflated(t, "/s/a.json")).isEqualTo(JSON);
            assertThat(t.app().metrics().compressedFileCacheHits()).isEqualTo(4);
            assertThat(t.app().metrics().compressedFileCacheBytes()).isGreaterThan(kept);

            HttpResponse<byte[]> plain = t.getBytes("/s/a.json");
            assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
            assertThat(new String(plain.body(), StandardCharsets.UTF_8)).isEqualTo(JSON);
        }
    }

    @Test
    void aChangedFileIsNeverAnsweredFromItsOldForm() throws IOException {
        Path p = write("a.json", JSON, OLD);
        try (BriskTestServer t = start(1 << 20)) {
            assertThat(gzipped(t, "/s/a.json")).isEqualTo(JSON);
            // the same size, another time
            String same = JSON.replace('a', 'b');
            write("a.json", same, OLD.plusSeconds(1));
            assertThat(gzipped(t, "/s/a.json")).isEqualTo(same);
            // another size, the old time
            String longer = JSON + " ";
            write("a.json", longer, OLD);
            assertThat(gzipped(t, "/s/a.json")).isEqualTo(longer);
            // replaced by a rename with the first one's size and time: another file (inode)
            Path next = tmp.resolve("next.tmp");
            Files.writeString(next, JSON.replace('a', 'c'));
            Files.setLastModifiedTime(next, FileTime.from(OLD));
            Files.move(next, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            assertThat(gzipped(t, "/s/a.json")).isEqualTo(JSON.replace('a', 'c'));
            assertThat(t.app().metrics().compressedFileCacheHits()).as("every change compressed anew").isZero();
        }
    }

    @Test
    void aFileModifiedWithinTheLastTwoSecondsIsNotKept() {
        write("future.json", JSON, Instant.now().plusSeconds(3600));
        try (BriskTestServer t = start(1 << 20)) {
            for (int i = 0; i < 2; i++) {
                write("fresh.json", JSON, Instant.now()); // just before each request, so a slow machine cannot age it
                assertThat(gzipped(t, "/s/fresh.json")).isEqualTo(JSON);
                assertThat(gzipped(t, "/s/future.json")).isEqualTo(JSON);
            }
            assertThat(t.app().metrics().compressedFileCacheHits()).isZero();
            assertThat(t.app().metrics().compressedFileCacheBytes()).isZero();
        }
    }

    @Test
    void theBoundHoldsOverEveryFileAndZeroKeepsNothing() {
        for (int i = 0; i < 4; i++) {
            write("f" + i + ".json", JSON.replace("a", "a" + i), OLD);
        }
        long one;
        try (BriskTestServer t = start(1 << 20)) {
            gzipped(t, "/s/f0.json");
            one = t.app().metrics().compressedFileCacheBytes();
        }
        // room for two of the four: each new one drops the least recently used
        try (BriskTestServer t = start(2 * one + one / 2)) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 4; i++) {
                    assertThat(gzipped(t, "/s/f" + i + ".json")).isEqualTo(JSON.replace("a", "a" + i));
                    assertThat(t.app().metrics().compressedFileCacheBytes()).isLessThanOrEqualTo(2 * one + one / 2);
                }
            }
            assertThat(t.app().metrics().compressedFileCacheHits()).as("each was dropped before its turn came again").isZero();
            assertThat(gzipped(t, "/s/f3.json")).isEqualTo(JSON.replace("a", "a3"));
            assertThat(t.app().metrics().compressedFileCacheHits()).as("the most recent is kept").isEqualTo(1);
        }
        try (BriskTestServer t = start(0)) {
            for (int i = 0; i < 3; i++) {
                assertThat(gzipped(t, "/s/f0.json")).isEqualTo(JSON.replace("a", "a0"));
            }
            assertThat(t.app().metrics().compressedFileCacheHits()).isZero();
            assertThat(t.app().metrics().compressedFileCacheBytes()).isZero();
        }
    }

    @Test
    void aSmallFileReadWholeIsKeptTooButNotForAnAnswerThatReplacedIt() {
        write("small.json", SMALL, OLD);
        try (BriskTestServer t = start(1 << 20)) {
            for (int i = 0; i < 3; i++) {
                assertThat(gzipped(t, "/s/small.json")).isEqualTo(SMALL);
            }
            assertThat(t.app().metrics().compressedFileCacheHits()).isEqualTo(2);
            // the same file, but an after filter set other bytes: never the file's kept encoding
            for (int i = 0; i < 2; i++) {
                assertThat(gzipped(t, "/s/small.json?swap=1")).isEqualTo(OTHER);
            }
            assertThat(t.app().metrics().compressedFileCacheHits()).isEqualTo(2);
            assertThat(gzipped(t, "/s/small.json")).isEqualTo(SMALL);
            assertThat(t.app().metrics().compressedFileCacheHits()).isEqualTo(3);
        }
    }

    @Test
    void aHeadTellsTheKeptEncodingsLengthOnceThereIsOne() {
        write("a.json", JSON, OLD);
        try (BriskTestServer t = start(1 << 20)) {
            HttpResponse<String> before = t.head("/s/a.json", "Accept-Encoding", "gzip");
            assertThat(before.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(before.headers().firstValue("Content-Length")).as("known only once compressed").isEmpty();
            HttpResponse<byte[]> get = t.getBytes("/s/a.json", "Accept-Encoding", "gzip");
            HttpResponse<String> after = t.head("/s/a.json", "Accept-Encoding", "gzip");
            assertThat(after.headers().firstValue("Content-Length")).hasValue(String.valueOf(get.body().length));
            assertThat(after.headers().firstValue("ETag")).isEqualTo(get.headers().firstValue("ETag"));
            assertThat(t.head("/s/a.json", "Accept-Encoding", "deflate").headers().firstValue("Content-Length"))
                    .as("another coding: not kept yet").isEmpty();
            assertThat(t.head("/s/a.json").headers().firstValue("Content-Length"))
                    .as("no coding: the file's own length").hasValue(String.valueOf(JSON.length()));
            assertThat(t.app().metrics().compressedFileCacheHits()).as("a HEAD is no hit").isZero();
        }
    }
}
