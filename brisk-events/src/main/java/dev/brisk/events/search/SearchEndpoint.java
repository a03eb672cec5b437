package dev.brisk.events.search;

import dev.brisk.Context;
import dev.brisk.Handler;
import dev.brisk.HttpException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /search}, routed to run on the event loop: what is narrow is answered there, what is wide
 * goes through {@link WideAnswers}.
 *
 * <p>Narrow, on the calling thread, with a length: a page of at most {@link #WIDE_BYTES} of JSON
 * (rendered, and gzipped once per cached page, right there) and a cached page whose form the client
 * takes (identity, or gzip already made) is no larger. Wide: any other answer. It is admitted as one
 * of {@code maxInFlight} wide answers, or refused with {@code 503 busy} and {@code Retry-After: 1};
 * its head goes out at once (200, chunked) and the server's stream pump sends the body 16 KiB at a
 * time, so between two pieces of a wide answer the event loop answers whatever else is waiting: a
 * narrow request waits for at most one piece of each wide answer in flight, never for a whole one.
 * A wide page that is not cached (or cached, but not yet gzipped for a client that takes gzip) is
 * first made on a render thread; it is then cached like any other.
 *
 * <p>Stateless apart from its collaborators; called on any number of threads at once.
 */
public final class SearchEndpoint implements Handler {
    /**
     * Pages with more JSON than this are wide. 256 KiB is some 1,100 events of the simulator's
     * catalogue: rendering is a copy of that much, gzip at the fastest level about a millisecond.
     */
    public static final long WIDE_BYTES = 256 * 1024;
    private static final String JSON = "application/json";
    private static final System.Logger LOG = System.getLogger(SearchEndpoint.class.getName());

    private final EventCatalog catalog;
    private final QueryMemo queries;
    private final ResponseCache cache;
    private final WideAnswers wide;
    private final ZoneId zone;
    /** Names this process in the pages' tags: random, so two instances (or two runs) never share one. */
    private final String process = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());

    /**
     * @param catalog the snapshot to answer from
     * @param queries parsed queries by raw query string
     * @param cache   rendered pages
     * @param wide    where wide pages are rendered
     * @param zone    the zone of the provider's local times
     */
    public SearchEndpoint(EventCatalog catalog, QueryMemo queries, ResponseCache cache, WideAnswers wide, ZoneId zone) {
        this.catalog = catalog;
        this.queries = queries;
        this.cache = cache;
        this.wide = wide;
        this.zone = zone;
    }

    @Override
    public void handle(Context ctx) {
        if (!catalog.loaded()) {
            // an empty answer would be wrong, not just early: the store is still being read
            ctx.header("Retry-After", "1");
            error(ctx, 503, "unavailable", "the stored events are still loading; retry shortly");
            return;
        }
        String raw = ctx.queryString();
        // a page after a cursor is mostly asked for once: remembering it would only push out the windows in use
        SearchQuery q = raw.contains(SearchQuery.CURSOR + "=") ? SearchQuery.parse(queryParams(ctx), zone)
                : queries.get(raw, () -> SearchQuery.parse(queryParams(ctx), zone));
        // a list, on one line or several (RFC 9110 5.3)
        boolean gzip = SearchBody.acceptsGzip(String.join(", ", ctx.headers("Accept-Encoding")));
        EventIndex index = catalog.current();
        ctx.header("Vary", "Accept-Encoding"); // on a 304 too: the 200 it stands for has it (RFC 9110 15.4.5)
        if (ctx.notModified(tag(index.version()))) {
            return; // the client has this page of this snapshot: nothing is looked up or sent
        }
        SearchBody body = cache.peek(index.version(), q);
        if (body != null) {
            boolean zipped = gzip && body.compressible();
            if (!zipped || body.gzipReady()) {
                ByteBuffer form = zipped ? body.gzip() : body.identity();
                if (form.remaining() <= WIDE_BYTES) {
                    send(ctx, body, gzip);
                } else {
                    wide(ctx, wide.send(form), zipped); // made already: only its sending is wide
                }
            } else if (body.length() <= WIDE_BYTES) {
                send(ctx, body, gzip); // the gzip form made here, once: narrow work
            } else {
                wide(ctx, wide.submit(rendering(body::gzip)), true);
            }
            return;
        }
        Page page = index.page(q);
        if (page.bytes() <= WIDE_BYTES) {
            send(ctx, cache.put(index.version(), q, new SearchBody(index.render(page))), gzip);
            return;
        }
        wide(ctx, wide.submit(rendering(() -> {
            SearchBody b = cache.put(index.version(), q, new SearchBody(index.render(page)));
            return gzip ? b.gzip() : b.identity(); // wide: far above GZIP_MIN, always compressible
        })), gzip);
    }

    /**
     * The entity tag of a page of snapshot {@code version}: a page is a function of the snapshot and its
     * URL (caches key tags by URL), the coding, and this process, whose versions another instance
     * behind the same proxy counts on its own. Weak: the gzip bytes of a page are the same page.
     */
    private String tag(long version) {
        return "W/\"" + process + "-" + Long.toHexString(version) + "\"";
    }

    /** Writes the 400/503 error shape, as every error of the service is written. */
    public static void error(Context ctx, int status, String code, String message) {
        ctx.status(status).contentType(JSON).bytes(SearchJson.error(code, message));
    }

    private static void send(Context ctx, SearchBody body, boolean acceptsGzip) {
        ctx.header("Vary", "Accept-Encoding").contentType(JSON);
        if (acceptsGzip && body.compressible()) {
            ctx.header("Content-Encoding", "gzip").bytes(body.gzip());
        } else {
            ctx.bytes(body.identity());
        }
    }

    /** {@code work}, logging what it throws: the 200 head is out by then, the client only sees a cut answer. */
    private static java.util.concurrent.Callable<ByteBuffer> rendering(java.util.concurrent.Callable<ByteBuffer> work) {
        return () -> {
            try {
                return work.call();
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, "rendering a wide /search page failed", e);
                throw e;
            }
        };
    }

    /** A wide answer: {@code pending} streamed (chunked), or 503 busy when it was not admitted (null). */
    private static void wide(Context ctx, InputStream pending, boolean gzipped) {
        if (pending == null) {
            // the page's tag was put on the answer before it was known to be wide: a 503 is not that page
            ctx.removeHeader("ETag").header("Retry-After", "1");
            error(ctx, 503, "busy", "too many wide searches are being answered; retry shortly, or ask for a smaller limit");
            return;
        }
        ctx.header("Vary", "Accept-Encoding").contentType(JSON);
        if (gzipped) {
            ctx.header("Content-Encoding", "gzip");
        }
        ctx.stream(pending);
    }

    /** The query's parameters; a malformed escape in them is a bad parameter of /search like any other. */
    private static Map<String, List<String>> queryParams(Context ctx) {
        try {
            return ctx.queryParamMap();
        } catch (HttpException.BadRequest e) {
            throw new SearchQuery.InvalidParameterException("the query string is malformed: " + e.getMessage());
        }
    }
}
