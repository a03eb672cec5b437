package dev.brisk.internal.transport;

/**
 * The way to the io_uring transport, which is compiled for JDK 22 (it calls the kernel through the FFM
 * API): no class compiled for 21 names it, so this one loads it by name, and only on a JDK 22 or newer.
 * On JDK 21, or from a jar built on JDK 21 (which has no such class), it answers why not instead.
 */
public final class Uring {
    private static final String IMPL = "dev.brisk.internal.uring.UringTransport";
    private static volatile String unavailable;
    private static volatile boolean probed;

    private Uring() {
    }

    /** What the implementation offers, through the one interface compiled for JDK 21. */
    public interface Provider {
        /** Why io_uring cannot be used here (probed once), or null when it can. */
        String unavailable();

        /** A transport with {@code loops} rings and threads. */
        ListeningTransport open(TransportHost host, int loops) throws java.io.IOException;
    }

    /** Thrown where io_uring cannot be used; the message says why. */
    public static final class Unavailable extends java.io.IOException {
        private static final long serialVersionUID = 1L;

        Unavailable(String why) {
            super(why);
        }
    }

    /** Why io_uring cannot be used in this process, or null when it can. Any thread; probes once. */
    public static String unavailable() {
        if (!probed) {
            synchronized (Uring.class) {
                if (!probed) {
                    unavailable = probe();
                    probed = true;
                }
            }
        }
        return unavailable;
    }

    /** A transport with {@code loops} rings, or {@link Unavailable} saying why there can be none. */
    public static ListeningTransport open(TransportHost host, int loops) throws java.io.IOException {
        String why = unavailable();
        if (why != null) {
            throw new Unavailable(why);
        }
        try {
            return provider().open(host, loops);
        } catch (ReflectiveOperationException e) {
            throw new Unavailable("the io_uring transport cannot be loaded: " + e);
        }
    }

    private static String probe() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return "io_uring is Linux only (this is " + System.getProperty("os.name") + ")";
        }
        int feature = Runtime.version().feature();
        if (feature < 22) {
            return "the io_uring transport needs JDK 22 or newer (FFM API); this is JDK " + feature;
        }
        Provider p;
        try {
            p = provider();
        } catch (ReflectiveOperationException | LinkageError e) {
            return "this build of brisk-core has no io_uring transport (built on JDK 21?): " + e;
        }
        try {
            return p.unavailable();
        } catch (RuntimeException | LinkageError e) {
            Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof IllegalCallerException) {
                // --illegal-native-access=deny without --enable-native-access for Brisk
                return "native access is denied to Brisk (" + cause.getMessage() + "); allow it with "
                        + "--enable-native-access=ALL-UNNAMED, or =dev.brisk on the module path";
            }
            return "io_uring probe failed: " + cause;
        }
    }

    private static Provider provider() throws ReflectiveOperationException {
        // by name, not by reference: the class is compiled for JDK 22 and must not be linked on 21
        return Class.forName(IMPL).asSubclass(Provider.class).getDeclaredConstructor().newInstance();
    }
}
