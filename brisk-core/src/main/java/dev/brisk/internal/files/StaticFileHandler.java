package dev.brisk.internal.files;

import dev.brisk.Compression;
import dev.brisk.Context;
import dev.brisk.Handler;
import dev.brisk.HttpException;
import dev.brisk.StaticFiles;
import dev.brisk.internal.http.AcceptEncoding;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The handler of a static mount's {@code prefix/*} route: finds the file for the request path (through
 * {@link RequestPath} and the mount's {@link Source}), picks the representation (a precompressed
 * sibling when the client takes its coding), evaluates the {@link Preconditions}, the {@link ByteRanges},
 * and sets the answer: a small body read now, a larger one as a {@link SizedBody} the engine sends from
 * the file. Only the public {@link Context} is used, so middleware may wrap the context.
 *
 * <pre>
 *   path ──400 (unsafe)──▶ │ hidden / absent ──▶ 404
 *     └─▶ directory ──index?──no──▶ 404
 *     │       └─yes, no trailing slash──▶ 301 "name/"
 *     └─▶ file (or index) ─▶ sibling by Accept-Encoding ─▶ validators
 *            ─▶ If-Match / If-Unmodified-Since false ──▶ 412
 *            ─▶ If-None-Match / If-Modified-Since false ──▶ 304
 *            ─▶ GET with Range (and If-Range true) ─▶ none satisfiable ──▶ 416
 *            │                                      └─▶ one ──▶ 206; several ──▶ 206 multipart/byteranges
 *            ─▶ 200 (HEAD: the length only; no file opened)
 * </pre>
 *
 * <p>Immutable once {@link #bind bound} to the server's {@link OpenFiles} at start; any thread.
 */
public final class StaticFileHandler implements Handler {
    private final Source source;
    private final ContentTypes types;
    private final String cacheControl;
    private final List<String> indexFiles;
    private final boolean hidden;
    private final boolean precompressed;
    private final int maxRanges;
    private volatile OpenFiles openFiles;

    /**
     * @throws IllegalArgumentException when a directory mount's directory does not exist
     */
    public StaticFileHandler(StaticFiles files) {
        this.source = files.directory() != null
                ? new DirectorySource(files.directory(), files.followSymlinks(), files.hiddenFiles())
                : new ClasspathSource(files.classLoader(), files.resourceRoot());
        this.types = new ContentTypes(files.contentTypes());
        this.cacheControl = files.cacheControl();
        this.indexFiles = files.indexFiles();
        this.hidden = files.hiddenFiles();
        this.precompressed = files.precompressed();
        this.maxRanges = files.maxRanges();
    }

    /** Sets the server-wide open-file bound, once, before the first request. */
    public void bind(OpenFiles files) {
        this.openFiles = files;
    }

    /** The handler of the mount's own path without its trailing slash: a redirect to the path with one. */
    public static Handler mountRoot(String prefix) {
        String last = prefix.substring(prefix.lastIndexOf('/') + 1);
        String location = RequestPath.encodeSegment(last) + "/";
        return ctx -> ctx.redirect(location + withQuery(ctx), 301);
    }

    @Override
    public void handle(Context ctx) throws IOException {
        String rest = ctx.pathParam("*");
        RequestPath.Parsed p = RequestPath.parse(rest == null ? "" : rest, hidden);
        if (p == null) {
            throw new HttpException.NotFound("Not Found");
        }
        List<String> segments = p.segments();
        Resource r = source.find(segments);
        if (r == null) {
            throw new HttpException.NotFound("Not Found");
        }
        String name = p.last();
        if (r.isDirectory()) {
            Resource index = null;
            for (String candidate : indexFiles) {
                List<String> s = append(p.segments(), candidate);
                Resource c = source.find(s);
                if (c != null && !c.isDirectory()) {
                    index = c;
                    segments = s;
                    name = candidate;
                    break;
                }
            }
            if (index == null) {
                throw new HttpException.NotFound("Not Found"); // no listings
            }
            if (!p.trailingSlash() && !p.segments().isEmpty()) {
                // relative links need the slash; the query goes along
                ctx.redirect(RequestPath.encodeSegment(p.last()) + "/" + withQuery(ctx), 301);
                return;
            }
            r = index;
        } else if (p.trailingSlash()) {
            throw new HttpException.NotFound("Not Found"); // a file is no directory
        }
        serve(ctx, r, segments, name);
    }

    private void serve(Context ctx, Resource file, List<String> segments, String name) throws IOException {
        Resource rep = file;
        String coding = null;
        if (precompressed) {
            ctx.addHeader("Vary", "Accept-Encoding"); // added: a Vary set before (CORS' Origin) stays
            String accept = dev.brisk.internal.http.FieldLists.joined(ctx.headers("Accept-Encoding"));
            if (accept != null) {
                int br = AcceptEncoding.q(accept, "br");
                int gzip = AcceptEncoding.q(accept, "gzip");
                String first = br > 0 && br >= gzip ? "br" : gzip > 0 ? "gzip" : null;
                String second = first == null ? null : first.equals("br") ? (gzip > 0 ? "gzip" : null) : (br > 0 ? "br" : null);
                for (String c : new String[] {first, second}) {
                    if (c == null) {
                        continue;
                    }
                    Resource sibling = source.find(sibling(segments, name, c.equals("br") ? ".br" : ".gz"));
                    if (sibling != null && !sibling.isDirectory()) {
                        rep = sibling;
                        coding = c;
                        break;
                    }
                }
            }
        }
        long length = rep.length();
        long modifiedMillis = rep.lastModified();
        long modified = modifiedMillis < 0 ? -1 : Math.floorDiv(modifiedMillis, 1000L);
        String etag = rep.etag(coding == null ? "" : coding.equals("br") ? "-br" : "-gz");
        // the file's validators and caching only on the file's own answers (200, 206, 304): a 412, a 416 or a
        // 503 carrying them could be stored by a cache, and revalidated into a 304 that keeps the error
        Runnable validators = () -> {
            if (etag != null) {
                ctx.header("ETag", etag);
            }
            if (modified >= 0) {
                ctx.header("Last-Modified", HttpDates.format(modified));
            }
            if (cacheControl != null) {
                ctx.header("Cache-Control", cacheControl);
            }
        };
        int verdict = Preconditions.evaluate(ctx, etag, modified);
        if (verdict == Preconditions.NOT_MODIFIED) {
            validators.run();
            ctx.status(304);
            return;
        }
        if (verdict == Preconditions.FAILED) {
            ctx.status(412).text("Precondition Failed");
            return;
        }
        Runnable fileFields = () -> { // a 200's or a 206's, in the order they always had
            validators.run();
            ctx.header("Accept-Ranges", "bytes");
        };
        String type = types.of(name);
        boolean head = ctx.method().equals("HEAD");
        String range = head ? null : ctx.header("Range"); // ranges are defined for GET only
        long[] ranges = range != null && Preconditions.rangeApplies(ctx.header("If-Range"), etag, modified)
                ? ByteRanges.parse(range, length, maxRanges) : ByteRanges.IGNORE;
        if (ranges == ByteRanges.UNSATISFIABLE) {
            // the answer's own text is not encoded: no Content-Encoding on it
            ctx.status(416).header("Accept-Ranges", "bytes").header("Content-Range", "bytes */" + length)
                    .text("Range Not Satisfiable");
            return;
        }
        if (coding != null && ranges.length > 2) {
            // several ranges of an encoded file: a multipart/byteranges message of them would say
            // Content-Encoding for a wrapper that is not encoded. The whole file instead (RFC 9110
            // lets a server ignore Range)
            ranges = ByteRanges.IGNORE;
        }
        if (ranges == ByteRanges.IGNORE) {
            if (head) {
                fileFields.run();
                ctx.contentType(type);
                encoded(ctx, coding);
                // the length, without opening the file; its key lets a kept encoding tell the encoded length
                ctx.stream(new UnsentBody(length).keyed(coding == null ? rep.contentKey() : null));
            } else {
                send(ctx, rep, 0, length, coding, () -> {
                    fileFields.run();
                    ctx.contentType(type);
                });
            }
            return;
        }
        if (ranges.length == 2) {
            long first = ranges[0];
            long last = ranges[1];
            send(ctx, rep, first, last - first + 1, coding, () -> {
                fileFields.run();
                ctx.status(206).contentType(type).header("Content-Range", "bytes " + first + "-" + last + "/" + length);
            });
            return;
        }
        OpenFiles files = openFiles;
        if (!files.tryAcquire()) {
            busy(ctx);
            return;
        }
        SizedBody whole = open(rep, 0, length, files);
        String boundary = "brisk-" + Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
        fileFields.run();
        ctx.status(206).contentType("multipart/byteranges; boundary=" + boundary);
        ctx.stream(new MultipartRanges(whole, ranges, boundary, type, length));
    }

    /**
     * Sets bytes {@code [start, start + count)} of {@code rep} as the body: read now when small, else
     * from the file; {@code coding} is the representation's content coding, or null. {@code head} sets the
     * answer's status and fields once the bytes are there (a 503 instead carries none of them).
     */
    private void send(Context ctx, Resource rep, long start, long count, String coding, Runnable head) throws IOException {
        OpenFiles files = openFiles;
        if (!files.tryAcquire()) {
            busy(ctx);
            return;
        }
        if (count <= StaticFiles.INLINE_LIMIT) {
            byte[] bytes;
            try {
                bytes = rep.read(start, (int) count);
            } catch (NoSuchFileException e) {
                throw new HttpException.NotFound("Not Found");
            } catch (AccessDeniedException e) {
                throw new HttpException.Forbidden("Forbidden");
            } finally {
                files.release();
            }
            if (bytes.length != count) {
                // it shrank since it was looked up: its length and validators are stale, so no 200 may carry it
                ctx.status(503).header("Retry-After", "1").text("The file changed while it was read: try again");
                return;
            }
            head.run();
            encoded(ctx, coding); // only with the file's bytes: never on a 503 or an error page
            ctx.bytes(bytes);
            if (start == 0 && count == rep.length()
                    && ctx.attribute(Compression.ATTRIBUTE) instanceof Compression c && c.enabled()) {
                Object key = rep.contentKey(); // its encoding may be kept for the next client
                if (key != null) {
                    ctx.attribute(KeyedBytes.ATTRIBUTE, new KeyedBytes(key, bytes));
                }
            }
        } else {
            SizedBody body = open(rep, start, count, files);
            head.run();
            encoded(ctx, coding);
            ctx.stream(body);
        }
    }

    /** Opens {@code rep} holding a permit already taken (returned when the body closes, or now if opening fails). */
    private static SizedBody open(Resource rep, long start, long count, OpenFiles files) throws IOException {
        try {
            return rep.open(start, count, files.releaser());
        } catch (NoSuchFileException e) {
            throw new HttpException.NotFound("Not Found"); // gone since it was looked up
        } catch (AccessDeniedException e) {
            throw new HttpException.Forbidden("Forbidden");
        }
    }

    /** {@code ?query} of the request, or nothing: a redirect to the slashed path keeps it. */
    private static String withQuery(Context ctx) {
        String query = ctx.queryString();
        return query == null || query.isEmpty() ? "" : "?" + query;
    }

    private static void encoded(Context ctx, String coding) {
        if (coding != null) {
            ctx.header("Content-Encoding", coding);
        }
    }

    private static void busy(Context ctx) {
        ctx.status(503).header("Retry-After", "1").text("Too many files open: try again shortly");
    }

    private static List<String> append(List<String> segments, String name) {
        List<String> s = new ArrayList<>(segments.size() + 1);
        s.addAll(segments);
        s.add(name);
        return s;
    }

    /** The segments of {@code name + ext} next to the file at {@code segments} (whose last is {@code name}). */
    private static List<String> sibling(List<String> segments, String name, String ext) {
        List<String> s = new ArrayList<>(segments);
        if (s.isEmpty()) {
            s.add(name + ext);
        } else {
            s.set(s.size() - 1, name + ext);
        }
        return s;
    }
}
