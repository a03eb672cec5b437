package dev.brisk.events.search;

import dev.brisk.events.Event;
import java.util.Collection;
import java.util.List;

/**
 * The current {@link EventIndex}, published by one writer (start-up load, then the poller) and read
 * by any number of request threads without locks: a volatile reference to an immutable snapshot.
 */
public final class EventCatalog {
    private volatile EventIndex current = EventIndex.of(0, List.of());
    private volatile boolean loaded;

    /** The snapshot to answer from; never null. */
    public EventIndex current() {
        return current;
    }

    /** Whether {@link #load} has run: before, the empty snapshot says nothing about what is stored. */
    public boolean loaded() {
        return loaded;
    }

    /** Replaces everything with the events loaded from the store. */
    public synchronized void load(Collection<Event> stored) {
        current = EventIndex.of(current.version() + 1, stored);
        loaded = true;
    }

    /** Publishes a snapshot with {@code changed} added or replaced; no-op when empty. */
    public synchronized void publish(Collection<Event> changed) {
        if (!changed.isEmpty()) {
            current = current.with(current.version() + 1, changed);
        }
    }
}
