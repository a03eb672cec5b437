package dev.brisk.events.feed;

import static dev.brisk.events.feed.FeedParserTest.fixtureBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Documents that must yield nothing: not well-formed, unknown, too large, or with a DOCTYPE. */
class FeedRejectionTest {
    private final FeedParser parser = new FeedParser(1 << 20, new FeedParserTest.RecordingLogger());

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "   \n",
            "garbage",
            "{\"planList\": []}",
            "<planList><output>",
            "<planList><output></planList>",
            "<planList></eventList>",
            "<planList/><planList/>",
            "<planList/>trailing",
            "<planList><output><base_plan base_plan_id=\"1\" base_plan_id=\"2\"/></output></planList>",
            "<planList><output><base_plan title=\"a & b\"/></output></planList>",
            "<planList><output><base_plan title=\"&nbsp;\"/></output></planList>",
            "<planList>\u0001</planList>",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
    })
    void notWellFormed(String xml) {
        assertThatThrownBy(() -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FeedFormatException.class)
                .hasMessageStartingWith("feed is not well-formed XML: ");
    }

    @Test
    void invalidUtf8() {
        byte[] xml = "<planList><output><base_plan title=\"?\"/></output></planList>".getBytes(StandardCharsets.UTF_8);
        int at = new String(xml, StandardCharsets.US_ASCII).indexOf('?');
        xml[at] = (byte) 0xC3; // a lead byte before '"'
        assertThatThrownBy(() -> parser.parse(xml)).isInstanceOf(FeedFormatException.class)
                .hasMessage("feed is not valid UTF-8 at byte " + (at + 1));
    }

    /**
     * UTF-8 strictly (RFC 3629), where Aalto decodes more: an overlong form of NUL, of '<' and of '/', a
     * surrogate, a code point past U+10FFFF, a lone continuation byte, a sequence cut short by the end.
     * Each once as the whole title, read whole and a byte at a time; nothing of the document is kept.
     */
    @ParameterizedTest
    @ValueSource(strings = {"C0 80", "C0 BC", "C0 AF", "E0 80 AF", "ED A0 80", "F4 90 80 80", "F8 88 80 80 80", "80",
            "E2 82"})
    void bytesThatAreNotStrictUtf8AreRefused(String hex) {
        String[] parts = hex.split(" ");
        byte[] bad = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            bad[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        byte[] head = "<planList><output><base_plan base_plan_id=\"1\" title=\"a".getBytes(StandardCharsets.US_ASCII);
        byte[] tail = "b\"/></output></planList>".getBytes(StandardCharsets.US_ASCII);
        byte[] xml = new byte[head.length + bad.length + tail.length];
        System.arraycopy(head, 0, xml, 0, head.length);
        System.arraycopy(bad, 0, xml, head.length, bad.length);
        System.arraycopy(tail, 0, xml, head.length + bad.length, tail.length);
        assertThatThrownBy(() -> parser.parse(xml)).as(hex).isInstanceOf(FeedFormatException.class)
                .hasMessageStartingWith("feed is not valid UTF-8 ");
        assertThatThrownBy(() -> parser.parse(new OneByteAtATime(xml))).as(hex + ", a byte at a time")
                .isInstanceOf(FeedFormatException.class).hasMessageStartingWith("feed is not valid UTF-8 ");
    }

    /** Valid UTF-8 at each length's edges is a title like any other; another declared encoding is not checked as UTF-8. */
    @Test
    void strictUtf8StillTakesEveryValidSequenceAndOtherEncodings() throws Exception {
        String title = "\u0080\u07ff\u0800\ud7ff\ue000\ufffd\ud800\udc00\udbff\udfff \u00e9";
        byte[] xml = ("<planList><output><base_plan base_plan_id=\"1\" title=\"" + title + "\"/></output></planList>")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(catchThrowable(() -> parser.parse(xml))).isNull();
        byte[] latin1 = ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><planList><output>"
                + "<base_plan base_plan_id=\"1\" title=\"caf\u00e9\"/></output></planList>").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(catchThrowable(() -> parser.parse(latin1))).isNull(); // E9 alone: not UTF-8, and need not be
    }

    /**
     * A tag (with its attributes) or a text longer than the guard's bound: refused as it streams, before the
     * parser holds it whole (one 200 MB attribute inside the size bound ran a 512 MiB heap out of memory),
     * also when a raw '>' (allowed in an attribute) or a '<' inside CDATA or a comment would have reset a
     * count of bytes between brackets, and in UTF-16, counted in its code units (a 0x3C byte of another
     * character is no '<').
     */
    @ParameterizedTest
    @ValueSource(strings = {"plain", "gt", "cdata", "comment", "utf16"})
    void aTokenPastTheBoundIsRefusedWhileStreaming(String kind) {
        int bound = FeedBytesGuard.MAX_TOKEN;
        String head = "<planList><output><base_plan base_plan_id=\"1\" ";
        String filler = switch (kind) {
            case "gt" -> "title=\"" + "x>".repeat(bound / 2 + 10) + "\"/>";
            case "cdata" -> "/><![CDATA[" + "x<".repeat(bound / 2 + 10) + "]]>";
            case "comment" -> "/><!--" + "x<".repeat(bound / 2 + 10) + "-->";
            case "utf16" -> "title=\"" + "\u413c".repeat(bound + 10) + "\"/>"; // UTF-16LE bytes 3C 41
            default -> "title=\"" + "x".repeat(bound + 10) + "\"/>";
        };
        byte[] xml = ((kind.equals("utf16") ? "\ufeff" : "") + head + filler + "</output></planList>").getBytes(
                kind.equals("utf16") ? StandardCharsets.UTF_16LE : StandardCharsets.UTF_8);
        FeedParser roomy = new FeedParser(64L << 20, new FeedParserTest.RecordingLogger());
        assertThatThrownBy(() -> roomy.parse(xml)).as(kind).isInstanceOf(FeedFormatException.class)
                .hasMessage("feed has a tag or text longer than " + bound + " characters");
    }

    /**
     * A DOCTYPE is refused by the reader, but only once the parser has read it: a SYSTEM literal may hold
     * '<', and one of 150 MB ran a 256 MiB heap out of memory with the guard counting from each '<'. After
     * a {@code <!} that opens no comment or CDATA nothing starts a new token.
     */
    @Test
    void aDoctypeLiteralCannotHideAGiantTokenBehindBrackets() {
        int bound = FeedBytesGuard.MAX_TOKEN;
        byte[] xml = ("<!DOCTYPE planList SYSTEM \"" + "x<".repeat(bound / 2 + 10) + "\"><planList/>")
                .getBytes(StandardCharsets.US_ASCII);
        FeedParser roomy = new FeedParser(64L << 20, new FeedParserTest.RecordingLogger());
        assertThatThrownBy(() -> roomy.parse(xml)).isInstanceOf(FeedFormatException.class)
                .hasMessage("feed has a tag or text longer than " + bound + " characters");
    }

    /** A token of exactly the bound is read; one unit more is not. */
    @Test
    void theBoundIsExact() {
        int bound = FeedBytesGuard.MAX_TOKEN;
        String tagStart = "<base_plan base_plan_id=\"1\" title=\"";
        String tagEnd = "\"/>";
        FeedParser roomy = new FeedParser(64L << 20, new FeedParserTest.RecordingLogger());
        for (int extra : new int[] {0, 1}) {
            String title = "x".repeat(bound - tagStart.length() - tagEnd.length() + extra);
            byte[] xml = ("<planList><output>" + tagStart + title + tagEnd + "</output></planList>")
                    .getBytes(StandardCharsets.US_ASCII);
            Throwable t = catchThrowable(() -> roomy.parse(xml));
            if (extra == 0) {
                assertThat(t).as("a token of exactly the bound").isNull();
            } else {
                assertThat(t).as("one unit past it").isInstanceOf(FeedFormatException.class)
                        .hasMessage("feed has a tag or text longer than " + bound + " characters");
            }
        }
    }

    /**
     * "<?xml" without white space after it is a processing instruction, not a declaration: the parser then
     * reads the document as UTF-8 whatever encoding the instruction names, so the guard checks it as such.
     * A real declaration naming another encoding (windows-1251) is that encoding's, decoded by the JDK.
     */
    @Test
    void onlyARealDeclarationNamesAnotherEncoding() throws Exception {
        byte[] head = "<?xml-x encoding=\"latin1\"?><planList><output><base_plan base_plan_id=\"1\" title=\"x"
                .getBytes(StandardCharsets.US_ASCII);
        byte[] tail = "y\"/></output></planList>".getBytes(StandardCharsets.US_ASCII);
        byte[] fake = new byte[head.length + 2 + tail.length];
        System.arraycopy(head, 0, fake, 0, head.length);
        fake[head.length] = (byte) 0xC0;
        fake[head.length + 1] = (byte) 0x80;
        System.arraycopy(tail, 0, fake, head.length + 2, tail.length);
        assertThatThrownBy(() -> parser.parse(fake)).isInstanceOf(FeedFormatException.class)
                .hasMessageStartingWith("feed is not valid UTF-8 ");
        byte[] cyrillic = ("<?xml version=\"1.0\" encoding=\"windows-1251\"?><planList><output>"
                + "<base_plan base_plan_id=\"1\" title=\"\u041c\u043e\u0441\u043a\u0432\u0430\"/></output></planList>")
                .getBytes(java.nio.charset.Charset.forName("windows-1251"));
        assertThat(catchThrowable(() -> parser.parse(cyrillic))).isNull();
    }

    /** Under the bound, comments and CDATA with '<' in them, raw '>' in values, and UTF-16 are read as before. */
    @Test
    void tokensUnderTheBoundAndMarkupThatHidesBracketsAreRead() throws Exception {
        int bound = FeedBytesGuard.MAX_TOKEN;
        FeedParser roomy = new FeedParser(64L << 20, new FeedParserTest.RecordingLogger());
        String fits = "<planList><!-- a <comment> --><?pi <x>?><output><base_plan base_plan_id=\"1\" title=\""
                + "x".repeat(bound - 200) + "\" note=\"a>b\"/><![CDATA[ <not a tag> ]]></output></planList>";
        assertThat(catchThrowable(() -> roomy.parse(fits.getBytes(StandardCharsets.UTF_8)))).isNull();
        byte[] utf16 = ("\ufeff<planList><output><base_plan base_plan_id=\"1\" title=\"\u413c\u413c\"/>"
                + "</output></planList>").getBytes(StandardCharsets.UTF_16LE);
        assertThat(catchThrowable(() -> roomy.parse(utf16))).isNull();
    }

    /**
     * The parser reads encoding names loosely ({@code UTF_8} and {@code csUTF8} are UTF-8 to it): under any
     * name not known to be a single-byte encoding the bytes are checked as UTF-8.
     */
    @ParameterizedTest
    @ValueSource(strings = {"UTF-8", "utf8", "UTF_8", "csUTF8", " Utf-8 "})
    void everySpellingOfUtf8IsCheckedStrictly(String name) {
        byte[] head = ("<?xml version=\"1.0\" encoding=\"" + name.strip() + "\"?><planList><output>"
                + "<base_plan base_plan_id=\"1\" title=\"a").getBytes(StandardCharsets.US_ASCII);
        byte[] tail = "b\"/></output></planList>".getBytes(StandardCharsets.US_ASCII);
        byte[] xml = new byte[head.length + 2 + tail.length];
        System.arraycopy(head, 0, xml, 0, head.length);
        xml[head.length] = (byte) 0xC0;
        xml[head.length + 1] = (byte) 0x80; // an overlong NUL
        System.arraycopy(tail, 0, xml, head.length + 2, tail.length);
        assertThatThrownBy(() -> parser.parse(xml)).as(name).isInstanceOf(FeedFormatException.class)
                .hasMessageStartingWith("feed is not valid UTF-8 ");
    }

    /** An input stream that gives one byte per read, as a slow provider's pieces arrive. */
    private static final class OneByteAtATime extends java.io.InputStream {
        private final byte[] bytes;
        private int at;

        OneByteAtATime(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() {
            return at < bytes.length ? bytes[at++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            int c = read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            return 1;
        }
    }

    /**
     * Bytes outside the document's encoding are a fault of the document, not of the read, in every encoding:
     * Aalto decodes UTF-32 through a java.io Reader whose errors are IOExceptions (found by FeedReaderFuzzTest,
     * whose kept input read whole was "could not be read", read in pieces "not well-formed").
     */
    @Test
    void invalidUtf32IsNotWellFormedRatherThanUnreadable() {
        byte[] start = "<planList>".getBytes(Charset.forName("UTF-32LE"));
        byte[] end = "</planList>".getBytes(Charset.forName("UTF-32LE"));
        byte[] xml = new byte[start.length + 4 + end.length];
        System.arraycopy(start, 0, xml, 0, start.length);
        xml[start.length + 2] = 0x11; // U+110000: above the last code point
        System.arraycopy(end, 0, xml, start.length + 4, end.length);
        assertThatThrownBy(() -> parser.parse(xml)).isInstanceOf(FeedFormatException.class)
                .hasMessageStartingWith("feed is not well-formed XML: ")
                .hasMessageContaining("UTF-32");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<rss><channel/></rss>", "<plans/>", "<output><base_plan/></output>",
            "<PlanList/>", "<p:other xmlns:p=\"urn:x\"/>"})
    void unknownRoot(String xml) {
        assertThatThrownBy(() -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FeedFormatException.class)
                .hasMessageStartingWith("unknown feed root element <'")
                .hasMessageContaining("expected <planList> or <eventList>");
    }

    /**
     * A truncated download must never pass for a shorter feed: every cut before the root's end throws.
     * Every offset of the smallest fixture, every 7th and the last 40 of the others (test time).
     */
    @Test
    void everyTruncationThrows() throws Exception {
        for (String name : new String[] {"event-list.xml", "plan-list.xml", "bad-records.xml"}) {
            byte[] full = fixtureBytes(name);
            String text = new String(full, StandardCharsets.UTF_8);
            String rootEnd = name.startsWith("event") ? "</eventList>" : "</planList>";
            int complete = text.lastIndexOf(rootEnd) + rootEnd.length(); // the fixtures are ASCII
            int stride = name.startsWith("event") ? 1 : 7;
            for (int cut = 0; cut < full.length; cut += cut >= complete - 40 ? 1 : stride) {
                byte[] prefix = Arrays.copyOf(full, cut);
                if (cut < complete) {
                    assertThat(catchThrowable(() -> parser.parse(prefix))).as("%s cut at %d", name, cut)
                            .isInstanceOf(FeedFormatException.class);
                } else {
                    assertThat(parser.parse(prefix).events()).as("%s cut at %d", name, cut).isNotEmpty();
                }
            }
        }
    }

    /** Random bytes and random corruptions of a fixture either parse or throw FeedFormatException. */
    @Test
    void garbageOnlyEverThrowsFeedFormatException() throws Exception {
        Random random = new Random(42);
        byte[] fixture = fixtureBytes("plan-list.xml");
        for (int i = 0; i < 600; i++) {
            byte[] input;
            if (i % 2 == 0) {
                input = new byte[random.nextInt(200)];
                random.nextBytes(input);
            } else {
                input = fixture.clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    input[random.nextInt(input.length)] = (byte) random.nextInt(256);
                }
            }
            try {
                parser.parse(input);
            } catch (FeedFormatException expected) {
                // fine: the other outcome
            }
        }
    }

    @Test
    void sizeBoundIsEnforcedWhileStreaming() throws Exception {
        byte[] xml = fixtureBytes("plan-list.xml");

        assertThat(new FeedParser(xml.length).parse(xml).events()).hasSize(4);
        assertThatThrownBy(() -> new FeedParser(xml.length - 1).parse(xml))
                .isInstanceOf(FeedFormatException.class)
                .hasMessage("feed is larger than " + (xml.length - 1) + " bytes");
        assertThatThrownBy(() -> new FeedParser(100).parse(xml))
                .isInstanceOf(FeedFormatException.class)
                .hasMessage("feed is larger than 100 bytes");
    }

    @Test
    void anEndlessFeedIsCutOffAtTheBound() {
        InputStream endless = new InputStream() {
            private final byte[] head = "<planList><output>".getBytes(StandardCharsets.US_ASCII);
            private long position;

            @Override
            public int read() {
                return position < head.length ? head[(int) position++] : (position++ % 2 == 0 ? ' ' : '\n');
            }
        };

        assertThatThrownBy(() -> new FeedParser(64 * 1024).parse(endless))
                .isInstanceOf(FeedFormatException.class)
                .hasMessage("feed is larger than 65536 bytes");
    }

    @Test
    void aFailingStreamIsReportedAsSuch() {
        InputStream failing = new InputStream() {
            private int left = 30;

            @Override
            public int read() throws IOException {
                if (left == 0) {
                    throw new IOException("connection reset");
                }
                left--;
                return ' ';
            }
        };

        assertThatThrownBy(() -> parser.parse(failing))
                .isInstanceOf(FeedFormatException.class)
                .hasMessageContaining("could not be read")
                .hasMessageContaining("connection reset");
    }

    @Test
    void deepNestingIsRefused() {
        String xml = "<planList>" + "<x>".repeat(100) + "</x>".repeat(100) + "</planList>";
        assertThatThrownBy(() -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FeedFormatException.class)
                .hasMessageContaining("nested deeper than 64");
    }

    @Test
    void tooManyAttributesAreRefused() {
        StringBuilder attributes = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            attributes.append(" a").append(i).append("=\"1\"");
        }
        String xml = "<planList><output><base_plan" + attributes + "/></output></planList>";
        assertThatThrownBy(() -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FeedFormatException.class)
                .hasMessageContaining("more than 256 attributes");
    }

    // --- DOCTYPE: refused in every form, before anything in it is used ---

    @Test
    void anyDoctypeIsRefused() {
        String xml = "<?xml version=\"1.0\"?><!DOCTYPE planList><planList/>";
        assertThatThrownBy(() -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FeedFormatException.class)
                .hasMessage("feed has a DOCTYPE: not accepted");
    }

    @Test
    void billionLaughsIsRefusedQuickly() {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE planList [\n")
                .append(" <!ENTITY lol0 \"lol\">\n");
        for (int i = 1; i <= 9; i++) {
            String previous = "&lol" + (i - 1) + ";";
            xml.append(" <!ENTITY lol").append(i).append(" \"").append(previous.repeat(10)).append("\">\n");
        }
        xml.append("]>\n<planList><output><base_plan base_plan_id=\"1\" sell_mode=\"online\" title=\"&lol9;\">")
                .append("<plan plan_id=\"1\" plan_start_date=\"2021-01-01T00:00:00\" plan_end_date=\"2021-01-01T00:00:00\">")
                .append("<zone price=\"1\"/></plan></base_plan></output></planList>");

        assertTimeoutPreemptively(Duration.ofSeconds(5), () ->
                assertThatThrownBy(() -> parser.parse(xml.toString().getBytes(StandardCharsets.UTF_8)))
                        .isInstanceOf(FeedFormatException.class)
                        .hasMessage("feed has a DOCTYPE: not accepted"));
    }

    @Test
    void externalEntityIsNeverRead(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, "TOP-SECRET-MARKER");
        String xml = "<?xml version=\"1.0\"?><!DOCTYPE planList [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
                + "<planList><output><base_plan base_plan_id=\"1\" sell_mode=\"online\" title=\"t\">"
                + "<plan plan_id=\"&x;\" plan_start_date=\"2021-01-01T00:00:00\" plan_end_date=\"2021-01-01T00:00:00\">"
                + "<zone price=\"1\"/></plan></base_plan></output></planList>";

        Throwable thrown = catchThrowable(() -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)));

        assertThat(thrown).isInstanceOf(FeedFormatException.class).hasMessage("feed has a DOCTYPE: not accepted");
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).doesNotContain("TOP-SECRET-MARKER");
        }
    }

    @Test
    void passwdXxeIsRefused() {
        String xml = "<!DOCTYPE planList [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><planList>&x;</planList>";
        assertThatThrownBy(() -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FeedFormatException.class)
                .hasMessage("feed has a DOCTYPE: not accepted");
    }

    /** Neither an external DTD nor an external parameter entity is fetched: nothing connects to the server. */
    @ParameterizedTest
    @ValueSource(strings = {
            "<!DOCTYPE planList SYSTEM \"http://127.0.0.1:PORT/feed.dtd\"><planList/>",
            "<!DOCTYPE planList [<!ENTITY % p SYSTEM \"http://127.0.0.1:PORT/p.dtd\"> %p;]><planList/>",
            "<!DOCTYPE planList [<!ENTITY x SYSTEM \"http://127.0.0.1:PORT/x\">]><planList>&x;</planList>",
    })
    void nothingIsFetched(String template) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String xml = template.replace("PORT", String.valueOf(server.getLocalPort()));

            assertThatThrownBy(() -> parser.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))))
                    .isInstanceOf(FeedFormatException.class)
                    .hasMessage("feed has a DOCTYPE: not accepted");

            server.setSoTimeout(300);
            assertThatThrownBy(server::accept).isInstanceOf(SocketTimeoutException.class);
        }
    }
}
