package dev.brisk.bench;

import com.sun.management.ThreadMXBean;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * The process the harness starts for one server under test, whatever its class path: it starts the
 * server, answers each connection on the stats port with one line, {@code allocatedBytes cpuNanos} (the
 * heap bytes all threads have allocated so far and the process CPU time, read by the harness before and
 * after each run), prints {@code ready <name> on <port>}, and runs until SIGTERM. It names no server, so a
 * peer whose libraries cannot share brisk-bench's class path (Spark, in brisk-bench-spark) runs through
 * it too.
 */
public final class ServerProcess {
    private ServerProcess() {
    }

    /** Serves {@code server} as {@code name} until the process is stopped; {@code tls} may be null. */
    public static void run(String name, BenchServer server, int port, int statsPort, BenchTls tls) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ServerSocket stats = new ServerSocket(statsPort, 16, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("bench-stats").start(() -> {
            while (!stats.isClosed()) {
                try (Socket s = stats.accept(); OutputStream out = s.getOutputStream()) {
                    String line = threads.getTotalThreadAllocatedBytes() + " " + os.getProcessCpuTime() + "\n";
                    out.write(line.getBytes(StandardCharsets.US_ASCII));
                } catch (Exception e) {
                    // closed at shutdown
                }
            }
        });
        server.start(port, tls);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
                stats.close();
            } catch (Exception ignored) {
                // exiting anyway
            }
            stopped.countDown();
        }));
        System.out.println("ready " + name + " on " + port);
        stopped.await();
    }
}
