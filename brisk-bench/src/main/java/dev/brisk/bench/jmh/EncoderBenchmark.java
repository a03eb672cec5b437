package dev.brisk.bench.jmh;

import dev.brisk.internal.http.ResponseEncoder;
import java.nio.ByteBuffer;
import java.util.List;
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

/** Encoding a response head into a reused buffer. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class EncoderBenchmark {
    private final ByteBuffer out = ByteBuffer.allocate(16 * 1024);
    private final List<String> headers = List.of("Cache-Control", "no-store", "X-Request-Id", "4f1c2a9e");

    @Benchmark
    public int helloHead() {
        out.clear();
        ResponseEncoder.encodeHead(out, 200, "text/plain; charset=utf-8", List.of(), 13, 0);
        return out.position();
    }

    @Benchmark
    public int jsonHeadWithHeaders() {
        out.clear();
        ResponseEncoder.encodeHead(out, 200, "application/json", headers, 27, 0);
        return out.position();
    }
}
