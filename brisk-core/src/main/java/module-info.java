/** Brisk: a small, fast HTTP/1.1 server and micro web framework. Only {@code dev.brisk} is API. */
module dev.brisk {
    exports dev.brisk;
}
