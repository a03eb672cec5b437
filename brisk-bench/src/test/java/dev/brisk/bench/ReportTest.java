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
}
