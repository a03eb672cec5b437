import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load of bench/hostile-bodies.sh, run by the JDK's source launcher ({@code java HostileBodies.java}):
 * at once, large uploads (default 60 x 10 MiB), medium ones (200 x 1 MiB) and slow ones (1,000 x
 * 32 KiB trickled at 4 KiB/s), all POSTed whole to {@code /upload} on 127.0.0.1, while one keep-alive
 * connection asks {@code GET /hello} every 10 ms and times it. Prints the statuses per group, how long
 * each group's uploads took to be answered (p50, max), and the /hello latencies. Every socket read is bounded (60 s) and the whole run too.
 *
 * <p>With {@code --probe-until FILE} this process only probes {@code /hello}, until FILE exists (at most
 * 200 s), and prints the latencies; it creates FILE.ready once its own warm-up is done: bench/hostile-bodies.sh runs the prober as a process of its own at a
 * higher priority, so what it times is the server's delay, not the load generator's (its 2,500 threads
 * and its collector share the client's core with the prober).
 *
 * <p>Usage: {@code java HostileBodies.java PORT [--big N] [--big-size BYTES] [--mid N] [--mid-size BYTES]
 * [--slow N] [--slow-size BYTES] [--slow-rate BYTES_PER_S] [--path /upload] [--no-probe]}, or
 * {@code java HostileBodies.java PORT --probe-until FILE}
 */
public final class HostileBodies {
    private static final int TIMEOUT_MS = 60_000;

    private record Group(String name, int count, int size, int bytesPerSecond) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: java HostileBodies.java PORT [--big N] [--big-size B] [--mid N] [--mid-size B]"
                    + " [--slow N] [--slow-size B] [--slow-rate B/s] [--path P]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        Map<String, String> o = new TreeMap<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--no-probe")) {
                o.put(args[i], "");
            } else if (i + 1 < args.length) {
                o.put(args[i], args[++i]);
            }
        }
        if (o.containsKey("--probe-until")) {
            probeUntil(port, java.nio.file.Path.of(o.get("--probe-until")));
            return;
        }
        String path = o.getOrDefault("--path", "/upload");
        boolean probing = !o.containsKey("--no-probe");
        List<Group> groups = List.of(
                new Group("big", Integer.parseInt(o.getOrDefault("--big", "60")),
                        Integer.parseInt(o.getOrDefault("--big-size", String.valueOf(10 << 20))), 0),
                new Group("mid", Integer.parseInt(o.getOrDefault("--mid", "200")),
                        Integer.parseInt(o.getOrDefault("--mid-size", String.valueOf(1 << 20))), 0),
                new Group("slow", Integer.parseInt(o.getOrDefault("--slow", "1000")),
                        Integer.parseInt(o.getOrDefault("--slow-size", String.valueOf(32 << 10))),
                        Integer.parseInt(o.getOrDefault("--slow-rate", String.valueOf(4 << 10)))));
        int largest = groups.stream().mapToInt(Group::size).max().orElse(0);
        byte[] payload = new byte[largest];
        Arrays.fill(payload, (byte) 'x');

        Map<String, Map<String, LongAdder>> statuses = new ConcurrentHashMap<>();
        Map<String, List<Long>> answerMillis = new ConcurrentHashMap<>();
        List<Long> helloNanos = new ArrayList<>();
        AtomicBoolean loading = new AtomicBoolean(true);
        Thread prober = probing
                ? Thread.ofPlatform().name("hello-prober").start(() -> probe(port, loading, helloNanos, new ArrayList<>(), () -> { }))
                : null;

        long start = System.nanoTime();
        int total = groups.stream().mapToInt(Group::count).sum();
        CountDownLatch done = new CountDownLatch(total);
        // the slow ones first: they hold their connections (and their bodies' reservations) through the bursts
        for (Group g : List.of(groups.get(2), groups.get(0), groups.get(1))) {
            for (int i = 0; i < g.count(); i++) {
                Thread.ofVirtual().start(() -> {
                    try {
                        long t0 = System.nanoTime();
                        String status = upload(port, path, payload, g);
                        statuses.computeIfAbsent(g.name(), k -> new ConcurrentHashMap<>())
                                .computeIfAbsent(status, k -> new LongAdder()).increment();
                        List<Long> ms = answerMillis.computeIfAbsent(g.name(), k -> new ArrayList<>());
                        synchronized (ms) {
                            ms.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                        }
                    } finally {
                        done.countDown();
                    }
                });
            }
            if (g.bytesPerSecond() > 0) {
                Thread.sleep(500);
            }
        }
        boolean finished = done.await(180, TimeUnit.SECONDS);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        loading.set(false);
        if (prober != null) {
            prober.join(TIMEOUT_MS);
        }

        for (Group g : groups) {
            Map<String, LongAdder> s = new TreeMap<>(statuses.getOrDefault(g.name(), Map.of()));
            StringBuilder line = new StringBuilder();
            s.forEach((k, v) -> line.append(' ').append(k).append('=').append(v.sum()));
            List<Long> ms = answerMillis.getOrDefault(g.name(), List.of());
            synchronized (ms) {
                long[] m = ms.stream().mapToLong(Long::longValue).sorted().toArray();
                if (m.length > 0) {
                    line.append(String.format(" (answered in p50 %d ms, max %d ms)", m[m.length / 2], m[m.length - 1]));
                }
            }
            System.out.printf("uploads %-4s %5d x %8d B:%s%n", g.name(), g.count(), g.size(), line);
        }
        if (probing) {
            printHello(helloNanos);
        }
        System.out.printf("load: %d ms%s%n", elapsedMs, finished ? "" : " (stopped at the 180 s bound: some uploads never ended)");
        System.exit(finished ? 0 : 1);
    }

    /**
     * The prober process: warms up, creates {@code stop}'s name + {@code .ready}, probes until {@code stop}
     * exists (at most 200 s), then prints what it saw.
     */
    private static void probeUntil(int port, java.nio.file.Path stop) throws InterruptedException {
        AtomicBoolean loading = new AtomicBoolean(true);
        List<Long> nanos = new ArrayList<>();
        List<String> slow = new ArrayList<>();
        java.nio.file.Path ready = stop.resolveSibling(stop.getFileName() + ".ready");
        Thread prober = Thread.ofPlatform().name("hello-prober").start(() -> probe(port, loading, nanos, slow, () -> {
            try {
                java.nio.file.Files.createFile(ready);
            } catch (IOException e) {
                System.err.println("prober: cannot mark itself ready: " + e);
            }
        }));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(200);
        while (!java.nio.file.Files.exists(stop) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        loading.set(false);
        prober.join(TIMEOUT_MS);
        printHello(nanos);
        synchronized (slow) {
            slow.forEach(System.out::println);
        }
    }

    private static void printHello(List<Long> helloNanos) {
        long[] sorted;
        synchronized (helloNanos) {
            sorted = helloNanos.stream().mapToLong(Long::longValue).sorted().toArray();
        }
        if (sorted.length == 0) {
            System.out.println("hello: no answer during the load");
        } else {
            System.out.printf("hello: %d answered, p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", sorted.length,
                    sorted[sorted.length / 2] / 1e6, sorted[(int) Math.min(sorted.length - 1, sorted.length * 0.99)] / 1e6,
                    sorted[sorted.length - 1] / 1e6);
        }
    }

    /**
     * GET /hello every 10 ms on one keep-alive connection (reopened if it fails) while {@code loading};
     * each answer over 50 ms is also noted in {@code slow} with when it was asked.
     */
    private static void probe(int port, AtomicBoolean loading, List<Long> nanos, List<String> slow, Runnable ready) {
        byte[] req = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        warmUp(port, req);
        ready.run();
        long began = System.nanoTime();
        Socket s = null;
        while (loading.get()) {
            long t0 = System.nanoTime();
            boolean fresh = s == null;
            try {
                if (s == null) {
                    s = connect(port);
                }
                s.getOutputStream().write(req);
                String status = readResponse(s.getInputStream());
                if (status.equals("200")) {
                    long took = System.nanoTime() - t0;
                    synchronized (nanos) {
                        nanos.add(took);
                    }
                    if (took > TimeUnit.MILLISECONDS.toNanos(50)) {
                        synchronized (slow) {
                            slow.add(String.format("slow hello: %.1f ms, asked %d ms into the probing (at %s)%s", took / 1e6,
                                    TimeUnit.NANOSECONDS.toMillis(t0 - began), java.time.Instant.now().minusNanos(took),
                                    fresh ? " on a new connection" : ""));
                        }
                    }
                }
            } catch (IOException e) {
                synchronized (slow) {
                    slow.add(String.format("hello failed after %.1f ms, %d ms into the probing: %s", (System.nanoTime() - t0) / 1e6,
                            TimeUnit.NANOSECONDS.toMillis(t0 - began), e));
                }
                close(s);
                s = null;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                break;
            }
        }
        close(s);
    }

    /**
     * Asks /hello untimed, on new connections and on one kept alive, so that the first timed request is not
     * this process's own cold start (loading and interpreting its socket code took 65-108 ms against an
     * idle server on the test machine, 2026-12-07, which the first probe then counted as the server's).
     */
    private static void warmUp(int port, byte[] req) {
        for (int i = 0; i < 200; i++) {
            try (Socket s = connect(port)) {
                for (int j = 0; j < (i % 20 == 0 ? 20 : 1); j++) {
                    s.getOutputStream().write(req);
                    readResponse(s.getInputStream());
                }
            } catch (IOException e) {
                System.err.println("prober warm-up: " + e);
                return;
            }
        }
    }

    /** One upload: its status, or what went wrong ({@code reset}, {@code timeout}). */
    private static String upload(int port, String path, byte[] payload, Group g) {
        Socket s = null;
        try {
            s = connect(port);
            Socket sock = s;
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: " + g.size()
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            // the body goes out on a thread of its own: a refused upload is answered before it is sent
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    if (g.bytesPerSecond() == 0) {
                        for (int off = 0; off < g.size(); off += 64 << 10) {
                            out.write(payload, off, Math.min(64 << 10, g.size() - off));
                        }
                    } else {
                        int piece = Math.max(1, g.bytesPerSecond() / 4); // four pieces a second
                        for (int off = 0; off < g.size() && !sock.isClosed(); off += piece) {
                            out.write(payload, off, Math.min(piece, g.size() - off));
                            Thread.sleep(250);
                        }
                    }
                } catch (IOException | InterruptedException cutOff) {
                    // refused, or the answer came first: the server stopped reading
                }
            });
            String status = readResponse(s.getInputStream());
            close(s);
            writer.join(TIMEOUT_MS);
            return status;
        } catch (java.net.SocketTimeoutException e) {
            return "timeout";
        } catch (IOException e) {
            return "reset";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            close(s);
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MS);
        s.setSoTimeout(TIMEOUT_MS);
        return s;
    }

    /** Reads one response (head, then a Content-Length body); returns its status code. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before a whole response head");
            }
            head.append((char) b);
        }
        String h = head.toString();
        String status = h.substring(9, 12);
        int cl = h.toLowerCase().indexOf("\r\ncontent-length:");
        if (cl >= 0) {
            int end = h.indexOf("\r\n", cl + 2);
            long n = Long.parseLong(h.substring(cl + 17, end).trim());
            in.readNBytes((int) n);
        }
        return status;
    }

    private static void close(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
