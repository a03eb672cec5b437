package dev.brisk.bench.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.bench.ScenarioChecks;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Spark answers every scenario as the other harness servers do (brisk-bench's ScenarioConformanceTest). */
class SparkConformanceTest {
    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void answersEveryScenarioAndClosesAfterConnectionClose() throws Exception {
        int port = freePort();
        try (SparkServer server = new SparkServer()) {
            server.start(port);
            ScenarioChecks.answersEveryScenario(port);
            assertThat(ScenarioChecks.closesAfterConnectionClose(port)).as("closes after Connection: close").isTrue();
        }
    }
}
