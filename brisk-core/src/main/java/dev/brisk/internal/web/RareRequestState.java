package dev.brisk.internal.web;

import java.util.List;
import java.util.Map;

/**
 * The request state few requests use (parsed query and cookies, attributes, a failed deferred body, the form),
 * kept out of every {@link Exchange}'s own fields and made on first use: a smaller exchange for the
 * rest. Owned by its exchange; the handler's thread only.
 */
final class RareRequestState {
    Map<String, List<String>> queryMap;
    Map<String, String> cookieMap;
    Map<String, Object> attributes;
    RuntimeException bodyFailure;
    dev.brisk.internal.form.RequestForm form;
}
