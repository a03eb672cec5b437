package dev.brisk.events.feed;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import javax.xml.XMLConstants;
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
 * last one wins and keeps the position of the first.
 *
 * <p>Element and attribute names are matched as written, without namespace processing (the feed has
 * no namespaces). Unknown elements are skipped with everything inside them; unknown attributes,
 * text, comments and processing instructions are ignored.
 *
 * <p>Hardening: the JDK's own StAX implementation, a DOCTYPE is refused (so no entity is ever declared,
 * expanded or fetched), external entities and DTDs are off, the document is cut off past
 * {@code maxBytes}, and the JDK's element-depth and attribute-count limits are tightened.
 *
 * <p>Memory: no tree is built and zones are not kept; what stays is one Event per event. Text and
 * CDATA reach the parser in small pieces, but the JDK holds a single attribute value or comment
 * whole, so one such giant token is bounded only by {@code maxBytes} (as chars, so about twice it).
 *
 * <p>Instances are immutable and may be shared between threads.
 */
public final class FeedParser {
    /** Default bound on a feed document's size. */
    public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

    private static final System.Logger LOG = System.getLogger("dev.brisk.events.feed");
    /** The feed is five levels deep; unknown subtrees get some room, a hostile nesting does not. */
    private static final int MAX_ELEMENT_DEPTH = 64;
    /** A zone has about five attributes; the JDK's default allows 10,000. */
    private static final int MAX_ATTRIBUTES = 256;
    /** The most of a CDATA section held at once. */
    private static final int CDATA_CHUNK_CHARS = 16 * 1024;

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
        SizeLimitedInputStream limited = new SizeLimitedInputStream(in, maxBytes);
        XMLStreamReader xml = null;
        try {
            xml = newFactory().createXMLStreamReader(limited);
            return new FeedDocumentReader(xml, new BadRecordLog(log)).read();
        } catch (XMLStreamException e) {
            if (limited.exceeded()) {
                throw new FeedFormatException("feed is larger than " + maxBytes + " bytes", e);
            }
            if (e.getNestedException() instanceof IOException io) {
                throw new FeedFormatException("feed could not be read after " + limited.count() + " bytes: " + io, e);
            }
            // for a bad byte sequence the JDK also prints a "[Fatal Error]" line to stderr: its default
            // error handler, which StAX gives no way to replace; the failure is still this one
            throw new FeedFormatException("feed is not well-formed XML: " + oneLine(e.getMessage()), e);
        } finally {
            close(xml);
        }
    }

    /** Reads a whole document held in memory; see {@link #parse(InputStream)}. */
    public FeedResult parse(byte[] document) throws FeedFormatException {
        return parse(new ByteArrayInputStream(document));
    }

    /**
     * A factory per document: cheap next to a feed, and XMLInputFactory does not promise thread safety.
     * newDefaultFactory: the JDK's implementation whatever else is on the class path, since the
     * hardening below is written for it.
     */
    private static XMLInputFactory newFactory() {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        // the feed uses no namespaces: names are matched as written (a prefixed root is refused as
        // unknown), and the JDK's scanner is some 10-15% faster without namespace processing
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        // defense in depth should a DOCTYPE ever get through (it is refused before any element)
        factory.setProperty("jdk.xml.entityExpansionLimit", "1");
        factory.setProperty("jdk.xml.maxElementDepth", String.valueOf(MAX_ELEMENT_DEPTH));
        factory.setProperty("jdk.xml.elementAttributeLimit", String.valueOf(MAX_ATTRIBUTES));
        // JDK 24+ caps the characters produced by entity references per document (100,000), and a big
        // feed's &amp; / &lt; / &#...; in titles and names exceed that. With every DOCTYPE refused only
        // the predefined entities and character references exist (one character each), so lifting
        // these two caps cannot let an expansion bomb through.
        factory.setProperty("jdk.xml.maxGeneralEntitySizeLimit", "0");
        factory.setProperty("jdk.xml.totalEntitySizeLimit", "0");
        // plain text comes in buffer-sized pieces anyway; CDATA would otherwise be held whole
        factory.setProperty("jdk.xml.cdataChunkSize", String.valueOf(CDATA_CHUNK_CHARS));
        return factory;
    }

    private static void close(XMLStreamReader xml) {
        if (xml == null) {
            return;
        }
        try {
            xml.close(); // frees the reader; the JDK's does not close the underlying stream
        } catch (XMLStreamException e) {
            // nothing was being written; the result (or failure) stands
        }
    }

    /** The JDK puts "ParseError at [row,col]:[r,c]\nMessage: ..." in its messages. */
    private static String oneLine(String message) {
        return message == null ? "(no detail)" : message.replace('\n', ' ');
    }
}
