package dev.brisk.internal.files;

import dev.brisk.Context;

/**
 * The conditional request headers against a representation's validators, in the order of RFC 9110
 * section 13.2.2: {@code If-Match}, else {@code If-Unmodified-Since} (412 when false); then
 * {@code If-None-Match}, else {@code If-Modified-Since} (304 for GET and HEAD when false). A date that
 * does not parse is ignored, as the RFC asks. And {@code If-Range}, which decides whether a
 * {@code Range} applies. Stateless.
 */
public final class Preconditions {
    /** Serve the representation. */
    public static final int PROCEED = 200;
    /** {@code 304 Not Modified}. */
    public static final int NOT_MODIFIED = 304;
    /** {@code 412 Precondition Failed}. */
    public static final int FAILED = 412;

    private Preconditions() {
    }

    /**
     * @param etag the representation's current entity tag, or null
     * @param modified its {@code Last-Modified} in epoch seconds, or -1
     * @return {@link #PROCEED}, {@link #NOT_MODIFIED} or {@link #FAILED}
     */
    public static int evaluate(Context ctx, String etag, long modified) {
        String ifMatch = dev.brisk.internal.http.FieldLists.joined(ctx.headers("If-Match"));
        if (ifMatch != null) {
            if (!EntityTags.matches(ifMatch, etag, true)) {
                return FAILED;
            }
        } else {
            long since = HttpDates.parse(ctx.header("If-Unmodified-Since"));
            if (since >= 0 && modified >= 0 && modified > since) {
                return FAILED;
            }
        }
        boolean safe = ctx.method().equals("GET") || ctx.method().equals("HEAD");
        String ifNoneMatch = dev.brisk.internal.http.FieldLists.joined(ctx.headers("If-None-Match"));
        if (ifNoneMatch != null) {
            if (EntityTags.matches(ifNoneMatch, etag, false)) {
                return safe ? NOT_MODIFIED : FAILED;
            }
        } else if (safe) {
            long since = HttpDates.parse(ctx.header("If-Modified-Since"));
            if (since >= 0 && modified >= 0 && modified <= since) {
                return NOT_MODIFIED;
            }
        }
        return PROCEED;
    }

    /**
     * Whether a {@code Range} applies: always without {@code If-Range}; with it, only when it names the
     * current representation (a strong tag equal to {@code etag}, or a date equal to {@code modified}).
     */
    public static boolean rangeApplies(String ifRange, String etag, long modified) {
        if (ifRange == null) {
            return true;
        }
        String v = ifRange.trim();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            return EntityTags.matches(v, etag, true);
        }
        long date = HttpDates.parse(v);
        return date >= 0 && date == modified;
    }
}
