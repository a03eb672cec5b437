package dev.brisk.bench;

import dev.brisk.bench.Report.Stat;
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
 * Turns an engines run ({@code bench/engines.sh}: {@code results.csv}, {@code idle.csv},
 * {@code warmup.csv}, {@code workloads.txt}, {@code environment.txt}) into {@code report.md} and SVG bar
 * charts (drawn by {@link Report#chart}). Medians over rounds with min–max. On a workload where errors
 * are part of the result (connection churn, 1,000 connections) a run with socket errors still counts and
 * the errors have columns of their own; elsewhere a run with any error is invalid, listed and not used.
 */
public final class EnginesReport {
    private EnginesReport() {
    }

    /** One CSV file as rows of named columns. */
    record Table(List<Map<String, String>> rows) {
        static Table read(Path file) throws IOException {
            List<Map<String, String>> rows = new ArrayList<>();
            if (!Files.exists(file)) {
                return new Table(rows);
            }
            List<String> lines = Files.readAllLines(file);
            if (lines.isEmpty()) {
                return new Table(rows);
            }
            String[] names = lines.get(0).split(",");
            for (String line : lines.subList(1, lines.size())) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split(",", -1);
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < names.length && i < f.length; i++) {
                    row.put(names[i], f[i]);
                }
                rows.add(row);
            }
            return new Table(rows);
        }

        Set<String> distinct(String column) {
            Set<String> s = new LinkedHashSet<>();
            rows.forEach(r -> s.add(r.get(column)));
            return s;
        }
    }

    /** A workload as the script describes it: {@code name|title|tolerant}. */
    record Workload(String name, String title, boolean tolerant) {
    }

    static double num(Map<String, String> row, String column) {
        String v = row.get(column);
        return v == null || v.isEmpty() ? Double.NaN : Double.parseDouble(v);
    }

    static Stat stat(List<Map<String, String>> rows, String column) {
        return stat(rows, r -> num(r, column));
    }

    static Stat stat(List<Map<String, String>> rows, ToDoubleFunction<Map<String, String>> f) {
        double[] v = rows.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return new Stat(Double.NaN, Double.NaN, Double.NaN);
        }
        double med = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return new Stat(med, v[0], v[v.length - 1]);
    }

    private static String f(String format, double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, v);
    }

    /** {@code median (min–max)}, or just the value when every round agrees. */
    private static String range(String format, Stat s) {
        if (Double.isNaN(s.median())) {
            return "–";
        }
        if (s.min() == s.max()) {
            return f(format, s.median());
        }
        return f(format, s.median()) + " (" + f(format, s.min()) + "–" + f(format, s.max()) + ")";
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Files.writeString(dir.resolve("report.md"), render(dir), StandardCharsets.UTF_8);
    }

    static String render(Path dir) throws IOException {
        Table runs = Table.read(dir.resolve("results.csv"));
        Table idle = Table.read(dir.resolve("idle.csv"));
        Table warm = Table.read(dir.resolve("warmup.csv"));
        List<Workload> workloads = new ArrayList<>();
        if (Files.exists(dir.resolve("workloads.txt"))) {
            for (String line : Files.readAllLines(dir.resolve("workloads.txt"))) {
                String[] p = line.split("\\|");
                if (p.length == 3) {
                    workloads.add(new Workload(p[0], p[1], p[2].equals("1")));
                }
            }
        }
        String env = Files.exists(dir.resolve("environment.txt")) ? Files.readString(dir.resolve("environment.txt")) : "";
        String notes = Files.exists(dir.resolve("notes.md")) ? Files.readString(dir.resolve("notes.md")) : "";

        StringBuilder md = new StringBuilder();
        md.append("# Engines: NIO × blocking × thread type\n\n```\n").append(env.strip()).append("\n```\n\n");
        if (!notes.isBlank()) {
            md.append(notes.strip()).append("\n\n");
        }
        Map<String, Map<String, Stat>> rps = new LinkedHashMap<>();
        Map<String, Map<String, Stat>> cpu = new LinkedHashMap<>();
        Map<String, Map<String, Stat>> p99 = new LinkedHashMap<>();
        Set<String> configs = runs.distinct("config");
        configs.addAll(idle.distinct("config"));
        configs.addAll(warm.distinct("config"));
        List<Map<String, String>> invalid = new ArrayList<>();
        for (Workload w : workloads) {
            List<Map<String, String>> all = runs.rows().stream().filter(r -> r.get("workload").equals(w.name())).toList();
            if (all.isEmpty()) {
                continue;
            }
            md.append("## ").append(w.title()).append("\n\n");
            md.append(w.tolerant()
                    ? "| configuration | req/s (2xx) | CPU µs/req | p50 ms | p99 ms | max ms | socket errors per run: connect / read / write / timeout | non-2xx per run | accept queue, mid / end | server threads |\n"
                      + "|---|---|---|---|---|---|---|---|---|---|\n"
                    : "| configuration | req/s | CPU µs/req | p50 ms | p99 ms | max ms | errors | server threads |\n"
                      + "|---|---|---|---|---|---|---|---|\n");
            Map<String, List<Map<String, String>>> valid = new LinkedHashMap<>();
            for (String c : runs.distinct("config")) {
                List<Map<String, String>> v = all.stream().filter(r -> r.get("config").equals(c) && r.get("valid").equals("yes")).toList();
                if (!v.isEmpty()) {
                    valid.put(c, v);
                }
                all.stream().filter(r -> r.get("config").equals(c) && !r.get("valid").equals("yes")).forEach(invalid::add);
            }
            List<String> order = new ArrayList<>(valid.keySet());
            order.sort(Comparator.comparingDouble((String c) -> stat(valid.get(c), "rps").median()).reversed());
            Map<String, Stat> wRps = new LinkedHashMap<>();
            Map<String, Stat> wCpu = new LinkedHashMap<>();
            Map<String, Stat> wP99 = new LinkedHashMap<>();
            for (String c : order) {
                List<Map<String, String>> v = valid.get(c);
                wRps.put(c, stat(v, "rps"));
                wCpu.put(c, stat(v, "cpu_us_per_req"));
                wP99.put(c, stat(v, "p99_ms"));
                md.append("| ").append(c).append(" | ").append(range("%,.0f", wRps.get(c))).append(" | ")
                  .append(f("%.1f", wCpu.get(c).median())).append(" | ")
                  .append(f("%.2f", stat(v, "p50_ms").median())).append(" | ")
                  .append(range("%.2f", wP99.get(c))).append(" | ")
                  .append(f("%.1f", stat(v, "max_ms").max())).append(" | ");
                if (w.tolerant()) {
                    md.append(errorsCell(v, "connect_err")).append(" / ").append(errorsCell(v, "read_err")).append(" / ")
                      .append(errorsCell(v, "write_err")).append(" / ").append(errorsCell(v, "timeout_err")).append(" | ")
                      .append(errorsCell(v, "non2xx")).append(" | ")
                      .append(errorsCell(v, "accept_queue_mid")).append(" / ").append(errorsCell(v, "accept_queue_end")).append(" | ");
                } else {
                    md.append("0 | ");
                }
                md.append(range("%,.0f", stat(v, "threads"))).append(" |\n");
            }
            long bad = all.stream().filter(r -> !r.get("valid").equals("yes")).count();
            if (bad > 0) {
                md.append("\n").append(bad).append(" run(s) with errors left out: see *Invalid runs*.\n");
            }
            md.append('\n');
            rps.put(w.name(), wRps);
            cpu.put(w.name(), wCpu);
            p99.put(w.name(), wP99);
        }

        Map<String, Map<String, Stat>> idleChart = new LinkedHashMap<>();
        if (!idle.rows().isEmpty()) {
            md.append("## Memory per idle connection\n\n");
            md.append("| configuration | held idle (asked) | heap B/conn | RSS B/conn | server threads (before → held) | opening took s | refused 503 / failed / unanswered | closed by server while held |\n");
            md.append("|---|---|---|---|---|---|---|---|\n");
            Map<String, Stat> heap = new LinkedHashMap<>();
            Map<String, Stat> rss = new LinkedHashMap<>();
            for (String c : idle.distinct("config")) {
                List<Map<String, String>> v = idle.rows().stream().filter(r -> r.get("config").equals(c)).toList();
                ToDoubleFunction<Map<String, String>> heapPer = r -> num(r, "held") > 0
                        ? (num(r, "heap_after_kb") - num(r, "heap_before_kb")) * 1024 / num(r, "held") : Double.NaN;
                ToDoubleFunction<Map<String, String>> rssPer = r -> num(r, "held") > 0
                        ? (num(r, "rss_after_kb") - num(r, "rss_before_kb")) * 1024 / num(r, "held") : Double.NaN;
                // a server that could not hold (nearly) all of them is in the table, not in the chart
                boolean heldAll = stat(v, "held").median() >= 0.9 * stat(v, "connections").median();
                if (heldAll) {
                    heap.put(c, stat(v, heapPer));
                    rss.put(c, stat(v, rssPer));
                }
                md.append("| ").append(c).append(" | ").append(range("%,.0f", stat(v, "held")))
                  .append(" (").append(f("%,.0f", stat(v, "connections").median())).append(") | ")
                  .append(range("%,.0f", stat(v, heapPer))).append(" | ").append(range("%,.0f", stat(v, rssPer))).append(" | ")
                  .append(f("%,.0f", stat(v, "threads_before").median())).append(" → ")
                  .append(f("%,.0f", stat(v, "threads_after").median())).append(" | ")
                  .append(range("%.1f", stat(v, r -> num(r, "open_ms") / 1000))).append(" | ")
                  .append(f("%,.0f", stat(v, "status503").median())).append(" / ")
                  .append(f("%,.0f", stat(v, "failed").median())).append(" / ")
                  .append(f("%,.0f", stat(v, "unanswered").median())).append(" | ")
                  .append(f("%,.0f", stat(v, "closed_by_server").max())).append(" |\n");
            }
            if (heap.size() < idle.distinct("config").size()) {
                md.append("\nA configuration that held fewer than 90 % of the connections asked for is left out of the chart; ")
                  .append("its figures per connection are over the connections it held.\n");
            }
            md.append('\n');
            idleChart.put("heap bytes per idle connection", heap);
            idleChart.put("RSS bytes per idle connection", rss);
        }

        Map<String, Map<String, Stat>> warmChart = new LinkedHashMap<>();
        if (!warm.rows().isEmpty()) {
            int seconds = (int) stat(warm.rows(), "second").max();
            md.append("## Warm-up: the first ").append(seconds).append(" seconds of a fresh server\n\n");
            md.append("| configuration | probe polling from ms | port open ms | first response ms | responses per second, s1 · s2 · … | errors in ")
              .append(seconds).append(" s | s1 p99 / max ms | s").append(seconds).append(" p99 / max ms | s1 ÷ s")
              .append(seconds).append(" | stuck > 1 s at end |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|\n");
            Map<String, Stat> first = new LinkedHashMap<>();
            Map<String, Stat> last = new LinkedHashMap<>();
            Map<String, Stat> ttfr = new LinkedHashMap<>();
            for (String c : warm.distinct("config")) {
                List<Map<String, String>> v = warm.rows().stream().filter(r -> r.get("config").equals(c)).toList();
                List<Map<String, String>> s1 = v.stream().filter(r -> num(r, "second") == 1).toList();
                List<Map<String, String>> sn = v.stream().filter(r -> num(r, "second") == seconds).toList();
                StringBuilder perSecond = new StringBuilder();
                for (int s = 1; s <= seconds; s++) {
                    int sec = s;
                    perSecond.append(s > 1 ? " · " : "").append(f("%,.0f", stat(v.stream().filter(r -> num(r, "second") == sec).toList(), "ok").median()));
                }
                Map<String, Double> errorsPerRound = new LinkedHashMap<>();
                v.forEach(r -> errorsPerRound.merge(r.get("round"), num(r, "errors"), Double::sum));
                double[] errs = errorsPerRound.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
                first.put(c, stat(s1, "ok"));
                last.put(c, stat(sn, "ok"));
                ttfr.put(c, stat(s1, "first_response_ms"));
                md.append("| ").append(c).append(" | ").append(f("%,.0f", stat(s1, "probe_ready_ms").max())).append(" | ")
                  .append(range("%,.0f", stat(s1, "port_open_ms"))).append(" | ")
                  .append(range("%,.0f", ttfr.get(c))).append(" | ").append(perSecond).append(" | ")
                  .append(errs.length == 0 ? "–" : errs[0] == errs[errs.length - 1] ? f("%,.0f", errs[0])
                          : f("%,.0f", errs[errs.length / 2]) + " (" + f("%,.0f", errs[0]) + "–" + f("%,.0f", errs[errs.length - 1]) + ")")
                  .append(" | ").append(f("%.1f", stat(s1, "p99_ms").median())).append(" / ")
                  .append(f("%.1f", stat(s1, "max_ms").max())).append(" | ")
                  .append(f("%.1f", stat(sn, "p99_ms").median())).append(" / ")
                  .append(f("%.1f", stat(sn, "max_ms").max())).append(" | ")
                  .append(f("%.2f", first.get(c).median() / last.get(c).median())).append(" | ")
                  .append(f("%,.0f", stat(s1, "unanswered").max())).append(" |\n");
            }
            md.append('\n');
            warmChart.put("responses in the first second", first);
            warmChart.put("responses in second " + seconds, last);
            warmChart.put("first response, ms after the process started", ttfr);
        }

        if (!invalid.isEmpty()) {
            md.append("## Invalid runs (errors; not counted)\n\n");
            for (Map<String, String> r : invalid) {
                md.append("- round ").append(r.get("round")).append(' ').append(r.get("config")).append(' ')
                  .append(r.get("workload")).append(": ").append(r.get("requests")).append(" requests, errors connect ")
                  .append(r.get("connect_err")).append(", read ").append(r.get("read_err")).append(", write ")
                  .append(r.get("write_err")).append(", timeout ").append(r.get("timeout_err")).append(", non-2xx ")
                  .append(r.get("non2xx")).append(" (raw/r").append(r.get("round")).append('-').append(r.get("config"))
                  .append('-').append(r.get("workload")).append(".txt)\n");
            }
            md.append('\n');
        }

        md.append("## Charts\n\n");
        if (!rps.isEmpty()) {
            Report.chart(dir, "rps.svg", "Requests per second (median, higher is better)", rps, configs, "%,.0f");
            Report.chart(dir, "cpu.svg", "Server CPU µs per request (median, lower is better)", cpu, configs, "%.1f");
            Report.chart(dir, "p99.svg", "p99 latency ms (median, lower is better)", p99, configs, "%.2f");
            md.append("![req/s](rps.svg)\n\n![CPU per request](cpu.svg)\n\n![p99](p99.svg)\n\n");
        }
        if (!idleChart.isEmpty()) {
            Report.chart(dir, "idle-memory.svg", "Memory per idle keep-alive connection (median, lower is better)",
                    idleChart, configs, "%,.0f");
            md.append("![memory per idle connection](idle-memory.svg)\n\n");
        }
        if (!warmChart.isEmpty()) {
            Report.chart(dir, "warmup.svg", "Warm-up (median)", warmChart, configs, "%,.0f");
            md.append("![warm-up](warmup.svg)\n");
        }
        return md.toString();
    }

    /** Median over the runs, and the max when it differs: {@code 3 (max 12)}. */
    private static String errorsCell(List<Map<String, String>> v, String column) {
        Stat s = stat(v, column);
        if (Double.isNaN(s.median())) {
            return "–";
        }
        return s.max() == s.median() ? f("%,.0f", s.median()) : f("%,.0f", s.median()) + " (max " + f("%,.0f", s.max()) + ")";
    }
}
