package dev.brisk.events.search;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/**
 * A position in the search order (start, then id): "after this event". A page's {@code next} link
 * carries the cursor of its last event, and the next page starts after it, so paging is keyset
 * paging: stable under inserts between pages (an event inserted before the position is not shown,
 * one after it is, nothing shifts), and each page costs a binary search, not a skip over earlier pages.
 *
 * <p>On the wire it is opaque: base64url (no padding) of a format byte, the start as whole seconds
 * of local time, and the id's two halves. Any decodable position is a valid one (it need not name a
 * stored event), so a cursor needs no signature.
 *
 * @param start  the start of the event it follows, in {@link EventIndex}'s key (seconds of local time)
 * @param idHigh the most significant half of its id
 * @param idLow  the least significant half of its id
 */
public record Cursor(long start, long idHigh, long idLow) {
    /** The format byte: a future layout gets a new one, and old cursors are refused with a 400, not misread. */
    private static final byte FORMAT = 1;
    private static final int BYTES = 1 + 3 * Long.BYTES;
    /** The length of {@link #encode()}: 25 bytes in base64 without padding. */
    static final int TEXT_LENGTH = (BYTES * 8 + 5) / 6;

    /** The position right after the event starting at {@code start} (index key) with id {@code id}. */
    static Cursor after(long start, UUID id) {
        return new Cursor(start, id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    /** The opaque text form, URL-safe: letters, digits, {@code -} and {@code _}. */
    public String encode() {
        ByteBuffer b = ByteBuffer.allocate(BYTES).put(FORMAT).putLong(start).putLong(idHigh).putLong(idLow);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    /**
     * The cursor {@code text} encodes.
     *
     * @throws IllegalArgumentException when it is not a cursor this service issues
     */
    public static Cursor decode(String text) {
        if (text.length() != TEXT_LENGTH) {
            throw new IllegalArgumentException("wrong length");
        }
        byte[] raw = Base64.getUrlDecoder().decode(text); // throws IllegalArgumentException on a bad character
        if (raw.length != BYTES) {
            throw new IllegalArgumentException("wrong length"); // padding inside the text: fewer bytes
        }
        ByteBuffer b = ByteBuffer.wrap(raw);
        if (b.get() != FORMAT) {
            throw new IllegalArgumentException("unknown format");
        }
        return new Cursor(b.getLong(), b.getLong(), b.getLong());
    }

    /**
     * The order of (start, id) against this position: negative when the event comes before or at it
     * (already shown), positive when after. Ids compare as two unsigned halves, which is the order of
     * their lower-case hex text, the order the index sorts by.
     */
    int compareEvent(long eventStart, UUID id) {
        int c = Long.compare(eventStart, start);
        if (c == 0) {
            c = Long.compareUnsigned(id.getMostSignificantBits(), idHigh);
        }
        if (c == 0) {
            c = Long.compareUnsigned(id.getLeastSignificantBits(), idLow);
        }
        return c == 0 ? -1 : c;
    }
}
