package dev.brisk.internal.form;

import dev.brisk.HttpException;
import dev.brisk.Multipart;
import dev.brisk.Part;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * {@link Multipart} over a {@link PartReader}: each part's content is a stream over the reader, good
 * only while the part is the current one. The handler's thread only.
 */
final class StreamedParts implements Multipart {
    private final PartReader reader;
    private final long textLimit;
    private Current current;

    /** @param textLimit the most a streamed part's {@code bytes()} and {@code text()} take ({@code form-spool-threshold}) */
    StreamedParts(PartReader reader, long textLimit) {
        this.reader = reader;
        this.textLimit = textLimit;
    }

    @Override
    public Part next() {
        if (current != null) {
            current.over = true;
            current = null;
        }
        PartHead head = reader.next();
        if (head == null) {
            return null;
        }
        current = new Current(head);
        return current;
    }

    @Override
    public Iterator<Part> iterator() {
        return new Iterator<>() {
            private Part pending;
            private boolean done;

            @Override
            public boolean hasNext() {
                if (pending == null && !done) {
                    pending = StreamedParts.this.next();
                    done = pending == null;
                }
                return pending != null;
            }

            @Override
            public Part next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no more parts");
                }
                Part p = pending;
                pending = null;
                return p;
            }
        };
    }

    /** The part the reader stands in; its stream reads through the reader until the next part is asked for. */
    private final class Current extends InputStream implements Part {
        private final PartHead head;
        boolean over;

        Current(PartHead head) {
            this.head = head;
        }

        @Override
        public String name() {
            return head.name();
        }

        @Override
        public String filename() {
            return head.filename();
        }

        @Override
        public String contentType() {
            return head.contentType();
        }

        @Override
        public String header(String name) {
            return head.header(name);
        }

        @Override
        public long size() {
            return -1;
        }

        @Override
        public InputStream content() {
            return this;
        }

        @Override
        public byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] b = new byte[8192];
            int n;
            while ((n = read(b, 0, b.length)) >= 0) {
                if (out.size() + n > textLimit) {
                    throw new HttpException.PayloadTooLarge("Part '" + head.name() + "' is larger than " + textLimit
                            + " bytes: read it with content()");
                }
                out.write(b, 0, n);
            }
            return out.toByteArray();
        }

        @Override
        public String text() {
            return head.text(bytes());
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (over) {
                throw new IllegalStateException("part '" + head.name()
                        + "' is over: its content must be read before the next part is asked for");
            }
            return reader.read(b, off, len);
        }
    }
}
