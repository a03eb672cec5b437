package dev.brisk.events.sim;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Bodies that look like the feed but are not well-formed XML, built from a rendered document
 * without copying it: each is a sequence of slices of the shared document plus a few bytes.
 */
final class MalformedBodies {

    /** The ways a document is broken; each makes any conforming XML parser fail. */
    enum Kind {
        /** The document cut off before its root end tag (a dropped upstream connection, served as complete). */
        TRUNCATED,
        /** Not XML at all: a plain-text error page, or gzip bytes sent without Content-Encoding. */
        GARBAGE,
        /** A plan/event closed by {@code </zone>}: end tag does not match its start tag. */
        MISMATCHED_END_TAG,
        /** A zone start tag that never ends before the next tag begins. */
        UNCLOSED_START_TAG
    }

    private static final Kind[] KINDS = Kind.values();
    private static final byte[] PLAN_CLOSE = XmlBytes.constant("      </"); // plan/event end tags alone have this indent
    private static final byte[] ZONE_OPEN = XmlBytes.constant("<zone ");
    private static final byte[] WRONG_END = XmlBytes.constant("</zone>");
    private static final byte[] UNCLOSED = XmlBytes.constant("<zone zone_id=\"0\" price=\"1.00\"\n");
    private static final byte[] GZIP_MAGIC = {0x1f, (byte) 0x8b, 0x08, 0x00};
    private static final List<String> ERROR_PAGES = List.of(
            "upstream connect error or disconnect/reset before headers. reset reason: overflow\n",
            "Internal Server Error: java.lang.NullPointerException at PlanExporter.export(PlanExporter.java:88)\n",
            "Service temporarily overloaded, please retry later.\n");

    private MalformedBodies() {
    }

    /** A kind drawn uniformly. */
    static Kind pick(Random random) {
        return KINDS[random.nextInt(KINDS.length)];
    }

    /** A body of {@code kind} derived from the well-formed {@code doc}. */
    static InputStream of(Kind kind, byte[] doc, Random random) {
        return switch (kind) {
            case TRUNCATED -> truncated(doc, random);
            case GARBAGE -> garbage(random);
            case MISMATCHED_END_TAG -> mismatchedEndTag(doc, random);
            case UNCLOSED_START_TAG -> unclosedStartTag(doc, random);
        };
    }

    /** The first 10 % to 90 % of the document; always before the last {@code >}, so the root stays open. */
    private static InputStream truncated(byte[] doc, Random random) {
        int cut = doc.length / 10 + random.nextInt(Math.max(1, doc.length * 8 / 10));
        return slices(new ByteArrayInputStream(doc, 0, Math.min(cut, doc.length - 2)));
    }

    private static InputStream garbage(Random random) {
        if (random.nextBoolean()) {
            byte[] noise = new byte[256 + random.nextInt(4096)];
            random.nextBytes(noise);
            return slices(new ByteArrayInputStream(GZIP_MAGIC), new ByteArrayInputStream(noise));
        }
        String page = ERROR_PAGES.get(random.nextInt(ERROR_PAGES.size()));
        return new ByteArrayInputStream(page.getBytes(StandardCharsets.US_ASCII));
    }

    private static InputStream mismatchedEndTag(byte[] doc, Random random) {
        int at = find(doc, PLAN_CLOSE, random);
        if (at < 0) {
            return truncated(doc, random); // no plan to break
        }
        int tagStart = at + PLAN_CLOSE.length - 2;
        int tagEnd = tagStart;
        while (doc[tagEnd] != '>') {
            tagEnd++;
        }
        return slices(new ByteArrayInputStream(doc, 0, tagStart), new ByteArrayInputStream(WRONG_END),
                new ByteArrayInputStream(doc, tagEnd + 1, doc.length - tagEnd - 1));
    }

    private static InputStream unclosedStartTag(byte[] doc, Random random) {
        int at = find(doc, ZONE_OPEN, random);
        if (at < 0) {
            return truncated(doc, random); // no zone to break
        }
        return slices(new ByteArrayInputStream(doc, 0, at), new ByteArrayInputStream(UNCLOSED),
                new ByteArrayInputStream(doc, at, doc.length - at));
    }

    /** The first {@code pattern} at or after a random point in the first half, else the first one; -1 if none. */
    private static int find(byte[] doc, byte[] pattern, Random random) {
        int at = indexOf(doc, pattern, random.nextInt(Math.max(1, doc.length / 2)));
        return at >= 0 ? at : indexOf(doc, pattern, 0);
    }

    static int indexOf(byte[] doc, byte[] pattern, int from) {
        outer:
        for (int i = from; i <= doc.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (doc[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static InputStream slices(InputStream... parts) {
        return parts.length == 1 ? parts[0] : new SequenceInputStream(Collections.enumeration(List.of(parts)));
    }
}
