package dev.brisk.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.jar.JarEntry;

/**
 * Resources of a class loader under a root name, such as {@code public}: from jars (the entry's size,
 * time and CRC give the metadata; a jar's directory entries are directories), from directories on the
 * class path (then as files, sent straight from the file), or any other URL the loader gives (its
 * connection's length and time; a length it does not give is counted by reading the resource once). On the module path a resource in a named module is found only when
 * its directory is not a package, or the package is open: name the root so it is not a Java package
 * name ({@code public}, {@code static}, {@code META-INF/resources}).
 *
 * <p>Names reach the loader only after {@link RequestPath} has checked them, so a lookup cannot climb
 * out of the root. Hidden names (a leading dot) were refused there already, unless allowed.
 * Immutable; thread-safe.
 */
public final class ClasspathSource implements Source {
    /** How many resources of unknown length {@link #counted} remembers before it starts again. */
    private static final int COUNTED_MAX = 1024;
    private final ClassLoader loader;
    private final String root;
    /** Lengths counted by reading, by URL: {last modified, length}; a resource changed since is counted again. */
    private final java.util.concurrent.ConcurrentHashMap<String, long[]> counted = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param root the resource name prefix, without leading or trailing slash; empty for all */
    public ClasspathSource(ClassLoader loader, String root) {
        this.loader = loader;
        String r = root;
        while (r.startsWith("/")) {
            r = r.substring(1);
        }
        while (r.endsWith("/")) {
            r = r.substring(0, r.length() - 1);
        }
        this.root = r;
    }

    @Override
    public Resource find(List<String> segments) throws IOException {
        String name = segments.isEmpty() ? root : (root.isEmpty() ? "" : root + "/") + String.join("/", segments);
        URL url = name.isEmpty() ? null : loader.getResource(name);
        if (url == null) {
            return null;
        }
        if (url.getProtocol().equals("file")) {
            Path p;
            try {
                p = Path.of(url.toURI());
            } catch (URISyntaxException | IllegalArgumentException e) {
                return null;
            }
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class);
            } catch (NoSuchFileException e) {
                return null;
            }
            if (!a.isRegularFile() && !a.isDirectory()) {
                return null;
            }
            return new DirectorySource.FileResource(p, a);
        }
        URLConnection c = url.openConnection();
        if (c instanceof JarURLConnection jar) {
            JarEntry e = jar.getJarEntry();
            if (e == null) {
                return null;
            }
            return new JarResource(jar, e);
        }
        return UrlResource.of(url, c, counted);
    }

    /** An entry of a jar; its stream comes from the jar file the JDK keeps open for the loader. */
    private record JarResource(JarURLConnection connection, JarEntry entry) implements Resource {
        @Override
        public boolean isDirectory() {
            return entry.isDirectory();
        }

        @Override
        public long length() {
            return Math.max(0, entry.getSize());
        }

        @Override
        public long lastModified() {
            return entry.getTime();
        }

        @Override
        public String etag(String suffix) {
            long crc = entry.getCrc();
            return crc < 0 ? null : "\"" + Long.toHexString(crc) + "-" + Long.toHexString(length()) + suffix + "\"";
        }

        @Override
        public SizedBody open(long start, long count, Runnable release) throws IOException {
            InputStream in;
            try {
                in = connection.getInputStream();
            } catch (IOException | RuntimeException e) {
                release.run();
                throw e;
            }
            SizedBody body = Resource.slice(in, start, count, release);
            return start == 0 && count == length() ? body.keyed(contentKey()) : body;
        }

        @Override
        public Object contentKey() {
            long crc = entry.getCrc();
            // a jar's entry does not change under its loader: its name, CRC and size tell its bytes
            return crc < 0 ? null : List.of(connection.getJarFileURL().toExternalForm(), entry.getName(), crc, length());
        }

        @Override
        public byte[] read(long start, int count) throws IOException {
            try (InputStream in = connection.getInputStream()) {
                in.skipNBytes(start);
                return in.readNBytes(count);
            }
        }
    }

    /**
     * Any other resource URL: what its connection tells. A connection that does not tell the length
     * (a class loader's own URL handler may not) has the resource read through once to count it, and
     * every read then opens the URL anew (a connection gives its stream once); served as empty, as it
     * once was, the answer would lose the content. The count is remembered while the connection gives
     * the same last-modified time (one that gives none is counted at each request).
     *
     * @param reopen the URL to open for each read, or null to read {@code connection} (its length known)
     */
    private record UrlResource(URLConnection connection, URL reopen, long length) implements Resource {
        static UrlResource of(URL url, URLConnection c, java.util.Map<String, long[]> counted) throws IOException {
            long n = c.getContentLengthLong();
            if (n >= 0) {
                return new UrlResource(c, null, n);
            }
            String key = url.toExternalForm();
            long modified = c.getLastModified();
            long[] known = counted.get(key);
            if (known != null && known[0] == modified && modified != 0) {
                return new UrlResource(c, url, known[1]); // counted before, and not changed since
            }
            try (InputStream in = c.getInputStream()) {
                n = in.transferTo(OutputStream.nullOutputStream());
            }
            if (counted.size() >= COUNTED_MAX) {
                counted.clear();
            }
            counted.put(key, new long[] {modified, n});
            return new UrlResource(c, url, n);
        }

        private InputStream stream() throws IOException {
            return reopen == null ? connection.getInputStream() : reopen.openStream();
        }

        @Override
        public boolean isDirectory() {
            return false;
        }

        @Override
        public long lastModified() {
            long t = connection.getLastModified();
            return t == 0 ? -1 : t;
        }

        @Override
        public String etag(String suffix) {
            long t = lastModified();
            return t < 0 ? null : EntityTags.of(t, length(), suffix);
        }

        @Override
        public SizedBody open(long start, long count, Runnable release) throws IOException {
            InputStream in;
            try {
                in = stream();
            } catch (IOException | RuntimeException e) {
                release.run();
                throw e;
            }
            return Resource.slice(in, start, count, release);
        }

        @Override
        public byte[] read(long start, int count) throws IOException {
            try (InputStream in = stream()) {
                in.skipNBytes(start);
                return in.readNBytes(count);
            }
        }
    }
}
