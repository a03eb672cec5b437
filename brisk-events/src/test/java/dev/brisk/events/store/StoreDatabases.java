package dev.brisk.events.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** JDBC URLs of fresh, empty databases of every kind the tests can reach. */
final class StoreDatabases {
    private static final AtomicInteger SEQ = new AtomicInteger();

    private StoreDatabases() {
    }

    static List<String> urls(Path dir) {
        List<String> urls = new ArrayList<>();
        urls.add("jdbc:sqlite:" + dir.resolve("store-" + SEQ.incrementAndGet() + ".db"));
        return urls;
    }
}
