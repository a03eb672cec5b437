package dev.brisk.internal.form;

import dev.brisk.HttpException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * The head of one multipart part: its header fields, and from its {@code Content-Disposition} the
 * field's name and file name. Parsed strictly: every line ends with CRLF, names are tokens, values
 * hold no control characters but tab, folded lines are refused, the value bytes are UTF-8 (browsers
 * send file names so); the disposition must be {@code form-data} with a {@code name}, given once. A
 * fault is a 400, a block over the limit a 413. Immutable once parsed; any thread.
 */
final class PartHead {
    private final String name;
    private final String filename;
    private final String contentType;
    private final String[] fields; // name, value, name, value...

    private PartHead(String name, String filename, String contentType, String[] fields) {
        this.name = name;
        this.filename = filename;
        this.contentType = contentType;
        this.fields = fields;
    }

    String name() {
        return name;
    }

    String filename() {
        return filename;
    }

    String contentType() {
        return contentType;
    }

    /**
     * The part's content {@code bytes} as text, in its {@code Content-Type}'s charset, else UTF-8;
     * bytes not valid in it are a 400 naming the part, never a replacement character (as a urlencoded
     * form's). An unknown or unsupported charset is the same {@link dev.brisk.Context#charsetOf} fallback.
     */
    String text(byte[] bytes) {
        java.nio.charset.Charset cs = dev.brisk.Context.charsetOf(contentType, StandardCharsets.UTF_8);
        try {
            return cs.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new HttpException.BadRequest("Form part \"" + name + "\" is not valid " + cs.name());
        }
    }

    /** {@return what this head holds of the heap, roughly, with its part's share of the records holding it} */
    long heapCost(FormMemory memory) {
        long c = FormMemory.ENTRY + 16 + 4L * fields.length + memory.cost(name)
                + (filename == null ? 0 : memory.cost(filename));
        for (String f : fields) {
            c += memory.cost(f);
        }
        return c;
    }

    String header(String n) {
        for (int i = 0; i < fields.length; i += 2) {
            if (fields[i].equalsIgnoreCase(n)) {
                return fields[i + 1];
            }
        }
        return null;
    }

    /**
     * Reads a header block up to and including its empty line.
     *
     * @param in the next byte of the body (it throws 400 at the body's end)
     * @param max the most bytes the block may have, its CRLFs included
     */
    static PartHead parse(IntSupplier in, int max) {
        List<String> fields = new ArrayList<>(4);
        byte[] line = new byte[128];
        int used = 0;
        while (true) {
            int n = 0;
            while (true) {
                int c = in.getAsInt();
                if (++used > max) {
                    throw new HttpException.PayloadTooLarge("Part headers are larger than " + max + " bytes");
                }
                if (c == '\r') {
                    if (in.getAsInt() != '\n') {
                        throw PartReader.malformed("a CR in part headers is not followed by LF");
                    }
                    if (++used > max) {
                        throw new HttpException.PayloadTooLarge("Part headers are larger than " + max + " bytes");
                    }
                    break;
                }
                if (c == '\n') {
                    throw PartReader.malformed("a part header line ends with a bare LF");
                }
                if (n == line.length) {
                    line = Arrays.copyOf(line, n * 2);
                }
                line[n++] = (byte) c;
            }
            if (n == 0) {
                break;
            }
            field(line, n, fields);
        }
        String disposition = null;
        String contentType = null;
        for (int i = 0; i < fields.size(); i += 2) {
            String f = fields.get(i);
            if (f.equalsIgnoreCase("Content-Disposition")) {
                if (disposition != null) {
                    throw PartReader.malformed("a part has two Content-Disposition headers");
                }
                disposition = fields.get(i + 1);
            } else if (f.equalsIgnoreCase("Content-Type")) {
                if (contentType != null) {
                    throw PartReader.malformed("a part has two Content-Type headers");
                }
                contentType = fields.get(i + 1);
            }
        }
        if (disposition == null) {
            throw PartReader.malformed("a part has no Content-Disposition header");
        }
        String[] nameAndFile = Disposition.formData(disposition);
        return new PartHead(nameAndFile[0], nameAndFile[1], contentType, fields.toArray(String[]::new));
    }

    /** Splits one header line into a token name and its value, OWS trimmed. */
    private static void field(byte[] line, int n, List<String> out) {
        if (line[0] == ' ' || line[0] == '\t') {
            throw PartReader.malformed("folded part header lines are not allowed");
        }
        int colon = 0;
        while (colon < n && line[colon] != ':') {
            if (!Disposition.isTchar(line[colon])) {
                throw PartReader.malformed("a part header name is not a token");
            }
            colon++;
        }
        if (colon == n || colon == 0) {
            throw PartReader.malformed("a part header line has no name and colon");
        }
        int from = colon + 1;
        int to = n;
        while (from < to && (line[from] == ' ' || line[from] == '\t')) {
            from++;
        }
        while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\t')) {
            to--;
        }
        for (int i = from; i < to; i++) {
            int c = line[i] & 0xff;
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw PartReader.malformed("a part header value holds a control character");
            }
        }
        out.add(new String(line, 0, colon, StandardCharsets.ISO_8859_1));
        try {
            out.add(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line, from, to - from))
                    .toString());
        } catch (CharacterCodingException e) {
            throw PartReader.malformed("a part header value is not UTF-8");
        }
    }
}
