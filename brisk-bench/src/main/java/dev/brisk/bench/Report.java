package dev.brisk.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Turns a harness run ({@code results.csv} + {@code environment.txt}) into {@code report.md} and one SVG
 * bar chart per metric. Medians over rounds, with min–max; ratios against the best peer (the best server
 * that is not Brisk) in each scenario. Invalid runs (errors, unexpected statuses) are listed, never used.
 * A server named {@code baseline/<name>} is {@code <name>} built at another commit ({@code ./brisk bench
 * --baseline REV}); each server run both ways gets a section comparing the two within the run's own spread.
 */
public final class Report {
    private Report() {
    }

    /** One measured run. */
    record Row(int round, String server, String scenario, int connections, boolean valid, double rps,
               long requests, double p50, double p99, double p999, double cpuUs, double bytes, double rssMb,
               double kernelUs) {
        static Row parse(String line) {
            String[] f = line.split(",");
            return new Row(Integer.parseInt(f[0]), f[1], f[2], Integer.parseInt(f[3]), f[4].equals("yes"),
                    Double.parseDouble(f[5]), Long.parseLong(f[6]), Double.parseDouble(f[7]),
                    tail(Double.parseDouble(f[8]), Double.parseDouble(f[7])),
                    tail(Double.parseDouble(f[9]), Double.parseDouble(f[7])), Double.parseDouble(f[10]), Double.parseDouble(f[11]),
                    Double.parseDouble(f[12]),
                    // runs written before the kernel column existed have none
                    f.length > 13 ? Double.parseDouble(f[13]) : Double.NaN);
        }

        /**
         * A tail percentile, or NaN when wrk could not give one: under deep pipelining at millions of
         * requests a second its percentiles come out as 0, below the median, which no latency can be.
         */
        private static double tail(double percentile, double p50) {
            return percentile < p50 ? Double.NaN : percentile;
        }

        /** The kernel's share of this run's server CPU, in percent (NaN when not measured). */
        double kernelPercent() {
            return cpuUs > 0 ? 100 * kernelUs / cpuUs : Double.NaN;
        }
    }

    /** Median, min and max of one metric for one server in one scenario. */
    record Stat(double median, double min, double max) {
        static Stat of(List<Row> rows, ToDoubleFunction<Row> metric) {
            // a metric a run could not measure (NaN) is left out, not sorted to the top of the median
            double[] v = rows.stream().mapToDouble(metric).filter(d -> !Double.isNaN(d)).sorted().toArray();
            if (v.length == 0) {
                return new Stat(Double.NaN, Double.NaN, Double.NaN);
            }
            double med = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
            return new Stat(med, v[0], v[v.length - 1]);
        }
    }

    /** The prefix the harness gives a server started from the baseline build. */
    static final String BASELINE = "baseline/";

    static boolean isBaseline(String server) {
        return server.startsWith(BASELINE);
    }

    static boolean isBrisk(String server) {
        return (isBaseline(server) ? server.substring(BASELINE.length()) : server).startsWith("brisk");
    }

    /** A server's name in the harness's raw file names: a slash would be a directory there. */
    static String fileName(String server) {
        return server.replace('/', '_');
    }

    /** nginx answering fixed routes: the limit of this machine, shown for reference, never a peer. */
    static boolean isReference(String server) {
        return server.equals("nginx");
    }

    private static String label(String server) {
        return isBrisk(server) ? "**" + server + "**" : isReference(server) ? server + " *(machine limit, not a peer)*" : server;
    }

