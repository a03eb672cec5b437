package dev.brisk;

import java.time.Duration;

/**
 * One Server-Sent Event (the HTML standard's {@code text/event-stream}): its data and the optional
 * fields {@code event} (the type a browser's {@code addEventListener} listens for), {@code id} (what
 * the browser sends back as {@code Last-Event-ID} when it reconnects) and {@code retry} (how long the
 * browser waits before reconnecting). Data of several lines goes out as several {@code data:} lines,
 * and the browser joins them with newlines again.
 *
 * @param data the event's data; not null, may span lines ({@code \n}, {@code \r\n} or {@code \r})
 * @param event the event's type, or null for the default {@code message}; a single line
 * @param id the event's id, or null for none; a single line without NUL
 * @param retry the reconnection time to set, or null to leave it
 */
public record SseEvent(String data, String event, String id, Duration retry) {
    /** The longest {@code retry}: 365 days (a browser waits that long before it reconnects). */
    public static final Duration MAX_RETRY = Duration.ofDays(365);

    /**
     * Checks the fields can be written as one event.
     *
     * @throws IllegalArgumentException when {@code data} is null, {@code event} or {@code id} contains a
     *     line break (or {@code id} a NUL), or {@code retry} is negative or above {@link #MAX_RETRY}
     */
    public SseEvent {
        if (data == null) {
            throw new IllegalArgumentException("an event's data must not be null (it may be empty)");
        }
        if (event != null && (event.indexOf('\n') >= 0 || event.indexOf('\r') >= 0)) {
            throw new IllegalArgumentException("an event's type must be a single line");
        }
        if (id != null && (id.indexOf('\n') >= 0 || id.indexOf('\r') >= 0 || id.indexOf('\0') >= 0)) {
            throw new IllegalArgumentException("an event's id must be a single line without NUL");
        }
        if (retry != null && (retry.isNegative() || retry.compareTo(MAX_RETRY) > 0)) {
            // sent in milliseconds: past about 292 million years they overflow (checked here, not at send)
            throw new IllegalArgumentException("retry must be from 0 to 365 days (MAX_RETRY): " + retry);
        }
    }

    /**
     * An event with only data.
     *
     * @param data the data
     * @return the event
     */
    public static SseEvent of(String data) {
        return new SseEvent(data, null, null, null);
    }

    /**
     * This event with a type.
     *
     * @param type the event's type
     * @return a copy with {@code event} set
     */
    public SseEvent withEvent(String type) {
        return new SseEvent(data, type, id, retry);
    }

    /**
     * This event with an id.
     *
     * @param eventId the event's id
     * @return a copy with {@code id} set
     */
    public SseEvent withId(String eventId) {
        return new SseEvent(data, event, eventId, retry);
    }

    /**
     * This event with a reconnection time.
     *
     * @param reconnect how long the browser waits before it reconnects
     * @return a copy with {@code retry} set
     */
    public SseEvent withRetry(Duration reconnect) {
        return new SseEvent(data, event, id, reconnect);
    }
}
