package dev.brisk.events.feed;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;

/**
 * Bounds what one document may make the reader hold beyond its size: element nesting depth and
 * attributes per element (the StAX implementation has no such limits of its own).
 */
final class BoundedXmlReader extends StreamReaderDelegate {
    private final int maxDepth;
    private final int maxAttributes;
    private int depth;

    BoundedXmlReader(XMLStreamReader reader, int maxDepth, int maxAttributes) {
        super(reader);
        this.maxDepth = maxDepth;
        this.maxAttributes = maxAttributes;
    }

    @Override
    public int next() throws XMLStreamException {
        int event = super.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
            if (++depth > maxDepth) {
                throw new XMLStreamException("elements nested deeper than " + maxDepth, getLocation());
            }
            if (getAttributeCount() > maxAttributes) {
                throw new XMLStreamException("element <" + getLocalName() + "> has more than " + maxAttributes
                        + " attributes", getLocation());
            }
        } else if (event == XMLStreamConstants.END_ELEMENT) {
            depth--;
        }
        return event;
    }

    @Override
    public int nextTag() throws XMLStreamException {
        // through next(), so the bounds hold whichever way the reader is driven
        int event = next();
        while (event == XMLStreamConstants.CHARACTERS && isWhiteSpace()
                || event == XMLStreamConstants.SPACE || event == XMLStreamConstants.COMMENT
                || event == XMLStreamConstants.PROCESSING_INSTRUCTION) {
            event = next();
        }
        if (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT) {
            throw new XMLStreamException("expected a start or end tag", getLocation());
        }
        return event;
    }
}
