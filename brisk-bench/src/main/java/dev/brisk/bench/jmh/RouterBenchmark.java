package dev.brisk.bench.jmh;

import dev.brisk.Dispatch;
import dev.brisk.Method;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.routing.RouteMatch;
import dev.brisk.internal.routing.Router;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Route lookup in a table of 100 routes: exact hit, parameter hit, miss. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class RouterBenchmark {
    private Router router;

    @Setup
    public void setup() {
        router = new Router();
        for (int i = 0; i < 50; i++) {
            add("/api/v1/resource" + i);
            add("/api/v1/resource" + i + "/{id}/items/{item}");
        }
    }

    private void add(String template) {
        router.add(new CompiledRoute(Method.GET, template, Router.paramNames(template), ctx -> { }, Dispatch.EVENT_LOOP, false));
    }

    // as the server routes: exact paths, then the parameter trie, both from the request's bytes
    private static final byte[] EXACT = "/api/v1/resource37".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PARAM = "/api/v1/resource37/12345/items/abc".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MISS = "/api/v2/nothing/here".getBytes(StandardCharsets.US_ASCII);

    private RouteMatch route(byte[] path) {
        RouteMatch m = router.findExact(path, 0, path.length);
        return m != null ? m : router.findDynamic(path, 0, path.length);
    }

    @Benchmark
    public RouteMatch exactHit() {
        return route(EXACT);
    }

    @Benchmark
    public RouteMatch paramHit() {
        return route(PARAM);
    }

    @Benchmark
    public RouteMatch miss() {
        return route(MISS);
    }
}
