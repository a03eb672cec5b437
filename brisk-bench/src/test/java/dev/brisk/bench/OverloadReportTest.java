package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OverloadReportTest {
    private static final long T0 = 1_800_000_000_000_000L;
    private static final double[] BOUNDS = {0.0001, 0.01, 0.05, Double.POSITIVE_INFINITY};

    @Test
    void refusalsComeOutOfTheBucketsBeforeTheQuantile() {
        double[] counts = {3000, 880, 20, 0}; // 3000 immediate 503s, then the admitted requests
        assertThat(OverloadReport.bucketQuantile(BOUNDS, counts, 0.99)).as("refusals included").isEqualTo(0.01);
        double[] admitted = OverloadReport.admitted(BOUNDS, counts, 3000, 0, 0.1);
        assertThat(admitted).containsExactly(0, 880, 20, 0);
        assertThat(OverloadReport.bucketQuantile(BOUNDS, admitted, 0.99)).isEqualTo(0.05);
        // queue timeouts come out of the first bucket at or above the queue timeout, then upwards
        assertThat(OverloadReport.admitted(BOUNDS, new double[] {0, 10, 5, 7}, 0, 9, 0.02)).containsExactly(0, 10, 0, 3);
        assertThat(OverloadReport.bucketQuantile(BOUNDS, new double[] {0, 0, 0, 0}, 0.99)).isNaN();
        assertThat(OverloadReport.quantile(new double[] {3, 1, 2}, 0.5)).isEqualTo(2);
    }

    @Test
    void goodputLatencyCriteriaSeriesAndCharts(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("run.properties"), """
                work=250
                peak_rps=1000
                peak_cpu_us=700
                peak_p99_ms=60
                peak_connections=50
                peak_duration_s=12
                clients=1000
                duration_s=4
                steady_from_s=1
                configs=none,fixed
                """);
        Files.writeString(dir.resolve("environment.txt"), "date: test\n");
        writeLog(dir.resolve("raw/unloaded"), 1, 0, 3.0, 0); // p99 5 ms
        // with shedding: 900 2xx and 3000 503s a second on the server; the client sees 100 + 300 a second
        writeConfig(dir.resolve("raw/fixed"), "fixed limit 4", "BRISK_MAX_CONCURRENT_REQUESTS=4", "50", 900, 3000);
        writeLog(dir.resolve("raw/fixed"), 4, 300, 40.0, T0);
        // without: 1000 2xx a second, slow
        writeConfig(dir.resolve("raw/none"), "no shedding", "", "", 1000, 0);
        writeLog(dir.resolve("raw/none"), 4, 0, 800.0, T0);

        String criteria = OverloadReport.render(dir);

        assertThat(criteria).contains("PASS fixed limit 4: goodput 90% of peak (worst second 90%), target ≥ 80%");
        assertThat(criteria).contains("PASS fixed limit 4: p99 of admitted (2xx) 40.0 ms (worst second 40.0 ms), bound ≤ 50.0 ms");
        assertThat(criteria).contains("INFO no shedding: goodput 1,000 req/s (100% of peak), p99 of 2xx 800 ms = 160× the unloaded p99");
        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("**1,000 req/s**").contains("Unloaded p99 (h2load at a quarter of the peak): 5.0 ms");
        // server p99 from the buckets, with the 3000 immediate refusals a second taken out: 50 ms, not 10 ms
        assertThat(md).contains("| fixed limit 4 | `BRISK_MAX_CONCURRENT_REQUESTS=4` | 2,000 | 400 | 900 (90%) | 90% | 100 | 75% | 40.0 ms | 40.0 ms | ≤ 50.0 ms |");
        List<String> csv = Files.readAllLines(dir.resolve("timeseries.csv"));
        assertThat(csv).contains("fixed,2,900.0,3000.0,50.0,4,4,100,300,40.00");
        assertThat(csv.stream().filter(l -> l.startsWith("none,"))).hasSize(4);
        for (String chart : new String[] {"goodput.svg", "p99.svg", "p99-server.svg"}) {
            assertThat(Files.readString(dir.resolve(chart))).startsWith("<svg").contains("<polyline")
                    .contains("fixed limit 4").contains("no shedding");
        }
        assertThat(Files.readString(dir.resolve("goodput.svg"))).contains("peak 1,000 req/s").contains("80% of peak");
    }

    /** Scrapes once a second from T0 with {@code ok} 2xx and {@code shed} immediate 503s a second. */
    private static void writeConfig(Path raw, String label, String env, String bound, int ok, int shed) throws IOException {
        Files.createDirectories(raw);
        Files.writeString(raw.resolve("run.properties"), "label=" + label + "\nenv=" + env + "\noffered_rps=2000\nduration_s=4\n"
                + "t0_us=" + T0 + "\nqueue_timeout_ms=100\nbound_ms=" + bound + "\nbound_why=test\n");
        StringBuilder s = new StringBuilder();
        for (int k = 0; k <= 4; k++) {
            long fast = (long) k * (ok - ok / 45); // 880 of 900 within 10 ms, the rest within 50 ms
            s.append("# t_us=").append(T0 + k * 1_000_000L + 2_000).append('\n')
             .append("brisk_requests_total{status_class=\"2xx\"} ").append(k * ok).append(".0\n")
             .append("brisk_requests_total{status_class=\"5xx\"} ").append(k * shed).append(".0\n")
             .append("brisk_requests_shed_total{reason=\"concurrency-limit\"} ").append(k * shed).append(".0\n")
             .append("brisk_requests_shed_total{reason=\"queue-timeout\"} 0.0\n")
             .append("brisk_request_latency_buckets_total{le=\"0.0001\"} ").append(k * shed).append(".0\n")
             .append("brisk_request_latency_buckets_total{le=\"0.01\"} ").append(k * shed + fast).append(".0\n")
             .append("brisk_request_latency_buckets_total{le=\"0.05\"} ").append(k * (shed + ok)).append(".0\n")
             .append("brisk_request_latency_buckets_total{le=\"+Inf\"} ").append(k * (shed + ok)).append(".0\n")
             .append("brisk_requests_in_flight ").append(shed > 0 ? 4 : 0).append(".0\n")
             .append("brisk_concurrency_limit ").append(shed > 0 ? 4 : 0).append(".0\n");
        }
        Files.writeString(raw.resolve("scrapes.txt"), s.toString());
        Files.writeString(raw.resolve("h2load.txt"),
                "requests: 1 total, 1 started, 1 done, 1 succeeded, 0 failed, 0 errored, 0 timeout\n");
    }

    /**
     * An h2load log: per second, 100 2xx responses (98 in 5 ms, 2 in {@code slowMs}) and {@code shed} 503s;
     * with {@code t0} 0, a log of one second whose p99 is {@code slowMs}.
     */
    private static void writeLog(Path raw, int seconds, int shed, double slowMs, long t0) throws IOException {
        Files.createDirectories(raw);
        StringBuilder log = new StringBuilder();
        for (int k = 0; k < seconds; k++) {
            long start = (t0 == 0 ? T0 : t0) + k * 1_000_000L + 100_000;
            for (int i = 0; i < 100; i++) {
                log.append(start + i).append("\t200\t").append(i < 98 ? 5_000 : (long) (slowMs * 1000)).append('\n');
            }
            for (int i = 0; i < shed; i++) {
                log.append(start + i).append("\t503\t500\n");
            }
        }
        Files.writeString(raw.resolve("h2load.log"), log.toString());
    }
}
