package dev.brisk.internal.files;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code Content-Type} of a file from its name's extension: a built-in table of the types a web
 * app serves, overridable per mount. Text types carry {@code charset=utf-8}. Immutable.
 */
public final class ContentTypes {
    /** The type of a file whose extension the table does not know. */
    public static final String UNKNOWN = "application/octet-stream";

    private static final Map<String, String> BUILT_IN = builtIn();

    private final Map<String, String> table;

    /**
     * @param overrides extension (without the dot, any case) to type, on top of the built-in table
     */
    public ContentTypes(Map<String, String> overrides) {
        if (overrides.isEmpty()) {
            table = BUILT_IN;
        } else {
            Map<String, String> t = new HashMap<>(BUILT_IN);
            overrides.forEach((ext, type) -> t.put(ext.toLowerCase(Locale.ROOT), type));
            table = Map.copyOf(t);
        }
    }

    /** {@return the type for {@code fileName}, from the text after its last dot; {@link #UNKNOWN} when none} */
    public String of(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot < 0 || dot == fileName.length() - 1) {
            return UNKNOWN;
        }
        String ext = fileName.substring(dot + 1);
        String t = table.get(ext);
        if (t == null) {
            t = table.get(ext.toLowerCase(Locale.ROOT));
        }
        return t != null ? t : UNKNOWN;
    }

    /** {@return the built-in type for an extension (without the dot), or null} */
    public static String builtIn(String extension) {
        return BUILT_IN.get(extension.toLowerCase(Locale.ROOT));
    }

    private static Map<String, String> builtIn() {
        Map<String, String> m = new HashMap<>();
        String utf8 = "; charset=utf-8";
        // text
        m.put("html", "text/html" + utf8);
        m.put("htm", "text/html" + utf8);
        m.put("css", "text/css" + utf8);
        m.put("js", "text/javascript" + utf8);
        m.put("mjs", "text/javascript" + utf8);
        m.put("txt", "text/plain" + utf8);
        m.put("text", "text/plain" + utf8);
        m.put("md", "text/markdown" + utf8);
        m.put("csv", "text/csv" + utf8);
        m.put("tsv", "text/tab-separated-values" + utf8);
        m.put("xml", "application/xml" + utf8);
        m.put("json", "application/json");
        m.put("map", "application/json");
        m.put("webmanifest", "application/manifest+json");
        m.put("jsonld", "application/ld+json");
        m.put("rss", "application/rss+xml" + utf8);
        m.put("atom", "application/atom+xml" + utf8);
        m.put("ics", "text/calendar" + utf8);
        m.put("vtt", "text/vtt" + utf8);
        m.put("yaml", "application/yaml");
        m.put("yml", "application/yaml");
        // images
        m.put("svg", "image/svg+xml");
        m.put("png", "image/png");
        m.put("jpg", "image/jpeg");
        m.put("jpeg", "image/jpeg");
        m.put("gif", "image/gif");
        m.put("webp", "image/webp");
        m.put("avif", "image/avif");
        m.put("ico", "image/vnd.microsoft.icon");
        m.put("bmp", "image/bmp");
        m.put("tif", "image/tiff");
        m.put("tiff", "image/tiff");
        // fonts
        m.put("woff", "font/woff");
        m.put("woff2", "font/woff2");
        m.put("ttf", "font/ttf");
        m.put("otf", "font/otf");
        m.put("eot", "application/vnd.ms-fontobject");
        // audio, video
        m.put("mp3", "audio/mpeg");
        m.put("ogg", "audio/ogg");
        m.put("oga", "audio/ogg");
        m.put("wav", "audio/wav");
        m.put("flac", "audio/flac");
        m.put("m4a", "audio/mp4");
        m.put("aac", "audio/aac");
        m.put("opus", "audio/opus");
        m.put("mp4", "video/mp4");
        m.put("m4v", "video/mp4");
        m.put("webm", "video/webm");
        m.put("ogv", "video/ogg");
        m.put("mov", "video/quicktime");
        // applications, archives
        m.put("wasm", "application/wasm");
        m.put("pdf", "application/pdf");
        m.put("zip", "application/zip");
        m.put("gz", "application/gzip");
        m.put("tgz", "application/gzip");
        m.put("br", "application/x-brotli");
        m.put("zst", "application/zstd");
        m.put("bz2", "application/x-bzip2");
        m.put("xz", "application/x-xz");
        m.put("7z", "application/x-7z-compressed");
        m.put("tar", "application/x-tar");
        m.put("jar", "application/java-archive");
        m.put("bin", UNKNOWN);
        m.put("exe", UNKNOWN);
        m.put("dll", UNKNOWN);
        m.put("iso", UNKNOWN);
        m.put("dmg", UNKNOWN);
        m.put("epub", "application/epub+zip");
        m.put("rtf", "application/rtf");
        m.put("doc", "application/msword");
        m.put("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
        m.put("xls", "application/vnd.ms-excel");
        m.put("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
        m.put("ppt", "application/vnd.ms-powerpoint");
        m.put("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation");
        m.put("odt", "application/vnd.oasis.opendocument.text");
        return Map.copyOf(m);
    }
}
