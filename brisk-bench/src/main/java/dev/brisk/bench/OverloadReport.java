package dev.brisk.bench;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns an overload run ({@code bench/overload.sh}) into {@code timeseries.csv}, {@code report.md} and line
 * charts over time, and prints the pass/fail lines.
 *
 * <p>Input, in the run's directory: {@code run.properties} (peak goodput, work per request, duration, steady
 * window, the configurations in order), {@code environment.txt}, and per configuration {@code raw/<name>/}:
 * {@code run.properties} (its server settings, offered rate, start time, latency bound), {@code scrapes.txt}
 * (the server's {@code brisk_*} Prometheus lines, each scrape after a {@code # t_us=<epoch µs>} line),
 * {@code h2load.log} (one request a line: start in epoch µs, status, µs to the end of the response) and
 * {@code h2load.txt} (h2load's summary). {@code raw/unloaded/h2load.log} is the baseline at a light load.
 *
 * <p>Two views of every second: the server's, from the deltas of its counters between scrapes (2xx
 * responses, 503s from shedding, and a p99 from the latency buckets, which are 100 µs … 10 s about 2–2.5×
 * apart, so that p99 is a bucket's upper bound); and the client's, exact, from h2load's per-request log,
 * binned by when each response ended. The engine's latency buckets time every response, refusals included:
 * the immediate ones ({@code concurrency-limit}) are taken out of the fastest buckets and queue timeouts out
 * of the first bucket at or above the queue timeout, which leaves the admitted requests.
 */
public final class OverloadReport {
    /** With shedding, the goodput must stay at least this fraction of the peak. */
    static final double GOODPUT_TARGET = 0.80;

    private static final Pattern REQUESTS = Pattern.compile(
            "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout");

    private OverloadReport() {
    }

    /** One scrape: when, and every {@code brisk_*} sample by its exposition key ({@code name{labels}}). */
    record Scrape(long tUs, Map<String, Double> samples) {
        /** The sum of the samples of metric {@code name} whose labels contain {@code label} (empty: any). */
        double sum(String name, String label) {
            double s = 0;
            for (var e : samples.entrySet()) {
                String key = e.getKey();
                int brace = key.indexOf('{');
                String n = brace < 0 ? key : key.substring(0, brace);
                if (n.equals(name) && (label.isEmpty() || key.contains(label))) {
                    s += e.getValue();
                }
            }
            return s;
        }

        /**
         * Latency bucket bounds in seconds (ascending, +Inf last) and their cumulative counts. A scrape reads
         * the buckets one after the other while requests complete, so a later-read bucket can be ahead of a
         * wider one read earlier: the counts are made monotone (a running maximum; off by the few requests
         * that completed during the scrape).
         */
        double[][] buckets() {
            TreeMap<Double, Double> byLe = new TreeMap<>();
            for (var e : samples.entrySet()) {
                String key = e.getKey();
                if (key.startsWith("brisk_request_latency_buckets_total{")) {
                    int i = key.indexOf("le=\"") + 4;
                    String le = key.substring(i, key.indexOf('"', i));
                    byLe.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), e.getValue(), Double::sum);
                }
            }
            double[][] b = new double[2][byLe.size()];
            int k = 0;
            for (var e : byLe.entrySet()) {
                b[0][k] = e.getKey();
                b[1][k] = k == 0 ? e.getValue() : Math.max(e.getValue(), b[1][k - 1]);
                k++;
            }
            return b;
        }
    }

    /** The server between two scrapes, labelled with the second (since the start) at which it ended. */
    record Interval(int second, double seconds, double ok, double shed, double shedLimit, double shedTimeout,
                    double[] bounds, double[] counts, double inFlight, double limit) {
    }

    /** One line of h2load's log. */
    record Sample(long startUs, int status, long latencyUs) {
    }

    static List<Scrape> readScrapes(Path file) throws IOException {
        List<Scrape> scrapes = new ArrayList<>();
        if (!Files.exists(file)) {
            return scrapes;
        }
        long t = -1;
        Map<String, Double> samples = null;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("# t_us=")) {
                if (samples != null && !samples.isEmpty()) {
                    scrapes.add(new Scrape(t, samples));
                }
                t = Long.parseLong(line.substring(7).trim());
                samples = new LinkedHashMap<>();
            } else if (samples != null && line.startsWith("brisk_")) {
                int space = line.lastIndexOf(' ');
                try {
                    samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
                } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                    // a scrape cut short: skip the line
                }
            }
        }
        if (samples != null && !samples.isEmpty()) {
            scrapes.add(new Scrape(t, samples));
        }
        return scrapes;
    }

    static List<Interval> intervals(List<Scrape> scrapes, long t0Us) {
        List<Interval> out = new ArrayList<>();
        for (int i = 1; i < scrapes.size(); i++) {
            Scrape a = scrapes.get(i - 1);
            Scrape b = scrapes.get(i);
            double[][] ba = a.buckets();
            double[][] bb = b.buckets();
            // cumulative counts of this interval, then per bucket
            double[] counts = new double[bb[0].length];
            double below = 0;
            for (int k = 0; k < counts.length; k++) {
                double cumulative = Math.max(below, bb[1][k] - (k < ba[1].length ? ba[1][k] : 0));
                counts[k] = cumulative - below;
                below = cumulative;
            }
            out.add(new Interval((int) Math.round((b.tUs() - t0Us) / 1e6), (b.tUs() - a.tUs()) / 1e6,
                    delta(a, b, "brisk_requests_total", "status_class=\"2xx\""),
                    delta(a, b, "brisk_requests_shed_total", ""),
                    delta(a, b, "brisk_requests_shed_total", "reason=\"concurrency-limit\""),
                    delta(a, b, "brisk_requests_shed_total", "reason=\"queue-timeout\""),
                    bb[0], counts, b.sum("brisk_requests_in_flight", ""), b.sum("brisk_concurrency_limit", "")));
        }
        return out;
    }

    private static double delta(Scrape a, Scrape b, String name, String label) {
        return b.sum(name, label) - a.sum(name, label);
    }

    /**
     * The latency counts of admitted requests: {@code counts} less the immediate refusals (from the fastest
     * buckets up) and the queue timeouts (from the first bucket at or above {@code queueTimeoutS} up).
     */
    static double[] admitted(double[] bounds, double[] counts, double refused, double timedOut, double queueTimeoutS) {
        double[] c = counts.clone();
        take(c, 0, refused);
        int from = 0;
        while (from < bounds.length - 1 && bounds[from] < queueTimeoutS) {
            from++;
        }
        take(c, from, timedOut);
        return c;
    }

    private static void take(double[] c, int from, double n) {
        for (int i = from; i < c.length && n > 0; i++) {
            double t = Math.min(c[i], n);
            c[i] -= t;
            n -= t;
        }
    }

    /** The upper bound of the bucket holding quantile {@code q}, in seconds (+Inf past the last bound; NaN when empty). */
    static double bucketQuantile(double[] bounds, double[] counts, double q) {
        double n = Arrays.stream(counts).sum();
        if (n < 1) {
            return Double.NaN;
        }
        double target = Math.ceil(q * n);
        double cumulative = 0;
        for (int i = 0; i < counts.length; i++) {
            cumulative += counts[i];
            if (cumulative >= target) {
                return bounds[i];
            }
        }
        return bounds[bounds.length - 1];
    }

    static List<Sample> readLog(Path file) throws IOException {
        List<Sample> samples = new ArrayList<>();
        if (!Files.exists(file)) {
            return samples;
        }
        try (var lines = Files.lines(file)) {
            lines.forEach(line -> {
                String[] f = line.split("\t");
                if (f.length >= 3) {
                    samples.add(new Sample(Long.parseLong(f[0].trim()), Integer.parseInt(f[1].trim()), Long.parseLong(f[2].trim())));
                }
            });
        }
        return samples;
    }

    /** The exact quantile {@code q} of {@code values} (nearest rank), or NaN when there are none. */
    static double quantile(double[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int rank = (int) Math.ceil(q * v.length);
        return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
    }

    /** Latencies (ms) of the 2xx responses among {@code samples}. */
    static double[] okLatenciesMs(List<Sample> samples) {
        return samples.stream().filter(s -> s.status() / 100 == 2).mapToDouble(s -> s.latencyUs() / 1000.0).toArray();
    }

    /** The second (since {@code t0Us}) in which a response ended: 1 for (0, 1 s], and so on. */
    static int secondOf(Sample s, long t0Us) {
        return (int) Math.ceil((s.startUs() + s.latencyUs() - t0Us) / 1e6);
    }

    static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        if (Files.exists(file)) {
            try (Reader r = Files.newBufferedReader(file)) {
                p.load(r);
            }
        }
        return p;
    }

    private static double num(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null || v.isBlank() ? Double.NaN : Double.parseDouble(v.trim());
    }

    private static String fmt(String format, double v) {
        return Double.isNaN(v) ? "–" : Double.isInfinite(v) ? "> 10 s" : String.format(Locale.ROOT, format, v);
    }

    /** Writes the report of the run in directory {@code args[0]} and prints its pass/fail lines. */
    public static void main(String[] args) throws IOException {
        System.out.print(render(Path.of(args[0])));
    }

    /** Writes report.md, timeseries.csv and the charts; returns the criteria lines (PASS, FAIL, INFO). */
    static String render(Path dir) throws IOException {
        Properties run = load(dir.resolve("run.properties"));
        double peak = num(run, "peak_rps");
        int duration = (int) num(run, "duration_s");
        int steadyFrom = (int) num(run, "steady_from_s");
        String[] configs = run.getProperty("configs", "").split(",");
        double unloadedP99 = quantile(okLatenciesMs(readLog(dir.resolve("raw/unloaded/h2load.log"))), 0.99);

        StringBuilder csv = new StringBuilder("config,second,server_2xx_per_s,server_shed_per_s,server_p99_admitted_ms,"
                + "in_flight,concurrency_limit,client_2xx_per_s,client_503_per_s,client_p99_2xx_ms\n");
        StringBuilder table = new StringBuilder();
        StringBuilder criteria = new StringBuilder();
        List<LineChart.Series> goodputLines = new ArrayList<>();
        List<LineChart.Series> p99Lines = new ArrayList<>();
        List<LineChart.Series> serverP99Lines = new ArrayList<>();
        for (String name : configs) {
            if (name.isBlank()) {
                continue;
            }
            Path raw = dir.resolve("raw").resolve(name);
            Properties cfg = load(raw.resolve("run.properties"));
            long t0 = (long) num(cfg, "t0_us");
            double queueTimeoutS = num(cfg, "queue_timeout_ms") / 1000;
            List<Interval> server = intervals(readScrapes(raw.resolve("scrapes.txt")), t0);
            List<Sample> samples = readLog(raw.resolve("h2load.log"));
            String summary = Files.exists(raw.resolve("h2load.txt")) ? Files.readString(raw.resolve("h2load.txt")) : "";

            // the client's seconds
            TreeMap<Integer, List<Sample>> bySecond = new TreeMap<>();
            for (Sample s : samples) {
                bySecond.computeIfAbsent(secondOf(s, t0), k -> new ArrayList<>()).add(s);
            }
            // the steady window: seconds steadyFrom+1 .. duration
            List<Sample> steady = new ArrayList<>();
            bySecond.subMap(steadyFrom + 1, true, duration, true).values().forEach(steady::addAll);
            double steadySeconds = Math.max(1, duration - steadyFrom);
            double clientOk = steady.stream().filter(s -> s.status() / 100 == 2).count() / steadySeconds;
            long steadyShed = steady.stream().filter(s -> s.status() == 503).count();
            double shedPct = steady.isEmpty() ? Double.NaN : 100.0 * steadyShed / steady.size();
            double p99 = quantile(okLatenciesMs(steady), 0.99);
            double worstP99 = Double.NaN;
            for (int k = steadyFrom + 1; k <= duration; k++) {
                double q = quantile(okLatenciesMs(bySecond.getOrDefault(k, List.of())), 0.99);
                if (!Double.isNaN(q) && !(q <= worstP99)) {
                    worstP99 = q;
                }
            }

            // the server's seconds, and the steady window merged
            double okSum = 0;
            double secSum = 0;
            double minRate = Double.NaN;
            double[] merged = null;
            double[] bounds = new double[0];
            TreeMap<Integer, Interval> serverBySecond = new TreeMap<>();
            for (Interval iv : server) {
                serverBySecond.put(iv.second(), iv);
                if (iv.second() > steadyFrom && iv.second() <= duration) {
                    okSum += iv.ok();
                    secSum += iv.seconds();
                    double rate = iv.ok() / iv.seconds();
                    minRate = Double.isNaN(minRate) ? rate : Math.min(minRate, rate);
                    double[] a = admitted(iv.bounds(), iv.counts(), iv.shedLimit(), iv.shedTimeout(), queueTimeoutS);
                    if (merged == null || merged.length != a.length) {
                        merged = a;
                        bounds = iv.bounds();
                    } else {
                        for (int i = 0; i < a.length; i++) {
                            merged[i] += a[i];
                        }
                    }
                }
            }
            double goodput = secSum > 0 ? okSum / secSum : Double.NaN;
            double serverP99 = merged == null ? Double.NaN : bucketQuantile(bounds, merged, 0.99) * 1000;

            // time series: one row per second that either side saw
            int last = Math.max(bySecond.isEmpty() ? 0 : bySecond.lastKey(),
                    serverBySecond.isEmpty() ? 0 : serverBySecond.lastKey());
            int points = Math.max(0, last);
            double[] xs = new double[points];
            double[] goodputY = new double[points];
            double[] p99Y = new double[points];
            double[] serverP99Y = new double[points];
            for (int k = 1; k <= last; k++) {
                Interval iv = serverBySecond.get(k);
                List<Sample> sec = bySecond.getOrDefault(k, List.of());
                double sOk = iv == null ? Double.NaN : iv.ok() / iv.seconds();
                double sShed = iv == null ? Double.NaN : iv.shed() / iv.seconds();
                double sP99 = iv == null ? Double.NaN : 1000 * bucketQuantile(iv.bounds(),
                        admitted(iv.bounds(), iv.counts(), iv.shedLimit(), iv.shedTimeout(), queueTimeoutS), 0.99);
                double cP99 = quantile(okLatenciesMs(sec), 0.99);
                long c503 = sec.stream().filter(s -> s.status() == 503).count();
                long cOk = sec.stream().filter(s -> s.status() / 100 == 2).count();
                csv.append(String.format(Locale.ROOT, "%s,%d,%s,%s,%s,%s,%s,%d,%d,%s\n", name, k, csvNum(sOk, "%.1f"),
                        csvNum(sShed, "%.1f"), csvNum(sP99, "%.1f"), csvNum(iv == null ? Double.NaN : iv.inFlight(), "%.0f"),
                        csvNum(iv == null ? Double.NaN : iv.limit(), "%.0f"), cOk, c503, csvNum(cP99, "%.2f")));
                xs[k - 1] = k;
                goodputY[k - 1] = sOk;
                p99Y[k - 1] = cP99;
                serverP99Y[k - 1] = Double.isInfinite(sP99) ? Double.NaN : sP99;
            }
            String label = cfg.getProperty("label", name);
            goodputLines.add(new LineChart.Series(label, xs, goodputY));
            p99Lines.add(new LineChart.Series(label, xs, p99Y));
            serverP99Lines.add(new LineChart.Series(label, xs, serverP99Y));

            // requests sent in the window (and answered: h2load logs a request when its response ends)
            long windowEndUs = t0 + (long) (duration * 1e6);
            double sentRate = samples.stream().filter(s -> s.startUs() >= t0 && s.startUs() < windowEndUs).count()
                    / (double) duration;
            Matcher m = REQUESTS.matcher(summary);
            String lost = "–";
            if (m.find()) {
                lost = m.group(6) + " errored, " + m.group(7) + " timed out";
            } else if (summary.contains("stopped after")) {
                lost = "h2load stopped at " + (duration + 3) + " s with requests unsent or unanswered";
            }
            table.append(String.format(Locale.ROOT, "| %s | `%s` | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s |\n",
                    label, cfg.getProperty("env", "").isBlank() ? "defaults" : cfg.getProperty("env"),
                    fmt("%,.0f", num(cfg, "offered_rps")), fmt("%,.0f", sentRate),
                    fmt("%,.0f", goodput), fmt("%.0f%%", 100 * goodput / peak), fmt("%.0f%%", 100 * minRate / peak),
                    fmt("%,.0f", clientOk), fmt("%.0f%%", shedPct), fmt("%.1f ms", p99), fmt("%.1f ms", worstP99),
                    fmt("≤ %.1f ms", serverP99), lost));

            double bound = num(cfg, "bound_ms");
            if (Double.isNaN(bound)) { // no shedding: what happened, no verdict
                criteria.append(String.format(Locale.ROOT,
                        "INFO %s: goodput %s (%s of peak), p99 of 2xx %s = %s the unloaded p99; the client sent %s of the offered %s req/s; %s%n",
                        label, fmt("%,.0f req/s", goodput), fmt("%.0f%%", 100 * goodput / peak), fmt("%.0f ms", p99),
                        fmt("%.0f×", p99 / unloadedP99), fmt("%,.0f", sentRate), fmt("%,.0f", num(cfg, "offered_rps")), lost));
            } else {
                boolean goodOk = goodput >= GOODPUT_TARGET * peak;
                boolean latOk = p99 <= bound;
                criteria.append(String.format(Locale.ROOT, "%s %s: goodput %s of peak (worst second %s), target ≥ %.0f%%%n",
                        goodOk ? "PASS" : "FAIL", label, fmt("%.0f%%", 100 * goodput / peak), fmt("%.0f%%", 100 * minRate / peak),
                        100 * GOODPUT_TARGET));
                criteria.append(String.format(Locale.ROOT, "%s %s: p99 of admitted (2xx) %s (worst second %s), bound ≤ %.1f ms (%s)%n",
                        latOk ? "PASS" : "FAIL", label, fmt("%.1f ms", p99), fmt("%.1f ms", worstP99), bound,
                        cfg.getProperty("bound_why", "")));
            }
        }

        LineChart.Window window = new LineChart.Window("steady window", steadyFrom, duration);
        List<LineChart.Reference> refs = List.of(new LineChart.Reference(String.format(Locale.ROOT, "peak %,.0f req/s", peak), peak),
                new LineChart.Reference(String.format(Locale.ROOT, "%.0f%% of peak", 100 * GOODPUT_TARGET), GOODPUT_TARGET * peak));
        Files.writeString(dir.resolve("goodput.svg"), LineChart.svg("Goodput at 4× the peak: 2xx responses per second (server counters)",
                "seconds since the start of the offered load", "2xx req/s", goodputLines, refs, window, false, "%,.0f"));
        List<LineChart.Reference> p99Refs = Double.isNaN(unloadedP99) ? List.of()
                : List.of(new LineChart.Reference(String.format(Locale.ROOT, "unloaded p99 %.1f ms", unloadedP99), unloadedP99));
        Files.writeString(dir.resolve("p99.svg"), LineChart.svg("p99 latency of admitted (2xx) requests per second (client, exact)",
                "seconds since the start of the offered load", "ms (log scale)", p99Lines, p99Refs, window, true, null));
        Files.writeString(dir.resolve("p99-server.svg"), LineChart.svg(
                "p99 latency of admitted requests per second (server latency buckets: upper bound)",
                "seconds since the start of the offered load", "ms (log scale)", serverP99Lines, List.of(), window, true, null));
        Files.writeString(dir.resolve("timeseries.csv"), csv.toString());

        String env = Files.exists(dir.resolve("environment.txt")) ? Files.readString(dir.resolve("environment.txt")).strip() : "";
        StringBuilder md = new StringBuilder("# Overload benchmark\n\n```\n").append(env).append("\n```\n\n");
        md.append(String.format(Locale.ROOT, """
                Handler: `GET /cpu?work=%s` (fixed CPU work). **Peak** goodput, closed loop (wrk, %s connections, \
                %s s after warm-up): **%s req/s**, %s µs of server CPU per request, p99 %s ms. Unloaded p99 (h2load at \
                a quarter of the peak): %s ms.

                Then each configuration gets a fresh server and an open-loop offered load of 4× the peak for %d s (h2load \
                `--h1 --rps`, %s connections opened over the first second so their request timers are spread out). \
                Figures are over the steady window, seconds %d–%d. *Goodput* is 2xx responses per second counted by \
                the server (`brisk_requests_total`, scraped every second); *shed* is the share of 503s among the \
                responses the client got; *p99 (client)* is exact, from h2load's per-request log, 2xx only (h2load's \
                own summary mixes 2xx and 503); *p99 (server)* is the upper bound of the latency bucket holding it \
                (buckets 100 µs … 10 s, about 2–2.5× apart), refusals taken out. h2load sends a request on a \
                connection only after the previous answer came, so a server that does not answer also slows the \
                client: *sent* (requests sent in the %d s and answered) below *offered* means requests that never \
                left the client, and a run that would outlast the window by more than 3 s is stopped there.

                | config | server settings | offered req/s | sent req/s | goodput req/s (%% of peak) | worst second | \
                goodput (client) | shed | p99 2xx (client) | worst second p99 | p99 (server buckets) | lost |
                |---|---|---|---|---|---|---|---|---|---|---|---|
                """, run.getProperty("work", "?"), run.getProperty("peak_connections", "?"), run.getProperty("peak_duration_s", "?"),
                fmt("%,.0f", peak), fmt("%.0f", num(run, "peak_cpu_us")), fmt("%.1f", num(run, "peak_p99_ms")),
                fmt("%.1f", unloadedP99), duration, run.getProperty("clients", "?"), steadyFrom + 1, duration, duration));
        md.append(table).append('\n');
        md.append("## Criteria\n\n```\n").append(criteria).append("```\n\n");
        md.append("## Charts\n\n![goodput over time](goodput.svg)\n\n![p99 over time, client](p99.svg)\n\n")
          .append("![p99 over time, server buckets](p99-server.svg)\n\n")
          .append("Per second: `timeseries.csv` (the server's 2xx and 503 rates, its p99 from the buckets, the in-flight ")
          .append("and limit gauges at the end of the second, which are 0 without a limit since the engine counts in-flight ")
          .append("requests only when it limits them; the client's 2xx and 503 counts and exact 2xx p99). Raw outputs ")
          .append("(h2load logs and summaries, metric scrapes, server logs): `raw/`.\n");
        Files.writeString(dir.resolve("report.md"), md.toString(), StandardCharsets.UTF_8);
        return criteria.toString();
    }

    private static String csvNum(double v, String format) {
        return Double.isNaN(v) ? "" : Double.isInfinite(v) ? "inf" : String.format(Locale.ROOT, format, v);
    }
}
