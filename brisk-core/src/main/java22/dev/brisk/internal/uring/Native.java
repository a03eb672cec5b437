package dev.brisk.internal.uring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls the io_uring transport makes, as FFM downcalls: the io_uring system calls (through
 * {@code syscall}, libc has no wrappers), the socket calls, {@code mmap}, {@code eventfd}. Each returns
 * the call's result or throws an {@link IOException} naming the call and {@code errno}. Any thread; each
 * call that reports {@code errno} uses a small segment of the calling thread's own.
 */
final class Native {
    static final int SYS_IO_URING_SETUP = 425;
    static final int SYS_IO_URING_ENTER = 426;
    static final int SYS_IO_URING_REGISTER = 427;

    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EBUSY = 16;
    static final int ETIME = 62;
    static final int ECANCELED = 125;
    static final int ENOENT = 2;
    static final int EALREADY = 114;

    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int SOCK_STREAM = 1;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int SOL_SOCKET = 1;
    static final int SO_REUSEADDR = 2;
    static final int SO_LINGER = 13;
    static final int IPPROTO_TCP = 6;
    static final int TCP_NODELAY = 1;
    static final int SHUT_WR = 1;
    static final int EFD_CLOEXEC = 0x80000;
    static final int EFD_NONBLOCK = 0x800;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private static final MethodHandle SYSCALL = handle("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1), ERRNO_OPTION);
    private static final MethodHandle SOCKET = handle("socket",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle SETSOCKOPT = handle("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle BIND = handle("bind",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle LISTEN = handle("listen",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle GETSOCKNAME = handle("getsockname",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), ERRNO_OPTION);
    private static final MethodHandle GETPEERNAME = handle("getpeername",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), ERRNO_OPTION);
    private static final MethodHandle SHUTDOWN = handle("shutdown",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle CLOSE = handle("close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle EVENTFD = handle("eventfd",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPTION);
    private static final MethodHandle WRITE = handle("write",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_OPTION);
    private static final MethodHandle MMAP = handle("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), ERRNO_OPTION);
    private static final MethodHandle MUNMAP = handle("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_OPTION);
    private static final MethodHandle STRERROR = handle("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));

    /** errno capture space, one per thread: a downcall writes it, the caller reads it right after. */
    private static final ThreadLocal<MemorySegment> STATE = ThreadLocal.withInitial(
            () -> Arena.ofAuto().allocate(CAPTURE));

    private Native() {
    }

    private static MethodHandle handle(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment fn = LIBC.find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(fn, fd, options);
    }

    /** The errno of the calling thread's last call here. */
    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    static IOException error(String call, int errno) {
        return new IOException(call + ": " + strerror(errno) + " (errno " + errno + ")");
    }

    /** A raw system call: the kernel's result, or {@code -errno} (no exception: the ring's callers decide). */
    static long syscall(long nr, long a, long b, long c, long d, long e, long f) {
        MemorySegment st = STATE.get();
        try {
            long r = (long) SYSCALL.invokeExact(st, nr, a, b, c, d, e, f);
            return r == -1 ? -errno(st) : r;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int socket(int domain, int type, int protocol) throws IOException {
        MemorySegment st = STATE.get();
        try {
            return check("socket", (int) SOCKET.invokeExact(st, domain, type, protocol), st);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void setIntOption(int fd, int level, int name, int value) throws IOException {
        MemorySegment st = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            v.set(JAVA_INT, 0, value);
            check("setsockopt", (int) SETSOCKOPT.invokeExact(st, fd, level, name, v, 4), st);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code SO_LINGER} on, 0 seconds: the socket's close is a reset, and what it has not sent is dropped. */
    static void lingerZero(int fd) throws IOException {
        MemorySegment st = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(8); // struct linger { int l_onoff; int l_linger; }
            v.set(JAVA_INT, 0, 1);
            v.set(JAVA_INT, 4, 0);
            check("setsockopt", (int) SETSOCKOPT.invokeExact(st, fd, SOL_SOCKET, SO_LINGER, v, 8), st);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void bind(int fd, MemorySegment addr) throws IOException {
        MemorySegment st = STATE.get();
        try {
            check("bind", (int) BIND.invokeExact(st, fd, addr, (int) addr.byteSize()), st);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void listen(int fd, int backlog) throws IOException {
        MemorySegment st = STATE.get();
        try {
            check("listen", (int) LISTEN.invokeExact(st, fd, backlog), st);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The port {@code fd} is bound to. */
    static int localPort(int fd) throws IOException {
        MemorySegment st = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addr = a.allocate(128);
            MemorySegment len = a.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, 128);
            check("getsockname", (int) GETSOCKNAME.invokeExact(st, fd, addr, len), st);
            // sin_port and sin6_port both sit at offset 2, in network byte order
            return ((addr.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 2) & 0xff) << 8)
                    | (addr.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 3) & 0xff);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * The address of {@code fd}'s peer (getpeername(2)) as sockaddr bytes, made in {@code buf} (132 bytes
     * at least: the address, then its length at 128).
     *
     * @return the bytes, or null when the socket has no peer any more (reset before this call)
     */
    static byte[] peerName(int fd, MemorySegment buf) {
        MemorySegment st = STATE.get();
        buf.set(JAVA_INT, 128, 128);
        try {
            if ((int) GETPEERNAME.invokeExact(st, fd, buf, buf.asSlice(128, 4)) < 0) {
                return null;
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
        int len = Math.min(128, Math.max(0, buf.get(JAVA_INT, 128)));
        return buf.asSlice(0, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** shutdown(2); errors are ignored (the peer may be gone already). */
    static void shutdown(int fd, int how) {
        MemorySegment st = STATE.get();
        try {
            int ignored = (int) SHUTDOWN.invokeExact(st, fd, how);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** close(2); errors are ignored (nothing to do about them). */
    static void close(int fd) {
        MemorySegment st = STATE.get();
        try {
            int ignored = (int) CLOSE.invokeExact(st, fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int eventfd() throws IOException {
        MemorySegment st = STATE.get();
        try {
            return check("eventfd", (int) EVENTFD.invokeExact(st, 0, EFD_CLOEXEC | EFD_NONBLOCK), st);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** write(2) of {@code len} bytes at {@code buf}; the result or {@code -errno}. */
    static long write(int fd, MemorySegment buf, long len) {
        MemorySegment st = STATE.get();
        try {
            long r = (long) WRITE.invokeExact(st, fd, buf, len);
            return r == -1 ? -errno(st) : r;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** mmap(2) of a ring of {@code fd} (MAP_SHARED | MAP_POPULATE, read and write), sized {@code len}. */
    static MemorySegment mmapRing(int fd, long len, long offset) throws IOException {
        MemorySegment st = STATE.get();
        try {
            MemorySegment p = (MemorySegment) MMAP.invokeExact(st, MemorySegment.NULL, len, 3, 0x01 | 0x8000, fd, offset);
            if (p.address() == -1L) {
                throw error("mmap", errno(st));
            }
            return p.reinterpret(len);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void munmap(MemorySegment ring) {
        MemorySegment st = STATE.get();
        try {
            int ignored = (int) MUNMAP.invokeExact(st, ring, ring.byteSize());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static int check(String call, int r, MemorySegment st) throws IOException {
        if (r < 0) {
            throw error(call, errno(st));
        }
        return r;
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
