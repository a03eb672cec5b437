package dev.brisk.internal.web;

import dev.brisk.Context;
import dev.brisk.HttpException;
import dev.brisk.JsonBindingException;
import dev.brisk.JsonCodec;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * Binds a request body as JSON for {@link Context#bodyAsJson}: a {@code Content-Type} that is present and
 * not JSON is a {@code 415} before the body is read; a body the codec refuses is a {@code 400} that says
 * where and why when the codec throws a {@link JsonBindingException} (also logged at DEBUG), else only
 * that it is not valid JSON (the codec's own message may hold anything, so it goes to the log only).
 * Stateless; called on the handler's thread.
 */
final class JsonBodies {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    private JsonBodies() {
    }

    @SuppressWarnings("unchecked")
    static <T> T read(Context ctx, JsonCodec codec, Type type) {
        String ct = ctx.contentType();
        if (ct != null && !MediaTypes.isJson(ct)) {
            throw new HttpException.UnsupportedMediaType("Request body must be JSON (application/json), not " + ct);
        }
        byte[] b = ctx.body();
        try {
            return type instanceof Class<?> cls ? (T) codec.read(b, cls) : codec.read(b, type);
        } catch (JsonBindingException e) {
            String msg = "Request body is not valid JSON for " + simpleName(type) + ": " + e.getMessage();
            LOG.log(System.Logger.Level.DEBUG, () -> msg + " (" + ctx.method() + " " + ctx.path() + ")", e);
            throw new HttpException.BadRequest(msg);
        } catch (UnsupportedOperationException e) {
            throw e; // the codec cannot bind the type: the server's fault, a 500
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "bad JSON body for " + type.getTypeName() + " ("
                    + ctx.method() + " " + ctx.path() + "): " + e, e);
            throw new HttpException.BadRequest("Request body is not valid JSON for " + simpleName(type));
        }
    }

    /** {@code List<Todo>} rather than the type's full name: package names are not the client's business. */
    static String simpleName(Type type) {
        if (type instanceof Class<?> c) {
            return c.getSimpleName();
        }
        if (type instanceof ParameterizedType p) {
            StringBuilder b = new StringBuilder(simpleName(p.getRawType())).append('<');
            Type[] args = p.getActualTypeArguments();
            for (int i = 0; i < args.length; i++) {
                b.append(i == 0 ? "" : ", ").append(simpleName(args[i]));
            }
            return b.append('>').toString();
        }
        String n = type.getTypeName();
        return n.substring(n.lastIndexOf('.') + 1);
    }
}
