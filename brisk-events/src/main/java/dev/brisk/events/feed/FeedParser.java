package dev.brisk.events.feed;

import java.io.ByteArrayInputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.util.Objects;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Streaming, hardened StAX reader of the provider's feed in either dialect, chosen by the root element:
 * {@code <planList><output><base_plan><plan><zone/>} or {@code <eventList><output><base_event><event><zone/>}.
 *
 * <p>One record (plan / event) becomes at most one {@link dev.brisk.events.Event}, identified by
 * (base id, record id); its price range is the min/max of its zones' prices. Records under a base whose
 * {@code sell_mode} is not {@code online} are counted and ignored. A bad record (missing id, title or
 * date, impossible date, end before start, bad price, no zones) is logged, counted and skipped; it never
 * affects the rest of the feed. If a (base, record) pair appears in several good online records, the
 * last one wins and keeps the position of the first; one whose values differ from the record it
 * replaces is counted as a conflict ({@link FeedResult#conflicts()}), not logged record by record.
 *
 * <p>Element and attribute names are matched by their local part, without namespace processing (the
 * feed has no namespaces). Unknown elements are skipped with everything inside them; unknown attributes,
 * text, comments and processing instructions are ignored.
 *
 * <p>Hardening: a DOCTYPE is refused (so no entity is ever declared, expanded or fetched), external
 * entities and DTDs are off, the document is cut off past {@code maxBytes}, elements nest at most 64
 * deep and carry at most 256 attributes ({@link BoundedXmlReader}).
 *
 * <p>Memory: no tree is built and zones are not kept; what stays is one Event per event. Text and
 * CDATA reach the parser in pieces, but a single attribute value or comment is held whole, so one
 * such giant token is bounded only by {@code maxBytes} (as chars, so about twice it).
 *
 * <p>Instances are immutable and may be shared between threads.
 */
public final class FeedParser {
    /** Default bound on a feed document's size. */
    public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

    private static final System.Logger LOG = System.getLogger("dev.brisk.events.feed");
    /** The feed is five levels deep; unknown subtrees get some room, a hostile nesting does not. */
    private static final int MAX_ELEMENT_DEPTH = 64;
    /** A zone has about five attributes. */
    private static final int MAX_ATTRIBUTES = 256;

    private final long maxBytes;
    private final System.Logger log;

    public FeedParser() {
        this(DEFAULT_MAX_BYTES);
    }

    /** A parser that refuses documents of more than {@code maxBytes} bytes. */
    public FeedParser(long maxBytes) {
        this(maxBytes, LOG);
    }

    /** With the logger that bad records go to (tests). */
    FeedParser(long maxBytes, System.Logger log) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes " + maxBytes + " is negative");
        }
        this.maxBytes = maxBytes;
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Reads a whole document. Bad records are counted and skipped; a document that is not well-formed,
     * larger than the bound, or of an unknown root element throws and yields nothing. The stream is
     * read up to the end of the document (or the failure) and is not closed: its opener closes it.
     *
     * @throws FeedFormatException the document as a whole cannot be used; nothing of it may be stored
     */
    public FeedResult parse(InputStream in) throws FeedFormatException {
        return parse(in, id -> null);
    }

    /**
     * Reads a whole document as {@link #parse(InputStream)} does, keeping only the events whose values
     * differ from {@code stored}'s (or that it does not have): a poll of a large feed of known events then
     * holds one id per record while it reads, not one event per record. Counts and conflicts are as
     * without it.
     *
     * @param stored the stored event of an id, or null; called on the parsing thread
     * @throws FeedFormatException the document as a whole cannot be used; nothing of it may be stored
     */
    public FeedResult parse(InputStream in, java.util.function.Function<java.util.UUID, dev.brisk.events.Event> stored)
            throws FeedFormatException {
        SizeLimitedInputStream limited = new SizeLimitedInputStream(in, maxBytes);
        FeedBytesGuard guarded = new FeedBytesGuard(limited);
        XMLStreamReader xml = null;
        try {
            xml = new BoundedXmlReader(newFactory().createXMLStreamReader(guarded), MAX_ELEMENT_DEPTH, MAX_ATTRIBUTES);
            return new FeedDocumentReader(xml, new BadRecordLog(log), stored).read();
        } catch (XMLStreamException e) {
            if (limited.exceeded()) {
                throw new FeedFormatException("feed is larger than " + maxBytes + " bytes", e);
            }
            if (guarded.fault() != null) { // bytes Aalto would have taken: not UTF-8, or a token past the bound
                throw new FeedFormatException(guarded.fault(), e);
            }
            // bytes that are not in the document's encoding (Aalto decodes UTF-32, for one, through a
            // java.io Reader, whose errors are IOExceptions): a fault of the document, not of the read
            if (e.getNestedException() instanceof IOException io && !(io instanceof CharConversionException
                    || io instanceof CharacterCodingException)) {
                // the cause is the read's own failure: the poller counts it as one (io), not as the document's
                throw new FeedFormatException("feed could not be read after " + limited.count() + " bytes: " + io, io);
            }
            throw new FeedFormatException("feed is not well-formed XML: " + oneLine(e.getMessage()), e);
        } finally {
            close(xml);
        }
    }

    /** The size bound: a feed larger than this many bytes is refused. */
    public long maxBytes() {
        return maxBytes;
    }

    /** Reads a whole document held in memory; see {@link #parse(InputStream)}. */
    public FeedResult parse(byte[] document) throws FeedFormatException {
        return parse(new ByteArrayInputStream(document));
    }

    /**
     * A factory per document: cheap next to a feed, and XMLInputFactory does not promise thread safety.
     * Aalto (FasterXML's StAX implementation) rather than the JDK's: the poll is mostly reading the
     * feed, and Aalto reads it in well under half the time ({@code FeedReaderBenchmark} in brisk-bench). Hardening: no DTD
     * processing (a DOCTYPE is refused before the root anyway), no external entities, so only the
     * predefined entities and character references can appear, one character each; the size bound
     * is the stream's.
     */
    private static XMLInputFactory newFactory() {
        XMLInputFactory factory = new com.fasterxml.aalto.stax.InputFactoryImpl();
        // the feed uses no namespaces: names are matched as written (a prefixed root is refused as unknown)
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        // text in pieces rather than whole: a huge text or CDATA section is never held at once
        factory.setProperty(XMLInputFactory.IS_COALESCING, false);
        return factory;
    }

    private static void close(XMLStreamReader xml) {
        if (xml == null) {
            return;
        }
        try {
            xml.close(); // frees the reader; it does not close the underlying stream
        } catch (XMLStreamException e) {
            // nothing was being written; the result (or failure) stands
        }
    }

    /** Parser messages may span lines (location, then message): one line for logs. */
    private static String oneLine(String message) {
        return message == null ? "(no detail)" : message.replace('\n', ' ');
    }
}
