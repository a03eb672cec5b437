package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnginesReportTest {

    @Test
    void tablesPerWorkloadIdleMemoryWarmupAndCharts(@TempDir Path dir) throws Exception {
        String h = "round,config,workload,connections,valid,rps,requests,non2xx,connect_err,read_err,write_err,timeout_err,p50_ms,p99_ms,max_ms,cpu_us_per_req,rss_mb,threads,accept_queue_mid,accept_queue_end\n";
        Files.writeString(dir.resolve("results.csv"), h + """
                1,nio-event-loop,hello,50,yes,90000,900000,0,0,0,0,0,0.5,1.0,5.0,8.0,600,20
                2,nio-event-loop,hello,50,yes,100000,1000000,0,0,0,0,0,0.4,0.9,4.0,7.0,600,20
                1,blocking-virtual,hello,50,yes,70000,700000,0,0,0,0,0,0.6,1.5,6.0,10.0,600,21
                2,blocking-virtual,hello,50,no,10,100,0,3,0,0,0,0.6,99.0,99.0,99.0,600,21
                1,blocking-platform-200,sleep,1000,yes,9000,90000,12,0,0,0,800,20.1,5000,5001,30,700,215,799,799
                2,blocking-platform-200,sleep,1000,yes,9500,95000,14,0,4,0,800,20.1,5000,5001,30,700,215,799,797
                """);
        Files.writeString(dir.resolve("idle.csv"), """
                round,config,connections,ok,status503,other_status,failed,unanswered,open_ms,held,closed_by_server,heap_before_kb,heap_after_kb,rss_before_kb,rss_after_kb,threads_before,threads_after
                1,nio-event-loop,10000,10000,0,0,0,0,1900,10000,0,4000,30000,600000,601000,21,21
                1,blocking-platform-200,10000,200,20,0,0,1000,20000,200,0,4000,5000,600000,640000,21,221
                """);
        Files.writeString(dir.resolve("warmup.csv"), """
                round,config,probe_ready_ms,port_open_ms,first_response_ms,second,ok,errors,p50_ms,p99_ms,max_ms,unanswered
                1,nio-event-loop,90,400,450,1,10000,0,1,40,60,0
                1,nio-event-loop,90,400,450,2,40000,0,1,10,20,0
                """);
        Files.writeString(dir.resolve("workloads.txt"), """
                hello|hello: `GET /hello`|0
                sleep|sleep: `GET /sleep?ms=20`|1
                """);
        Files.writeString(dir.resolve("environment.txt"), "date: test\n");
        Files.writeString(dir.resolve("notes.md"), "Method: test.\n");
        EnginesReport.main(new String[] {dir.toString()});
        String md = Files.readString(dir.resolve("report.md"));

        assertThat(md).contains("date: test").contains("Method: test.");
        assertThat(md).contains("| nio-event-loop | 95,000 (90,000–100,000) | 7.5 | 0.45 | 0.95 (0.90–1.00) | 5.0 | 0 | 20 |");
        // the run with errors on a strict workload is left out and listed
        assertThat(md).contains("| blocking-virtual | 70,000 | 10.0 |").doesNotContain("99.0");
        assertThat(md).contains("round 2 blocking-virtual hello: 100 requests, errors connect 3");
        // on a tolerant workload errors stay in the result, in their own columns
        assertThat(md).contains("| blocking-platform-200 | 9,250 (9,000–9,500) | 30.0 | 20.10 | 5000.00 | 5001.0 | 0 / 2 (max 4) / 0 / 800 | 13 (max 14) | 799 / 798 (max 799) | 215 |");
        // (30,000 - 4,000) KiB over 10,000 connections; RSS 1,000 KiB over 10,000
        assertThat(md).contains("| nio-event-loop | 10,000 (10,000) | 2,662 | 102 | 21 → 21 | 1.9 | 0 / 0 / 0 | 0 |");
        assertThat(md).contains("| blocking-platform-200 | 200 (10,000) | 5,120 | 204,800 | 21 → 221 | 20.0 | 20 / 0 / 1,000 | 0 |");
        assertThat(md).contains("| nio-event-loop | 90 | 400 | 450 | 10,000 · 40,000 | 0 | 40.0 / 60.0 | 10.0 / 20.0 | 0.25 | 0 |");
        // only 200 held: in the table, not in the chart
        assertThat(Files.readString(dir.resolve("idle-memory.svg"))).doesNotContain("blocking-platform-200");
        for (String chart : new String[] {"rps.svg", "cpu.svg", "p99.svg", "idle-memory.svg", "warmup.svg"}) {
            assertThat(Files.readString(dir.resolve(chart))).startsWith("<svg").contains("nio-event-loop");
        }
    }
}
