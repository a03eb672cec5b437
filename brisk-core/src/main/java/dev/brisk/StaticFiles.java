package dev.brisk;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Files served under a path prefix, from a directory or from class-path (or module-path) resources:
 * {@code cfg.staticFiles("/static", StaticFiles.directory(Path.of("web")).maxAge(Duration.ofHours(1)))}.
 * Immutable: every refining method returns a new value, so one can be mounted more than once.
 *
 * <p>What a mount serves, for {@code GET} and {@code HEAD}:
 * <ul>
 *   <li><b>Safe paths.</b> The path below the prefix is decoded once and checked segment by segment
 *       before anything is looked up: a {@code .} or {@code ..} segment however it was encoded
 *       ({@code %2e%2e}, {@code ..%2f}), a backslash, a control character or invalid UTF-8 (an overlong
 *       {@code %c0%ae}) is answered {@code 400}; a double-encoded name ({@code %252e}) is just a name.
 *       A symbolic link leading out of the directory is not followed unless {@link #followSymlinks};
 *       hidden files (a leading dot) are not found unless {@link #hiddenFiles}; nothing but regular
 *       files is ever sent (no devices, FIFOs or listings).</li>
 *   <li><b>Validators.</b> {@code ETag} (from the file's time and size; a jar entry's CRC and size) and
 *       {@code Last-Modified}; {@code If-None-Match} (weak comparison, lists, {@code *}) and
 *       {@code If-Modified-Since} answer {@code 304}, {@code If-Match} (strong) and
 *       {@code If-Unmodified-Since} answer {@code 412}, in the order of RFC 9110 section 13.2.2.</li>
 *   <li><b>Ranges.</b> {@code Range: bytes=...} on {@code GET}: one range is a {@code 206} with
 *       {@code Content-Range}, several a {@code 206 multipart/byteranges}; overlapping and adjacent
 *       ranges are merged first, and a set still larger than {@link #maxRanges} is ignored (the whole
 *       file is sent); none satisfiable: {@code 416} with {@code Content-Range: bytes *}{@code /length}.
 *       {@code If-Range} is honoured. Every response says {@code Accept-Ranges: bytes}.</li>
 *   <li><b>Content types</b> from a built-in table of extensions (text types with
 *       {@code charset=utf-8}), refined with {@link #contentType}; unknown extensions are
 *       {@code application/octet-stream}.</li>
 *   <li><b>Precompressed siblings.</b> For {@code app.js}, a file {@code app.js.br} or
 *       {@code app.js.gz} next to it is sent instead, with {@code Content-Encoding}, when the request's
 *       {@code Accept-Encoding} takes that coding (by q-value; {@code br} wins a tie); every response of
 *       such a mount says {@code Vary: Accept-Encoding}. Off with {@link #precompressed}.</li>
 *   <li><b>Directories.</b> A directory is served by its first {@link #indexFiles index file}; asked for
 *       without its trailing slash it is redirected ({@code 301}) to the path with one, so relative links
 *       in the page resolve; without an index it is {@code 404}. There are no listings.</li>
 *   <li><b>Caching.</b> {@link #cacheControl} or {@link #maxAge} set {@code Cache-Control}; without
 *       them there is none, and clients revalidate with the validators above.</li>
 * </ul>
 *
 * <p><b>How files are sent.</b> A small file (up to {@value #INLINE_LIMIT} bytes) is read whole on the
 * handler's thread and written with the response head in one write. A larger one is held open and sent
 * straight from the file by the engine ({@code FileChannel.transferTo}, the kernel's sendfile on Linux:
 * no copy through the Java heap) on the plain socket of either engine; a wire that needs the bytes
 * (a future TLS wire) gets them in bounded pieces. Files held open this way count against the
 * server-wide option {@code max-open-files}; at the bound a request is answered {@code 503} with
 * {@code Retry-After: 1}. A mount's routes run on virtual threads unless the {@link Route} returned by
 * {@link Routing#staticFiles} says otherwise: looking a file up and opening it may wait for the disk,
 * which must not stall an event loop.
 *
 * <p>Compression of files without a precompressed sibling is the {@link Compression} middleware's,
 * when the app uses it (never for ranges).
 */
public final class StaticFiles {
    /** Files up to this many bytes are read into memory and sent with the head; larger ones from the file. */
    public static final int INLINE_LIMIT = 12 * 1024;
    /** The default of {@link #maxRanges}. */
    public static final int DEFAULT_MAX_RANGES = 16;

    private final Path directory;
    private final ClassLoader loader;
    private final String resourceRoot;
    private final String cacheControl;
    private final List<String> indexFiles;
    private final boolean hiddenFiles;
    private final boolean followSymlinks;
    private final boolean precompressed;
    private final Map<String, String> contentTypes;
    private final int maxRanges;

    private StaticFiles(Path directory, ClassLoader loader, String resourceRoot, String cacheControl,
                        List<String> indexFiles, boolean hiddenFiles, boolean followSymlinks, boolean precompressed,
                        Map<String, String> contentTypes, int maxRanges) {
        this.directory = directory;
        this.loader = loader;
        this.resourceRoot = resourceRoot;
        this.cacheControl = cacheControl;
        this.indexFiles = indexFiles;
        this.hiddenFiles = hiddenFiles;
        this.followSymlinks = followSymlinks;
        this.precompressed = precompressed;
        this.contentTypes = contentTypes;
        this.maxRanges = maxRanges;
    }

    /**
     * Files under a directory of the file system. The directory must exist when the app is created.
     *
     * @param root the directory; relative paths are resolved against the working directory
     * @return the mount's files, with the defaults: index file {@code index.html}, no
     *     {@code Cache-Control}, hidden files and outward links not served, precompressed siblings used
     */
    public static StaticFiles directory(Path root) {
        Objects.requireNonNull(root, "root");
        return new StaticFiles(root, null, null, null, List.of("index.html"), false, false, true, Map.of(),
                DEFAULT_MAX_RANGES);
    }

    /**
     * Resources under {@code root} of the thread's context class loader (else this class's loader), as
     * a class path or a module path holds them. On the module path, resources of a named module are
     * found only outside its packages, so name the root so it is not a Java package name: a directory
     * such as {@code public} or {@code static} (keywords) or {@code META-INF/resources} works anywhere.
     *
     * @param root the resource directory, such as {@code public}; leading and trailing slashes ignored
     * @return the mount's files, with the defaults of {@link #directory}
     */
    public static StaticFiles classpath(String root) {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return classpath(l != null ? l : StaticFiles.class.getClassLoader(), root);
    }

    /**
     * Resources under {@code root} of {@code loader} (see {@link #classpath(String)}).
     *
     * @param loader where the resources are looked up
     * @param root the resource directory; leading and trailing slashes ignored
     * @return the mount's files, with the defaults of {@link #directory}
     */
    public static StaticFiles classpath(ClassLoader loader, String root) {
        Objects.requireNonNull(loader, "loader");
        Objects.requireNonNull(root, "root");
        return new StaticFiles(null, loader, root, null, List.of("index.html"), false, false, true, Map.of(),
                DEFAULT_MAX_RANGES);
    }

    /**
     * Sets {@code Cache-Control} on every answer of the mount (200, 206 and 304).
     *
     * @param value the header's value, such as {@code public, max-age=3600}; null for none
     * @return a copy with this value
     * @throws IllegalArgumentException when the value has control characters
     */
    public StaticFiles cacheControl(String value) {
        if (value != null) {
            value = dev.brisk.internal.http.HeaderRules.value(value);
        }
        return new StaticFiles(directory, loader, resourceRoot, value, indexFiles, hiddenFiles, followSymlinks,
                precompressed, contentTypes, maxRanges);
    }

    /**
     * Shorthand for {@code cacheControl("public, max-age=<seconds>")}.
     *
     * @param maxAge how long caches may use an answer without asking again; not negative
     * @return a copy with this value
     * @throws IllegalArgumentException when {@code maxAge} is negative
     */
    public StaticFiles maxAge(Duration maxAge) {
        if (maxAge == null || maxAge.isNegative()) {
            throw new IllegalArgumentException("max age must be zero or positive: " + maxAge);
        }
        return cacheControl("public, max-age=" + maxAge.toSeconds());
    }

    /**
     * The files that serve a directory, tried in order (default {@code index.html}).
     *
     * @param names file names, without slashes; none: directories are never served
     * @return a copy with these names
     * @throws IllegalArgumentException when a name is empty or has a slash or backslash
     */
    public StaticFiles indexFiles(String... names) {
        for (String n : names) {
            if (n == null || n.isEmpty() || n.indexOf('/') >= 0 || n.indexOf('\\') >= 0 || n.equals("..")) {
                throw new IllegalArgumentException("an index file is a plain file name: " + n);
            }
        }
        return new StaticFiles(directory, loader, resourceRoot, cacheControl, List.of(names), hiddenFiles,
                followSymlinks, precompressed, contentTypes, maxRanges);
    }

    /**
     * Whether files and directories whose name starts with a dot (and, on Windows, those marked hidden)
     * are served (default false: they are {@code 404}, as if absent).
     *
     * @param serve true to serve them
     * @return a copy with this setting
     */
    public StaticFiles hiddenFiles(boolean serve) {
        return new StaticFiles(directory, loader, resourceRoot, cacheControl, indexFiles, serve, followSymlinks,
                precompressed, contentTypes, maxRanges);
    }

    /**
     * Whether a symbolic link may lead outside the directory (default false: such a file is {@code 404};
     * links within the directory are always followed). Directory mounts only.
     *
     * @param follow true to follow links wherever they lead
     * @return a copy with this setting
     */
    public StaticFiles followSymlinks(boolean follow) {
        return new StaticFiles(directory, loader, resourceRoot, cacheControl, indexFiles, hiddenFiles, follow,
                precompressed, contentTypes, maxRanges);
    }

    /**
     * Whether precompressed siblings ({@code name.br}, {@code name.gz}) are sent to clients that accept
     * their coding (default true).
     *
     * @param use false to always send the file itself
     * @return a copy with this setting
     */
    public StaticFiles precompressed(boolean use) {
        return new StaticFiles(directory, loader, resourceRoot, cacheControl, indexFiles, hiddenFiles,
                followSymlinks, use, contentTypes, maxRanges);
    }

    /**
     * The {@code Content-Type} of files with an extension, over the built-in table.
     *
     * @param extension the extension without the dot, such as {@code md}; any case
     * @param type the media type, such as {@code text/markdown; charset=utf-8}
     * @return a copy with this mapping
     * @throws IllegalArgumentException when the extension is empty or the type has control characters
     */
    public StaticFiles contentType(String extension, String type) {
        if (extension == null || extension.isEmpty() || extension.startsWith(".")) {
            throw new IllegalArgumentException("an extension without the dot: " + extension);
        }
        Map<String, String> m = new LinkedHashMap<>(contentTypes);
        m.put(extension.toLowerCase(Locale.ROOT), dev.brisk.internal.http.HeaderRules.value(type));
        return new StaticFiles(directory, loader, resourceRoot, cacheControl, indexFiles, hiddenFiles,
                followSymlinks, precompressed, Map.copyOf(m), maxRanges);
    }

    /**
     * The most ranges one answer sends, after overlapping and adjacent ones are merged (default
     * {@value #DEFAULT_MAX_RANGES}); a request asking for more gets the whole file.
     *
     * @param max 1 to 1000
     * @return a copy with this bound
     * @throws IllegalArgumentException when out of range
     */
    public StaticFiles maxRanges(int max) {
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException("max ranges must be 1..1000: " + max);
        }
        return new StaticFiles(directory, loader, resourceRoot, cacheControl, indexFiles, hiddenFiles,
                followSymlinks, precompressed, contentTypes, max);
    }

    /** {@return the directory of a {@link #directory} mount, else null} */
    public Path directory() {
        return directory;
    }

    /** {@return the class loader of a {@link #classpath} mount, else null} */
    public ClassLoader classLoader() {
        return loader;
    }

    /** {@return the resource root of a {@link #classpath} mount, else null} */
    public String resourceRoot() {
        return resourceRoot;
    }

    /** {@return the {@code Cache-Control} value, or null} */
    public String cacheControl() {
        return cacheControl;
    }

    /** {@return the index file names, in the order they are tried} */
    public List<String> indexFiles() {
        return indexFiles;
    }

    /** {@return whether hidden files are served} */
    public boolean hiddenFiles() {
        return hiddenFiles;
    }

    /** {@return whether links may lead outside the directory} */
    public boolean followSymlinks() {
        return followSymlinks;
    }

    /** {@return whether precompressed siblings are used} */
    public boolean precompressed() {
        return precompressed;
    }

    /** {@return the content types set over the built-in table: extension (lower case) to type} */
    public Map<String, String> contentTypes() {
        return contentTypes;
    }

    /** {@return the most ranges one answer sends} */
    public int maxRanges() {
        return maxRanges;
    }

    @Override
    public String toString() {
        return "StaticFiles[" + (directory != null ? directory : "classpath:" + resourceRoot)
                + ", index=" + Arrays.toString(indexFiles.toArray()) + ", cacheControl=" + cacheControl + "]";
    }
}
