package dev.brisk.internal.http1;

import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.web.Exchange;

/**
 * An HTTP/1.1 connection's {@link PipelineRun}s: which buffered requests may run ahead of their turn,
 * forming a run behind the request just parsed, and moving the current request through it as answers
 * are written. The connection's state machine stays in HANDLING for the whole run and asks this class
 * what comes next.
 *
 * <p>Loop thread only: the connection's thread reaches {@link #memberDone} and {@link #stopped} through
 * loop tasks.
 */
final class PipelineRuns {
    private final Http1Shared shared;
    private final RequestReader reader;
    private final RequestParser parser;
    private final FastAnswers fast;
    private final Http1Channel channel;
    private final Recorder recorder;
    private final int maxRequests;
    /** The run being answered, or null. */
    private PipelineRun run;

    PipelineRuns(Http1Shared shared, RequestReader reader, FastAnswers fast, Http1Channel channel, Recorder recorder) {
        this.shared = shared;
        this.reader = reader;
        this.parser = reader.parser;
        this.fast = fast;
        this.channel = channel;
        this.recorder = recorder;
        this.maxRequests = shared.options.maxRequestsPerConnection();
    }

    /**
     * Whether a handler may run ahead of its turn for {@code ex}: it runs on a virtual thread, and the
     * request can neither change what the following bytes are (no body, no {@code Upgrade}) nor end the
     * connection (keep-alive; the caller checks that for the first request, {@link #form} for the rest).
     */
    boolean runsAhead(Exchange ex) {
        return shared.app.onVirtualThread(ex) && !ex.streamsBody() && ex.header("Upgrade") == null;
    }

    /**
     * Parses the requests buffered behind {@code first} (the {@code served}-th of the connection) that may
     * join it in a run, up to {@link PipelineRun#MAX}; the first that may not is left in the buffer, to be
     * parsed in its turn. Returns the run, or null when no other request joined ({@code first} then goes
     * alone, as usual). The parser is reset either way.
     */
    PipelineRun form(Exchange first, int served) {
        PipelineRun r = null; // made once a second request joins: most buffered bytes are no whole request
        int n = served;
        while (r == null || !r.full()) {
            int start = reader.input.start;
            parser.reset();
            int parsed;
            try {
                parsed = reader.parseHead();
            } catch (HttpParseException e) {
                break; // refused in its turn
            }
            if (parsed != RequestReader.WHOLE) {
                break;
            }
            if (!parser.hasBody() && parser.keepAlive() && !shared.draining() && (maxRequests == 0 || n + 1 < maxRequests)
                    && !fast.serves(reader.bytes(), reader.headStart())) {
                Exchange next = channel.runMember(reader);
                shared.app.route(next);
                if (runsAhead(next)) {
                    next.own();
                    n++;
                    if (r == null) {
                        r = new PipelineRun();
                        r.add(first, recorder.headAt());
                    }
                    r.add(next, System.nanoTime());
                    continue;
                }
                channel.notRunMember(next);
            }
            reader.input.start = start; // not for the run: parsed again in its turn
            break;
        }
        parser.reset();
        return r;
    }

    /** {@code r} (from {@link #form}) is answered from now on: its handlers go to the connection's thread. */
    void begin(PipelineRun r) {
        run = r;
        channel.dispatchRun(r);
    }

    /** Whether a member of the run comes after the one being answered. */
    boolean hasMore() {
        return run != null && run.hasNext();
    }

    /** Whether the member after the one being answered has an answer ready too (they may go out together). */
    boolean nextReady() {
        return run != null && run.nextDone();
    }

    /**
     * The current answer is written: the run's next member becomes the current request (true), its
     * answer going out if its handler has ended, or dispatched alone if the thread stopped before it; or
     * the run is over, or there is none (false).
     */
    boolean next() {
        if (run == null || !run.hasNext()) {
            run = null;
            return false;
        }
        Exchange next = run.advance();
        channel.adopt(next);
        recorder.headAt(run.headAt());
        if (run.takeCurrent()) {
            channel.written(next);
        } else if (run.takeStopped()) {
            channel.dispatch();
        }
        return true;
    }

    /** Member {@code i} of {@code r} has ended on the connection's thread (or was refused). */
    void memberDone(PipelineRun r, int i) {
        if (r != run) {
            // the run is over: written already (its exchange may serve another request by now), or the
            // connection closed meanwhile and the answer is dropped
            if (r.discarded()) {
                Exchange.closeQuietly(r.member(i).responseStream());
            }
            return;
        }
        if (i == r.cursor() && r.takeCurrent()) {
            channel.written(r.member(i));
        } // else: written already, with the one before it; or its turn comes later (next)
    }

    /** The thread stopped running {@code r}'s members: the current one, if it is among them, goes alone. */
    void stopped(PipelineRun r) {
        if (r == run && r.takeStopped()) {
            channel.dispatch();
        }
    }

    /** The connection closed: answers of the run not written yet are dropped. */
    void discard() {
        if (run != null) {
            run.discard();
            run = null;
        }
    }
}
