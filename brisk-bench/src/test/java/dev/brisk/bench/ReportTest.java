package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    @Test
    void mediansRatiosInvalidRunsAndCharts(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("results.csv"), """
                round,server,scenario,connections,valid,rps,requests,p50_ms,p99_ms,p999_ms,cpu_us_per_req,bytes_per_req,rss_mb
                1,brisk-event-loop,hello,50,yes,90000,900000,0.5,1.0,2.0,8.0,300,100
                2,brisk-event-loop,hello,50,yes,100000,1000000,0.4,0.9,1.9,7.0,300,110
                3,brisk-event-loop,hello,50,yes,80000,800000,0.6,1.2,2.2,9.0,300,105
                1,netty,hello,50,yes,50000,500000,0.9,2.0,3.0,15.0,100,120
                2,netty,hello,50,yes,40000,400000,1.0,2.5,3.5,16.0,100,125
                3,netty,hello,50,no,1000,10000,9.0,9.0,9.0,99.0,999,130
                1,undertow,hello,50,yes,45000,450000,1.0,2.0,3.0,14.0,500,140,11.2
                1,nginx,hello,50,yes,200000,2000000,0.1,0.3,0.5,4.0,0,10,3.0
                1,brisk-event-loop,hello-rate,50,yes,15000,75000,0.5,1.5,4.0,13.0,360,100
                1,jetty,hello-rate,50,yes,15000,75000,1.4,6.0,12.0,66.0,1700,100
                1,netty,hello-rate,50,yes,15000,75000,0.9,3.0,9.0,20.0,1500,100
                1,brisk-event-loop,pipelined,50,yes,1500000,15000000,0.31,0.0,0.0,0.6,136,610,0.37
                """);
        Files.writeString(dir.resolve("environment.txt"), "date: test\n");
        Report.main(new String[] {dir.toString()});
        String md = Files.readString(dir.resolve("report.md"));
        // medians: brisk 90,000; netty 45,000 (its invalid round dropped); undertow 45,000: best peer 45,000
        assertThat(md).contains("| **brisk-event-loop** | 90,000 (80,000–100,000) | 2.00× |");
        assertThat(md).contains("| netty | 45,000 (40,000–50,000) | 1.00× |");
        assertThat(md).contains("round 3 netty hello");
        // nginx is shown as the machine's limit and never counted as the best peer
        assertThat(md).contains("| nginx *(machine limit, not a peer)* | 200,000 (200,000–200,000) | 4.44× |");
        assertThat(md).doesNotContain("99.0"); // the invalid run's figures are never used
        // the kernel's share of the CPU where it was measured; a dash for rows written before it was
        assertThat(md).contains("| 14.0 | 80 % | 500 |").contains("| 4.0 | 75 % | 0 |").contains("| 15.5 | – | 100 |");
        for (String chart : new String[] {"rps.svg", "cpu.svg", "bytes.svg", "p99.svg"}) {
            assertThat(Files.readString(dir.resolve(chart))).startsWith("<svg").contains("brisk-event-loop").contains("netty");
        }
        // at a fixed rate the ranking is by p99, against the best (lowest) peer p99: netty's 3.0 ms
        String rate = md.substring(md.indexOf("## hello-rate"));
        assertThat(rate).contains("| **brisk-event-loop** | 15,000 (15,000–15,000) | 0.50× |");
        assertThat(rate.indexOf("| netty")).isLessThan(rate.indexOf("| jetty"));
        // wrk's zero percentiles under deep pipelining (below the median) are shown as unknown, not as 0 ms
        assertThat(md.substring(md.indexOf("## pipelined"))).contains("| 1,500,000 (1,500,000–1,500,000) | – | 0.31 | – | – | 0.6 | 62 % |");
        // the fastest server comes first in each table
        assertThat(md.indexOf("brisk-event-loop**")).isLessThan(md.indexOf("| netty"));
    }

    @Test
    void baselineBuildSideBySideWithinItsSpread(@TempDir Path dir) throws Exception {
        // two commits of brisk-event-loop (./brisk bench --baseline REV), rounds alternating; netty as a peer
        Files.writeString(dir.resolve("results.csv"), """
                round,server,scenario,connections,valid,rps,requests,p50_ms,p99_ms,p999_ms,cpu_us_per_req,bytes_per_req,rss_mb,kernel_us_per_req
                1,brisk-event-loop,hello,50,yes,100000,1000000,0.5,1.0,2.0,6.0,140,100,5.0
                1,baseline/brisk-event-loop,hello,50,yes,98000,980000,0.5,1.0,2.0,6.6,240,100,5.0
                2,baseline/brisk-event-loop,hello,50,yes,102000,1020000,0.5,1.0,2.0,6.8,240,100,5.0
                2,brisk-event-loop,hello,50,yes,97000,970000,0.5,1.0,2.0,6.2,140,100,5.0
                3,brisk-event-loop,hello,50,yes,99000,990000,0.5,1.0,2.0,6.1,140,100,5.0
                3,baseline/brisk-event-loop,hello,50,no,1000,10000,9.0,9.0,9.0,99.0,999,100,5.0
                1,netty,hello,50,yes,50000,500000,0.9,2.0,3.0,15.0,1500,120,11.0
                1,brisk-event-loop,churn,50,yes,20000,200000,0.5,1.0,2.0,38.0,900,100,33.0
                1,baseline/brisk-event-loop,churn,50,yes,19000,190000,0.5,1.0,2.0,39.0,900,100,33.0
                """);
        Files.writeString(dir.resolve("environment.txt"), "baseline: HEAD~1 = 0123abc\n");
        Report.main(new String[] {dir.toString()});
        String md = Files.readString(dir.resolve("report.md"));
        String cmp = md.substring(md.indexOf("## This tree against the baseline"), md.indexOf("## hello"));
        // req/s ranges overlap: noise; CPU and bytes lower with no overlap: better; the invalid round unused
        assertThat(cmp).contains("| hello | brisk-event-loop | req/s | 100,000 (98,000–102,000) | 99,000 (97,000–100,000) | 0.990 (-1.0 %) | 1.020 0.951 | within spread |");
        assertThat(cmp).contains("| hello | brisk-event-loop | CPU µs/req | 6.70 (6.60–6.80) | 6.10 (6.00–6.20) | 0.910 (-9.0 %) | 0.909 0.912 | **better**, outside spread |");
        assertThat(cmp).contains("| hello | brisk-event-loop | B/req | 240 (240–240) | 140 (140–140) | 0.583 (-41.7 %) | 0.583 0.583 | **better**, outside spread |");
        // one round says nothing about the spread
        assertThat(cmp).contains("| churn | brisk-event-loop | CPU µs/req | 39.00 (39.00–39.00) | 38.00 (38.00–38.00) | 0.974 (-2.6 %) | 0.974 | one round: no spread |");
        assertThat(cmp).doesNotContain("netty");
        // the baseline is Brisk, never the best peer; its raw file names have no slash
        assertThat(md).contains("| **baseline/brisk-event-loop** | 100,000 (98,000–102,000) | 2.00× |");
        assertThat(md).contains("round 3 baseline/brisk-event-loop hello (raw/r3-baseline_brisk-event-loop-hello.txt)");
        assertThat(Files.readString(dir.resolve("cpu.svg"))).contains(">baseline/brisk-event-loop<").contains("#ffa94d");
        assertThat(Report.isBrisk("baseline/brisk-worker-pool")).isTrue();
        assertThat(Report.isBrisk("baseline/netty")).isFalse();
        assertThat(Report.fileName("baseline/netty")).isEqualTo("baseline_netty");
    }

    @Test
    void noBaselineSectionWithoutBothBuildsOfAServer(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("results.csv"), """
                round,server,scenario,connections,valid,rps,requests,p50_ms,p99_ms,p999_ms,cpu_us_per_req,bytes_per_req,rss_mb,kernel_us_per_req
                1,brisk-event-loop,hello,50,yes,100000,1000000,0.5,1.0,2.0,6.0,140,100,5.0
                1,baseline/netty,hello,50,yes,50000,500000,0.9,2.0,3.0,15.0,1500,120,11.0
                """);
        Report.main(new String[] {dir.toString()});
        assertThat(Files.readString(dir.resolve("report.md"))).doesNotContain("against the baseline").contains("| baseline/netty |");
    }
}
