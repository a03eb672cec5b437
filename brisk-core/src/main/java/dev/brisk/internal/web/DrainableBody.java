package dev.brisk.internal.web;

/**
 * A response body stream that would otherwise never end (an event stream): a graceful shutdown ends it
 * the way its app would, so the response finishes and the connection can close, instead of holding
 * the shutdown for its whole timeout. Any thread.
 */
public interface DrainableBody {
    /** Ends the body after what was already sent. Idempotent. */
    void drain();
}
