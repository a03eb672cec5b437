package dev.brisk.internal.uring;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.lang.foreign.MemorySegment;

/** Socket addresses in and out of {@code struct sockaddr_in}/{@code sockaddr_in6} bytes. */
final class SocketAddresses {
    private SocketAddresses() {
    }

    /** {@code host} and {@code port} as a sockaddr, in {@code into} (at least 28 bytes); its length. */
    static int encode(InetAddress host, int port, MemorySegment into) {
        byte[] a = host.getAddress();
        into.fill((byte) 0);
        boolean v6 = a.length == 16;
        into.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 0, (short) (v6 ? Native.AF_INET6 : Native.AF_INET));
        into.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 2, (byte) (port >>> 8));
        into.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 3, (byte) port);
        MemorySegment.copy(a, 0, into, java.lang.foreign.ValueLayout.JAVA_BYTE, v6 ? 8 : 4, a.length);
        return v6 ? 28 : 16;
    }

    /** A peer's sockaddr bytes as {@code host:port}, or {@code unknown}. */
    static String describe(byte[] sa) {
        if (sa == null || sa.length < 16) {
            return "unknown";
        }
        int family = (sa[0] & 0xff) | (sa[1] & 0xff) << 8;
        int port = (sa[2] & 0xff) << 8 | (sa[3] & 0xff);
        byte[] ip;
        if (family == Native.AF_INET) {
            ip = java.util.Arrays.copyOfRange(sa, 4, 8);
        } else if (family == Native.AF_INET6 && sa.length >= 24) {
            ip = java.util.Arrays.copyOfRange(sa, 8, 24);
        } else {
            return "unknown";
        }
        try {
            return InetAddress.getByAddress(ip).getHostAddress() + ":" + port;
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
