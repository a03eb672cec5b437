import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Narrow searches at a steady pace, for bench/events-search-bounds.sh: one one-day {@code /search}
 * every INTERVAL ms for SECONDS, rotating through thirty days from 2021-06-01, on one kept-alive
 * connection; prints {@code n p50_ms p99_ms max_ms non200}. Latency runs from when a request was due,
 * not from when it was sent, so a stalled server is not hidden by requests that were never sent
 * (coordinated omission). A first pass over the thirty days is a warm-up, not counted.
 *
 * <p>Usage: {@code java bench/SearchProbe.java http://127.0.0.1:18080 SECONDS INTERVAL-MS}
 */
public final class SearchProbe {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: SearchProbe BASE-URL SECONDS INTERVAL-MS");
            System.exit(2);
        }
        String base = args[0];
        long seconds = Long.parseLong(args[1]);
        long interval = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[2]));
        URI[] days = new URI[30];
        for (int i = 0; i < days.length; i++) {
            String d = LocalDate.of(2021, 6, 1).plusDays(i).toString();
            days[i] = URI.create(base + "/search?starts_at=" + d + "T00:00:00&ends_at=" + d + "T23:59:59");
        }
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            for (URI day : days) {
                client.send(HttpRequest.newBuilder(day).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.discarding());
            }
            int max = (int) Math.min(10_000_000, TimeUnit.SECONDS.toNanos(seconds) / interval + 1);
            long[] nanos = new long[max];
            int n = 0;
            int bad = 0;
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            long due = start;
            while (due < end && n < max) {
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait); // pacing: the next request's due time, not a condition
                }
                HttpResponse<Void> r;
                try {
                    r = client.send(HttpRequest.newBuilder(days[n % days.length]).timeout(Duration.ofSeconds(30)).build(),
                            HttpResponse.BodyHandlers.discarding());
                    if (r.statusCode() != 200) {
                        bad++;
                    }
                } catch (java.io.IOException e) {
                    bad++;
                }
                nanos[n++] = System.nanoTime() - due;
                due += interval;
            }
            long[] sorted = Arrays.copyOf(nanos, n);
            Arrays.sort(sorted);
            System.out.printf("%d %.1f %.1f %.1f %d%n", n, ms(sorted, 0.50), ms(sorted, 0.99),
                    n == 0 ? 0.0 : sorted[n - 1] / 1e6, bad);
        }
    }

    /** The q-quantile (nearest rank) in milliseconds. */
    private static double ms(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, rank - 1)] / 1e6;
    }
}
