package dev.brisk.events.sim;

import java.time.Instant;

/**
 * One state rendered in one dialect, with its validators. The body array is shared by every
 * response that serves it and must not be changed.
 *
 * @param revision     the {@link FeedState#revision()} it was rendered from
 * @param dialect      its dialect
 * @param body         the document
 * @param etag         strong ETag, quoted
 * @param lastModified the state's Last-Modified
 * @param renderNanos  how long rendering took
 */
record RenderedFeed(long revision, Dialect dialect, byte[] body, String etag, Instant lastModified,
                    long renderNanos) {
}
