package dev.brisk.internal.uring;

import dev.brisk.internal.transport.ListeningTransport;
import dev.brisk.internal.transport.ProtocolFactory;
import dev.brisk.internal.transport.TransportHost;
import dev.brisk.internal.transport.Uring;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * The io_uring transport ({@code io=uring}): N {@link UringLoop}s, the first of which also accepts on
 * the listening sockets Brisk opens itself ({@code socket}, {@code bind}, {@code listen} through FFM)
 * and hands each connection to the least-loaded loop. Also the {@link Uring.Provider} the JDK-21 side
 * loads by name (the no-argument constructor).
 */
public final class UringTransport implements Uring.Provider, ListeningTransport {
    private final UringLoop[] loops;

    /** The provider: probes and opens transports. */
    public UringTransport() {
        this.loops = new UringLoop[0];
    }

    private UringTransport(TransportHost host, int n) throws IOException {
        loops = new UringLoop[n];
        try {
            for (int i = 0; i < n; i++) {
                loops[i] = new UringLoop(host, this, i);
            }
        } catch (IOException | RuntimeException e) {
            for (UringLoop l : loops) {
                if (l != null) {
                    l.closeUnstarted();
                }
            }
            throw e;
        }
    }

    @Override
    public String unavailable() {
        Ring ring;
        try {
            ring = new Ring(8);
        } catch (IOException e) {
            String m = e.getMessage();
            if (m.contains("errno 1)")) {
                m += " (io_uring forbidden: sysctl kernel.io_uring_disabled, or a seccomp filter such as a container's)";
            } else if (m.contains("errno 38)")) {
                m += " (the kernel has no io_uring)";
            }
            return m;
        }
        try {
            return ring.missingOpcodes();
        } finally {
            ring.close();
        }
    }

    @Override
    public ListeningTransport open(TransportHost host, int n) throws IOException {
        return new UringTransport(host, n);
    }

    @Override
    public int listen(String host, int port, int backlog, ProtocolFactory protocol) throws IOException {
        InetAddress addr = InetAddress.getByName(host);
        int fd = -1;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment sa = a.allocate(28, 8);
            if (addr instanceof Inet4Address && addr.isAnyLocalAddress()) {
                // as the JDK does: a wildcard IPv4 bind listens on IPv6's wildcard too (dual stack)
                try {
                    fd = Native.socket(Native.AF_INET6, Native.SOCK_STREAM | Native.SOCK_CLOEXEC, 0);
                    addr = InetAddress.getByName("::");
                } catch (IOException e) {
                    fd = -1; // no IPv6 here
                }
            }
            if (fd < 0) {
                fd = Native.socket(addr instanceof Inet4Address ? Native.AF_INET : Native.AF_INET6,
                        Native.SOCK_STREAM | Native.SOCK_CLOEXEC, 0);
            }
            Native.setIntOption(fd, Native.SOL_SOCKET, Native.SO_REUSEADDR, 1);
            // accepted sockets inherit it on Linux: no setsockopt per connection
            Native.setIntOption(fd, Native.IPPROTO_TCP, Native.TCP_NODELAY, 1);
            int len = SocketAddresses.encode(addr, port, sa);
            Native.bind(fd, sa.asSlice(0, len));
            Native.listen(fd, backlog);
            int bound = Native.localPort(fd);
            loops[0].listen(fd, protocol);
            return bound;
        } catch (IOException e) {
            if (fd >= 0) {
                Native.close(fd);
            }
            throw new IOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void start() {
        for (UringLoop l : loops) {
            l.start();
        }
    }

    @Override
    public void stopAccepting() {
        loops[0].stopAccepting();
    }

    @Override
    public void drain() {
        for (UringLoop l : loops) {
            l.drain();
        }
    }

    @Override
    public void stop() {
        for (UringLoop l : loops) {
            l.stop();
        }
    }

    /** The running loop with the fewest connections, or null when none runs. */
    UringLoop leastLoaded() {
        UringLoop best = null;
        int min = Integer.MAX_VALUE;
        for (UringLoop l : loops) {
            int n = l.load();
            if (n < min && l.isRunning()) {
                min = n;
                best = l;
            }
        }
        return best;
    }
}
