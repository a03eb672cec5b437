package dev.brisk.examples;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Measures heap bytes the server allocates per request: every thread's allocation counter (carrier
 * threads included, so virtual-thread handlers count) minus the probe client's own thread, over a
 * fixed number of keep-alive requests after a warm-up.
 *
 * <p>Run: {@code ./brisk alloc [requests] [scenario filter]}.
 */
public final class AllocationProbe {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationProbe() {
    }

    /** Bytes allocated by the server per request for {@code request}, sent {@code n} times on one connection. */
    public static double bytesPerRequest(int port, String request, int warmup, int n) throws IOException {
        byte[] req = request.getBytes(StandardCharsets.ISO_8859_1);
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[64 * 1024];
            exchange(out, in, req, buf, warmup);
            long client0 = THREADS.getCurrentThreadAllocatedBytes();
            long total0 = THREADS.getTotalThreadAllocatedBytes();
            exchange(out, in, req, buf, n);
            long total1 = THREADS.getTotalThreadAllocatedBytes();
            long client1 = THREADS.getCurrentThreadAllocatedBytes();
            return (double) ((total1 - total0) - (client1 - client0)) / n;
        }
    }

    /** Sends {@code count} requests one at a time and reads each whole response without allocating. */
    private static void exchange(OutputStream out, InputStream in, byte[] req, byte[] buf, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            out.write(req);
            readResponse(in, buf);
        }
    }

    private static void readResponse(InputStream in, byte[] buf) throws IOException {
        int len = 0;
        int headEnd = -1;
        long contentLength = 0;
        while (true) {
            int n = in.read(buf, len, buf.length - len);
            if (n < 0) {
                throw new IOException("server closed the connection");
            }
            len += n;
            if (headEnd < 0) {
                for (int i = 3; i < len; i++) {
                    if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
                        headEnd = i + 1;
                        contentLength = contentLength(buf, headEnd);
                        break;
                    }
                }
            }
            if (headEnd >= 0 && len >= headEnd + contentLength) {
                return;
            }
        }
    }

    private static long contentLength(byte[] b, int headEnd) {
        byte[] name = "\r\ncontent-length:".getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + name.length < headEnd; i++) {
            for (int j = 0; j < name.length; j++) {
                int c = b[i + j];
                if (c >= 'A' && c <= 'Z') {
                    c += 32;
                }
                if (c != name[j]) {
                    continue outer;
                }
            }
            long v = 0;
            for (int k = i + name.length; k < headEnd; k++) {
                if (b[k] >= '0' && b[k] <= '9') {
                    v = v * 10 + (b[k] - '0');
                } else if (b[k] != ' ') {
                    break;
                }
            }
            return v;
        }
        return 0;
    }

    /** The request count argument; anything but a positive int is a usage error (one line, exit 2), not a stack trace. */
    private static int requests(String arg) {
        try {
            int n = Integer.parseInt(arg);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        System.err.println("brisk alloc: N must be a whole number of requests from 1 to " + Integer.MAX_VALUE + ", got '" + arg + "'");
        System.exit(2);
        return 0;
    }

    public static void main(String[] args) throws IOException {
        int n = args.length > 0 ? requests(args[0]) : 200_000;
        String body = "x".repeat(1024);
        String[][] scenarios = {
            {"fast-static GET /health", "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"},
            {"GET /hello", "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"},
            {"GET /json", "GET /json HTTP/1.1\r\nHost: localhost\r\n\r\n"},
            {"GET /users/42?active=true", "GET /users/42?active=true HTTP/1.1\r\nHost: localhost\r\n\r\n"},
            {"POST /echo (1 KiB)", "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 1024\r\n\r\n" + body},
            {"POST /consume (1 KiB)", "POST /consume HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1024\r\n\r\n" + body},
        };
        System.out.printf("Bytes allocated per request on the server (%d requests after %d warm-up, one keep-alive connection, JDK %s)%n",
                n, n / 2, Runtime.version());
        System.out.printf("%-28s %14s %14s %14s%n", "scenario", "event-loop", "virtual-thr", "worker-pool");
        String only = args.length > 1 ? args[1] : "";
        for (String[] sc : scenarios) {
            if (!sc[0].contains(only)) {
                continue;
            }
            StringBuilder line = new StringBuilder(String.format("%-28s", sc[0]));
            for (Dispatch d : Dispatch.values()) {
                try (Brisk app = Brisk.create(cfg -> {
                    cfg.configSource(ConfigSource.empty());
                    cfg.host("127.0.0.1").port(0).dispatch(d);
                    ExampleApp.routes(cfg);
                }).start()) {
                    double b = bytesPerRequest(app.port(), sc[1], n / 2, n);
                    line.append(String.format(" %12.1f B", b));
                }
            }
            System.out.println(line);
        }
    }
}
