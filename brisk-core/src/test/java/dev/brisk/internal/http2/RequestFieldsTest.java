package dev.brisk.internal.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.TlsInfo;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestFieldsTest {
    private static final ExchangeOwner OWNER = new ExchangeOwner() {
        @Override public dev.brisk.internal.web.RequestBody awaitDeferredBody(Exchange exchange) { throw new UnsupportedOperationException(); }
        @Override public void complete(Exchange exchange) { }
        @Override public String remoteAddress() { return "test"; }
        @Override public TlsInfo tls() { return null; }
    };

    /** Decodes name/value pairs given as strings, as HPACK would hand them over. */
    private static RequestFields fields(boolean trailers, String... pairs) {
        RequestFields f = new RequestFields(4096, 10, 4096);
        f.reset(trailers);
        for (int i = 0; i < pairs.length; i += 2) {
            byte[] n = pairs[i].getBytes(StandardCharsets.ISO_8859_1);
            byte[] v = pairs[i + 1].getBytes(StandardCharsets.ISO_8859_1);
            byte[] padded = new byte[v.length + 4]; // offsets into a larger array, as a decoder's scratch would be
            System.arraycopy(v, 0, padded, 2, v.length);
            f.field(n, 0, n.length, padded, 2, v.length);
        }
        f.finish();
        return f;
    }

    private static String[] request(String... more) {
        String[] base = {":method", "GET", ":scheme", "https", ":authority", "example.com:8443", ":path", "/a/b?x=1&y=2"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void aValidRequestBecomesAnExchange() {
        RequestFields f = fields(false, request("user-agent", "test", "accept", "*/*", "cookie", "a=1", "cookie", "b=2"));
        assertThat(f.malformed()).isNull();
        Exchange ex = f.exchange(OWNER);
        assertThat(ex.method()).isEqualTo("GET");
        assertThat(ex.rawPath()).isEqualTo("/a/b");
        assertThat(ex.queryString()).isEqualTo("x=1&y=2");
        assertThat(ex.header("User-Agent")).isEqualTo("test");
        assertThat(ex.header("Host")).as(":authority stands for Host").isEqualTo("example.com:8443");
        assertThat(ex.headers("cookie")).containsExactly("a=1", "b=2");
        assertThat(ex.cookies()).containsEntry("a", "1").containsEntry("b", "2");
        assertThat(ex.headerNames()).containsExactly("user-agent", "accept", "cookie", "host");
    }

    @Test
    void aHostFieldIsKeptAsSentWhenItNamesWhatAuthorityNames() {
        Exchange ex = fields(false, request("host", "Example.COM:8443")).exchange(OWNER);
        assertThat(ex.headers("host")).containsExactly("Example.COM:8443");
        Exchange alone = fields(false, ":method", "GET", ":scheme", "http", ":path", "/", "host", "other").exchange(OWNER);
        assertThat(alone.headers("host")).as("host without :authority").containsExactly("other");
    }

    /**
     * Two names for the target are a request HTTP/1.1 refuses (400) and RFC 9113 8.3.1 says to treat as
     * malformed: which one a handler or a proxy in front believes is left to chance otherwise.
     */
    @Test
    void aHostThatDiffersFromAuthorityOrComesTwiceIsMalformed() {
        assertThat(fields(false, request("host", "other.example")).malformed()).isEqualTo("host differs from :authority");
        assertThat(fields(false, request("host", "example.com")).malformed()).as("the port too").isNotNull();
        assertThat(fields(false, ":method", "GET", ":scheme", "http", ":path", "/", "host", "a", "host", "a").malformed())
                .isEqualTo("more than one host field");
        assertThat(fields(false, ":method", "GET", ":scheme", "http", ":path", "/", "host", "a b").malformed())
                .isEqualTo("invalid host field");
        assertThat(fields(false, ":method", "GET", ":scheme", "http", ":path", "/x#frag").malformed())
                .as("a fragment in :path").isNotNull();
    }

    @Test
    void malformedRequests() {
        assertThat(fields(false, ":method", "GET", ":path", "/").malformed()).as("no :scheme").isNotNull();
        assertThat(fields(false, ":scheme", "http", ":path", "/").malformed()).as("no :method").isNotNull();
        assertThat(fields(false, ":method", "GET", ":scheme", "http").malformed()).as("no :path").isNotNull();
        assertThat(fields(false, request(":path", "/x")).malformed()).as("after a regular? no: duplicate :path").isNotNull();
        assertThat(fields(false, ":method", "GET", ":method", "GET", ":scheme", "http", ":path", "/").malformed())
                .as("duplicate :method").isNotNull();
        assertThat(fields(false, ":method", "GET", ":scheme", "http", ":path", "").malformed()).as("empty :path").isNotNull();
        assertThat(fields(false, ":method", "GET", ":scheme", "http", ":path", "x").malformed()).as("relative :path").isNotNull();
        assertThat(fields(false, request(":status", "200")).malformed()).as("a response pseudo-header").isNotNull();
        assertThat(fields(false, ":method", "GET", "accept", "*/*", ":scheme", "http", ":path", "/").malformed())
                .as("pseudo after regular").isNotNull();
        assertThat(fields(false, request(":protocol", "websocket")).malformed()).as("unknown pseudo").isNotNull();
        assertThat(fields(false, request("Accept", "*/*")).malformed()).as("upper case name").isNotNull();
        assertThat(fields(false, request("connection", "keep-alive")).malformed()).isNotNull();
        assertThat(fields(false, request("keep-alive", "5")).malformed()).isNotNull();
        assertThat(fields(false, request("transfer-encoding", "chunked")).malformed()).isNotNull();
        assertThat(fields(false, request("upgrade", "h2c")).malformed()).isNotNull();
        assertThat(fields(false, request("proxy-connection", "x")).malformed()).isNotNull();
        assertThat(fields(false, request("te", "gzip")).malformed()).isNotNull();
        assertThat(fields(false, request("te", "trailers")).malformed()).isNull();
        assertThat(fields(false, request("x", "a\r\nb")).malformed()).as("CRLF in a value").isNotNull();
        assertThat(fields(false, request("x", "a\u0000b")).malformed()).as("NUL in a value").isNotNull();
        assertThat(fields(false, request("x", " a")).malformed()).as("leading space").isNotNull();
        assertThat(fields(false, request("x", "a\t")).malformed()).as("trailing tab").isNotNull();
        assertThat(fields(false, request("content-length", "12a")).malformed()).isNotNull();
        assertThat(fields(false, request("content-length", "1", "content-length", "2")).malformed()).isNotNull();
        assertThat(fields(false, ":method", "GET", ":scheme", "http", ":authority", "u@h", ":path", "/").malformed())
                .as("userinfo in :authority").isNotNull();
        assertThat(fields(true, ":path", "/").malformed()).as("pseudo-header in trailers").isNotNull();
        assertThat(fields(true, "x-checksum", "abc").malformed()).isNull();
    }

    @Test
    void connectNeedsAnAuthorityAndNothingElse() {
        RequestFields f = fields(false, ":method", "CONNECT", ":authority", "example.com:443");
        assertThat(f.malformed()).isNull();
        assertThat(f.isConnect()).isTrue();
        assertThat(fields(false, ":method", "CONNECT", ":authority", "h:1", ":path", "/").malformed()).isNotNull();
    }

    @Test
    void contentLengthIsRead() {
        assertThat(fields(false, request("content-length", "42")).contentLength()).isEqualTo(42);
        assertThat(fields(false, request()).contentLength()).isEqualTo(-1);
    }

    @Test
    void tooManyOrTooLargeFieldsAreFlaggedNotMalformed() {
        String[] many = new String[24];
        for (int i = 0; i < many.length; i += 2) {
            many[i] = "x-" + i;
            many[i + 1] = "v";
        }
        RequestFields f = fields(false, request(many));
        assertThat(f.tooLarge()).isTrue();
        assertThat(fields(false, request("x-big", "v".repeat(5000))).tooLarge()).isTrue();
        assertThat(fields(false, request("x-ok", "v".repeat(3000))).tooLarge()).isFalse();
    }
}
