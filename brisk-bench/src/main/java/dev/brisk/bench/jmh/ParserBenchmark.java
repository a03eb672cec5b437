package dev.brisk.bench.jmh;

import dev.brisk.internal.http.BodyBuffer;
import dev.brisk.internal.http.ChunkedDecoder;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.RequestParser;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The request-head parser and the chunked decoder on typical requests. Run with {@code -prof gc} for B/op. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ParserBenchmark {
    private static final byte[] SMALL_GET = ascii("GET /hello HTTP/1.1\r\nHost: localhost:8080\r\n\r\n");

    private static final byte[] BROWSER_GET = ascii("GET /users/42?active=true&sort=name HTTP/1.1\r\n"
            + "Host: www.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
            + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
            + "Accept-Language: en-US,en;q=0.5\r\n"
            + "Accept-Encoding: gzip, deflate, br, zstd\r\n"
            + "Referer: https://www.example.com/users\r\n"
            + "Connection: keep-alive\r\n"
            + "Cookie: session=8f14e45fceea167a5a36dedd4bea2543; theme=dark; lang=en\r\n"
            + "Upgrade-Insecure-Requests: 1\r\n"
            + "Sec-Fetch-Dest: document\r\n"
            + "Sec-Fetch-Mode: navigate\r\n"
            + "Sec-Fetch-Site: same-origin\r\n"
            + "Sec-Fetch-User: ?1\r\n"
            + "Priority: u=0, i\r\n"
            + "Pragma: no-cache\r\n"
            + "Cache-Control: no-cache\r\n"
            + "DNT: 1\r\n"
            + "Sec-GPC: 1\r\n"
            + "If-None-Match: \"abc123\"\r\n"
            + "X-Requested-With: XMLHttpRequest\r\n"
            + "\r\n");

    private static final byte[] CHUNKED_POST = ascii("POST /echo HTTP/1.1\r\nHost: localhost\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "1a\r\n{\"name\":\"brisk\",\"fast\":tru\r\n"
            + "2;ext=1\r\ne}\r\n"
            + "0\r\n\r\n");

    private final RequestParser parser = new RequestParser(8192, 16384, 100, 10 << 20);

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Benchmark
    public int smallGet() throws HttpParseException {
        parser.reset();
        parser.parse(SMALL_GET, 0, SMALL_GET.length);
        return parser.headEnd();
    }

    @Benchmark
    public int browserGet20Headers() throws HttpParseException {
        parser.reset();
        parser.parse(BROWSER_GET, 0, BROWSER_GET.length);
        return parser.headEnd();
    }

    @Benchmark
    public int chunkedPost() throws HttpParseException {
        parser.reset();
        parser.parse(CHUNKED_POST, 0, CHUNKED_POST.length);
        ChunkedDecoder decoder = new ChunkedDecoder(256, 16384);
        BodyBuffer body = new BodyBuffer(10 << 20, 64);
        int end = decoder.decode(CHUNKED_POST, parser.headEnd(), CHUNKED_POST.length, body);
        return end + body.size();
    }
}
