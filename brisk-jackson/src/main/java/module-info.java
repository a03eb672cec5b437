/** Brisk's {@code JsonCodec} on Jackson 3. */
module dev.brisk.jackson {
    // transitive: JacksonJsonCodec's API takes and returns a JsonMapper
    requires transitive dev.brisk;
    requires transitive tools.jackson.databind;

    exports dev.brisk.jackson;
}
