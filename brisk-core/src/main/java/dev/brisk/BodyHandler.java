package dev.brisk;

/**
 * A handler that receives its request body already bound from JSON, registered with
 * {@link Routing#route(Method, String, java.lang.reflect.Type, BodyHandler)} or one of its short forms
 * ({@link Routing#post(String, Class, BodyHandler)}, {@code put}, {@code patch}). The body is bound
 * exactly as {@link Context#bodyAsJson(java.lang.reflect.Type)} binds it ({@code 415} for a
 * {@code Content-Type} that is not JSON, a located {@code 400} for a body that does not bind) before
 * this runs. Such a route declares that the app uses JSON: an app with one and no
 * {@link BriskConfig#json codec} fails {@link Brisk#create}.
 *
 * @param <T> the type the body is bound to
 */
@FunctionalInterface
public interface BodyHandler<T> {
    /**
     * Handles one request, on the thread its route's dispatch gives.
     *
     * @param ctx the request and its response
     * @param body the request body, bound; null only when the body is the JSON literal {@code null}
     * @throws Exception mapped to a response like any handler's exception
     */
    void handle(Context ctx, T body) throws Exception;
}
