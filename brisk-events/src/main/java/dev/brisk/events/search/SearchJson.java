package dev.brisk.events.search;

import dev.brisk.events.Event;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;

/**
 * The search API's JSON, written straight to bytes. Each event's object is rendered once, when a
 * snapshot is built; a response is then the envelope around copies of those bytes.
 */
public final class SearchJson {
    private static final byte[] HEAD = "{\"data\":{\"events\":[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEXT = "],\"next\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TAIL = "},\"error\":null}".getBytes(StandardCharsets.US_ASCII);

    private SearchJson() {
    }

    /**
     * One event: {@code {"id":..,"title":..,"start_date":"2021-06-30","start_time":"21:00:00",
     * "end_date":..,"end_time":..,"min_price":15.0,"max_price":30.0}}.
     */
    public static byte[] event(Event e) {
        JsonBytes out = new JsonBytes(160 + e.title().length() * 3);
        out.ascii("{\"id\":\"").ascii(e.id().toString()).ascii("\",\"title\":").string(e.title());
        out.ascii(",\"start_date\":");
        date(out, e.start());
        out.ascii(",\"start_time\":");
        time(out, e.start());
        out.ascii(",\"end_date\":");
        date(out, e.end());
        out.ascii(",\"end_time\":");
        time(out, e.end());
        out.ascii(",\"min_price\":").ascii(Double.toString(e.minPrice()));
        out.ascii(",\"max_price\":").ascii(Double.toString(e.maxPrice())).ch('}');
        return out.toBytes();
    }

    /**
     * The success envelope around {@code page}'s pre-rendered events ({@code rendered} by index
     * position): {@code {"data":{"events":[..],"next":"/search?..."},"error":null}}, {@code next} null on
     * the last page. {@code next} is ASCII that needs no escaping (a path and query this service built).
     */
    static byte[] page(byte[][] rendered, Page page, String next) {
        int count = page.count();
        long size = HEAD.length + page.bytes() + NEXT.length + (next == null ? 4 : next.length() + 2) + TAIL.length;
        JsonBytes out = new JsonBytes((int) Math.min(size, Integer.MAX_VALUE - 16));
        out.raw(HEAD);
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                out.ch(',');
            }
            out.raw(rendered[page.position(i)]);
        }
        out.raw(NEXT);
        if (next == null) {
            out.ascii("null");
        } else {
            out.ch('"').ascii(next).ch('"');
        }
        return out.raw(TAIL).toBytes();
    }

    /** {@code {"error":{"code":..,"message":..},"data":null}}. */
    public static byte[] error(String code, String message) {
        JsonBytes out = new JsonBytes(64 + message.length() * 3);
        out.ascii("{\"error\":{\"code\":").string(code).ascii(",\"message\":").string(message)
                .ascii("},\"data\":null}");
        return out.toBytes();
    }

    private static void date(JsonBytes out, LocalDateTime t) {
        int y = t.getYear();
        out.ch('"');
        if (y < 0 || y > 9999) {
            out.ascii(t.toLocalDate().toString());
        } else {
            out.two(y / 100).two(y % 100);
            out.ch('-').two(t.getMonthValue()).ch('-').two(t.getDayOfMonth());
        }
        out.ch('"');
    }

    private static void time(JsonBytes out, LocalDateTime t) {
        out.ch('"').two(t.getHour()).ch(':').two(t.getMinute()).ch(':').two(t.getSecond()).ch('"');
    }
}