    private static String millis(double ms) {
        return Double.isNaN(ms) ? "–" : String.format(Locale.ROOT, "%.2f", ms);
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        List<Row> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                rows.add(Row.parse(line));
            }
        }
        String env = Files.exists(dir.resolve("environment.txt"))
                ? Files.readString(dir.resolve("environment.txt")) : "";
        Files.writeString(dir.resolve("report.md"), render(rows, env, dir), StandardCharsets.UTF_8);
    }

    static String render(List<Row> rows, String env, Path dir) throws IOException {
        Set<String> scenarios = new LinkedHashSet<>();
        Set<String> servers = new LinkedHashSet<>();
        for (Row r : rows) {
            scenarios.add(r.scenario());
            servers.add(r.server());
        }
        StringBuilder md = new StringBuilder();
        md.append("# Benchmark run\n\n```\n").append(env.strip()).append("\n```\n\n");
        md.append("Requests/second are medians over rounds (min–max in brackets). *vs best peer* divides by the ")
          .append("median of the fastest server that is not Brisk in that scenario. CPU µs/req is the server ")
          .append("process's CPU time per request (independent of the client's speed), *kernel* the part of it spent ")
          .append("in the kernel (socket reads and writes, epoll, loopback TCP: what no change in user space can save); ")
          .append("B/req is heap allocated ")
          .append("per request by all server threads. `health` is a fast-static route for Brisk and a plain route ")
          .append("for every peer: compare it only with that in mind.\n\n");
        baseline(md, rows, scenarios, servers);
        Map<String, Map<String, Stat>> rpsByScenario = new LinkedHashMap<>();
        Map<String, Map<String, Stat>> cpuByScenario = new LinkedHashMap<>();
        Map<String, Map<String, Stat>> bytesByScenario = new LinkedHashMap<>();
        Map<String, Map<String, Stat>> p99ByScenario = new LinkedHashMap<>();
        for (String sc : scenarios) {
            boolean fixedRate = sc.endsWith("-rate");
            md.append("## ").append(sc).append(sc.equals("health") ? " (Brisk: fast-static; peers: plain route)" : "")
              .append(fixedRate ? " (fixed offered load: *vs best peer* compares p99 latency, lower is better)" : "")
              .append("\n\n");
            md.append("| server | req/s | vs best peer | p50 ms | p99 ms | p99.9 ms | CPU µs/req | kernel | B/req | RSS MB |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|\n");
            Map<String, Stat> rps = new LinkedHashMap<>();
            Map<String, List<Row>> valid = new LinkedHashMap<>();
            for (String s : servers) {
                List<Row> v = rows.stream().filter(r -> r.server().equals(s) && r.scenario().equals(sc) && r.valid()).toList();
                if (!v.isEmpty()) {
                    valid.put(s, v);
                    rps.put(s, Stat.of(v, Row::rps));
                }
            }
            // open loop: every server gets the same rate, so latency is the result; closed loop: throughput
            Map<String, Stat> ranked = fixedRate ? stats(valid, Row::p99) : rps;
            var peers = ranked.entrySet().stream().filter(e -> !isBrisk(e.getKey()) && !isReference(e.getKey())).mapToDouble(e -> e.getValue().median());
            double bestPeer = (fixedRate ? peers.min() : peers.max()).orElse(Double.NaN);
            List<String> order = new ArrayList<>(valid.keySet());
            Comparator<String> byRank = Comparator.comparingDouble((String s) -> ranked.get(s).median());
            order.sort(fixedRate ? byRank : byRank.reversed());
            for (String s : order) {
                List<Row> v = valid.get(s);
                Stat r = rps.get(s);
                double kernel = Stat.of(v, Row::kernelPercent).median();
                md.append(String.format(Locale.ROOT, "| %s | %,.0f (%,.0f–%,.0f) | %s | %.2f | %s | %s | %.1f | %s | %,.0f | %.0f |\n",
                        label(s), r.median(), r.min(), r.max(),
                        Double.isNaN(bestPeer) ? "–" : String.format(Locale.ROOT, "%.2f×", ranked.get(s).median() / bestPeer),
                        Stat.of(v, Row::p50).median(), millis(Stat.of(v, Row::p99).median()), millis(Stat.of(v, Row::p999).median()),
                        Stat.of(v, Row::cpuUs).median(), Double.isNaN(kernel) ? "–" : String.format(Locale.ROOT, "%.0f %%", kernel),
                        Stat.of(v, Row::bytes).median(), Stat.of(v, Row::rssMb).max()));
            }
            md.append('\n');
            rpsByScenario.put(sc, rps);
            cpuByScenario.put(sc, stats(valid, Row::cpuUs));
            bytesByScenario.put(sc, stats(valid, Row::bytes));
            p99ByScenario.put(sc, stats(valid, Row::p99));
        }
        List<Row> invalid = rows.stream().filter(r -> !r.valid()).toList();
        if (!invalid.isEmpty()) {
            md.append("## Invalid runs (errors or unexpected statuses; not counted)\n\n");
            for (Row r : invalid) {
                md.append("- round ").append(r.round()).append(' ').append(r.server()).append(' ')
                  .append(r.scenario()).append(" (raw/r").append(r.round()).append('-').append(fileName(r.server()))
                  .append('-').append(r.scenario()).append(".txt)\n");
            }
            md.append('\n');
        }
        md.append("## Charts\n\n");
        chart(dir, "rps.svg", "Requests per second (median, higher is better)", rpsByScenario, servers, "%,.0f");
        chart(dir, "cpu.svg", "Server CPU µs per request (median, lower is better)", cpuByScenario, servers, "%.1f");
        chart(dir, "bytes.svg", "Bytes allocated per request (median, lower is better)", bytesByScenario, servers, "%,.0f");
        chart(dir, "p99.svg", "p99 latency ms (median, lower is better)", p99ByScenario, servers, "%.2f");
        md.append("![req/s](rps.svg)\n\n![CPU per request](cpu.svg)\n\n![bytes per request](bytes.svg)\n\n![p99](p99.svg)\n");
        return md.toString();
    }

    /** One metric of the baseline comparison. */
    private record Metric(String name, ToDoubleFunction<Row> value, String format, boolean higherIsBetter) {
    }

    private static final List<Metric> COMPARED = List.of(
            new Metric("req/s", Row::rps, "%,.0f", true),
            new Metric("CPU µs/req", Row::cpuUs, "%.2f", false),
            new Metric("B/req", Row::bytes, "%,.0f", false));

    /**
     * This tree against the baseline build, per server run both ways: medians with min–max over rounds, their
     * ratio, the ratio within each round (the two run minutes apart, so slow drifts of the machine cancel) and
     * whether the difference is outside the run's own round-to-round spread (the min–max ranges do not overlap).
     */
    static void baseline(StringBuilder md, List<Row> rows, Set<String> scenarios, Set<String> servers) {
        List<String> compared = servers.stream().filter(s -> !isBaseline(s) && servers.contains(BASELINE + s)).toList();
        if (compared.isEmpty()) {
            return;
        }
        md.append("## This tree against the baseline\n\n")
          .append("`baseline/<server>` is the same server built at the baseline commit (see `baseline:` above). ")
          .append("Medians over rounds with min–max; *this / baseline* divides the medians; *per round* divides ")
          .append("within each round. A difference counts only when the two min–max ranges do not overlap ")
          .append("(*outside spread*); otherwise it is within this run's own round-to-round noise.\n\n")
          .append("| scenario | server | metric | baseline | this tree | this / baseline | per round | verdict |\n")
          .append("|---|---|---|---|---|---|---|---|\n");
        for (String sc : scenarios) {
            for (String s : compared) {
                List<Row> after = validRows(rows, s, sc);
                List<Row> before = validRows(rows, BASELINE + s, sc);
                if (after.isEmpty() || before.isEmpty()) {
                    md.append("| ").append(sc).append(" | ").append(s).append(" | – | ")
                      .append(before.isEmpty() ? "no valid run" : "").append(" | ")
                      .append(after.isEmpty() ? "no valid run" : "").append(" | – | – | – |\n");
                    continue;
                }
                for (Metric m : COMPARED) {
                    Stat b = Stat.of(before, m.value());
                    Stat a = Stat.of(after, m.value());
                    StringBuilder perRound = new StringBuilder();
                    for (Row r : after) {
                        before.stream().filter(x -> x.round() == r.round()).findFirst().ifPresent(x -> perRound
                                .append(perRound.isEmpty() ? "" : " ").append(ratio(m.value().applyAsDouble(r), m.value().applyAsDouble(x))));
                    }
                    double ratio = a.median() / b.median();
                    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", sc, s, m.name(),
                            range(b, m.format()), range(a, m.format()),
                            Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.3f (%+.1f %%)", ratio, 100 * (ratio - 1)) : "–",
                            perRound.isEmpty() ? "–" : perRound, verdict(b, before.size(), a, after.size(), m.higherIsBetter())));
                }
            }
        }
        md.append('\n');
    }

    private static List<Row> validRows(List<Row> rows, String server, String scenario) {
        return rows.stream().filter(r -> r.server().equals(server) && r.scenario().equals(scenario) && r.valid()).toList();
    }

    private static String ratio(double after, double before) {
        double r = after / before;
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.3f", r) : "–";
    }

    private static String range(Stat s, String format) {
        return Double.isNaN(s.median()) ? "–" : String.format(Locale.ROOT, format + " (" + format + "–" + format + ")",
                s.median(), s.min(), s.max());
    }

    /** Whether the change is larger than the spread of either side: better, worse or within it. */
    static String verdict(Stat before, int beforeRounds, Stat after, int afterRounds, boolean higherIsBetter) {
        if (Double.isNaN(before.median()) || Double.isNaN(after.median())) {
            return "–";
        }
        if (beforeRounds < 2 || afterRounds < 2) {
            return "one round: no spread";
        }
        if (after.min() <= before.max() && before.min() <= after.max()) {
            return "within spread";
        }
        boolean higher = after.min() > before.max();
        return (higher == higherIsBetter ? "**better**" : "**worse**") + ", outside spread";
    }

    private static Map<String, Stat> stats(Map<String, List<Row>> valid, ToDoubleFunction<Row> metric) {
        Map<String, Stat> m = new LinkedHashMap<>();
        valid.forEach((s, v) -> m.put(s, Stat.of(v, metric)));
        return m;
    }

    /** A horizontal bar chart: one group per scenario, one bar per server. */
    static void chart(Path dir, String file, String title, Map<String, Map<String, Stat>> data, Set<String> servers,
                      String format) throws IOException {
        int barH = 14;
        int gap = 18;
        // wide enough for the longest name ("baseline/brisk-blocking-platform"), at about 6 px a character
        int labelW = Math.max(190, 12 + 6 * servers.stream().mapToInt(String::length).max().orElse(0));
        int plotW = 520;
        int rowsCount = data.values().stream().mapToInt(Map::size).sum();
        int height = 40 + rowsCount * barH + data.size() * (gap + 16) + 10;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
                labelW + plotW + 90, height));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append(String.format("<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", escape(title)));
        int y = 40;
        for (var e : data.entrySet()) {
            svg.append(String.format("<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>\n", y + 12, escape(e.getKey())));
            y += 16;
            double max = e.getValue().values().stream().mapToDouble(Stat::median).filter(d -> !Double.isNaN(d)).max().orElse(1);
            for (String s : servers) {
                Stat st = e.getValue().get(s);
                if (st == null || Double.isNaN(st.median())) {
                    continue;
                }
                int w = max <= 0 ? 0 : (int) Math.round(plotW * st.median() / max);
                String color = isBaseline(s) ? (isBrisk(s) ? "#ffa94d" : "#91a7ff")
                        : isBrisk(s) ? "#d9480f" : isReference(s) ? "#868e96" : "#4c6ef5";
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                        labelW - 6, y + barH - 3, escape(s)));
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                        labelW, y + 1, Math.max(w, 1), barH - 2, color));
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>\n",
                        labelW + w + 4, y + barH - 3, escape(String.format(Locale.ROOT, format, st.median()))));
                y += barH;
            }
            y += gap;
        }
        svg.append("</svg>\n");
        Files.writeString(dir.resolve(file), svg.toString(), StandardCharsets.UTF_8);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
