package dev.brisk;

/**
 * A request body that is not valid JSON for the type asked for, with where and why: what a
 * {@link JsonCodec} throws so that the {@code 400 Bad Request} it becomes can tell the client (and the
 * log) which part of its body was wrong. Its message is meant for the client: codecs put the parser's
 * reason in it, never the server's class names.
 */
public class JsonBindingException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Why the body does not fit, for the client. */
    private final String reason;
    /** The 1-based line where the parser stopped, or 0. */
    private final int line;
    /** The 1-based column where the parser stopped, or 0. */
    private final int column;
    /** The field at fault, or null. */
    private final String path;

    /**
     * A binding failure.
     *
     * @param reason why the body does not fit, for the client (e.g. {@code expected int, found a string})
     * @param line the 1-based line where the parser stopped, or 0 when unknown
     * @param column the 1-based column where the parser stopped, or 0 when unknown
     * @param path the field at fault, as {@code items[2].done}, or null when unknown or at the root
     * @param cause the codec's own exception, for the log; may be null
     */
    public JsonBindingException(String reason, int line, int column, String path, Throwable cause) {
        super(describe(reason, line, column, path), cause);
        this.reason = reason;
        this.line = Math.max(line, 0);
        this.column = Math.max(column, 0);
        this.path = path == null || path.isEmpty() ? null : path;
    }

    private static String describe(String reason, int line, int column, String path) {
        StringBuilder b = new StringBuilder();
        if (line > 0) {
            b.append("line ").append(line);
            if (column > 0) {
                b.append(", column ").append(column);
            }
        }
        if (path != null && !path.isEmpty()) {
            b.append(b.isEmpty() ? "field " : " (field ").append(path).append(line > 0 ? ")" : "");
        }
        String r = reason == null || reason.isEmpty() ? "invalid JSON" : reason;
        return b.isEmpty() ? r : b.append(": ").append(r).toString();
    }

    /**
     * Why the body does not fit the type.
     *
     * @return the reason as the codec gave it
     */
    public String reason() {
        return reason;
    }

    /**
     * The line where the parser stopped.
     *
     * @return the 1-based line, or 0 when unknown
     */
    public int line() {
        return line;
    }

    /**
     * The column where the parser stopped.
     *
     * @return the 1-based column, or 0 when unknown
     */
    public int column() {
        return column;
    }

    /**
     * The field at fault.
     *
     * @return the path as {@code items[2].done}, or null when unknown or at the root
     */
    public String path() {
        return path;
    }
}
