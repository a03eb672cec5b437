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
    /** The store's change number this snapshot is complete up to. */
    private volatile long sequence;
    /** Cluster mode: a commit is published only right after the one before it (else the follower loads the gap). */
    private volatile boolean contiguous;

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
        load(stored, sequence);
    }

    /** Replaces everything with the events loaded from the store, complete up to change number {@code seq}. */
    public synchronized void load(Collection<Event> stored, long seq) {
        current = EventIndex.of(current.version() + 1, stored);
        sequence = seq;
        loaded = true;
    }

    /** Publishes a snapshot with {@code changed} added or replaced; no-op when empty. */
    public synchronized void publish(Collection<Event> changed) {
        if (!changed.isEmpty()) {
            current = current.with(current.version() + 1, changed);
        }
    }

    /**
     * Publishes the events of commit number {@code seq} (0: nothing was committed). A commit already
     * included is skipped; in {@link #requireContiguous} mode so is one that does not follow the last
     * included (returns false: the caller has a gap to load from the store first).
     *
     * @return true when the snapshot now includes commit {@code seq}
     */
    public synchronized boolean publish(Collection<Event> changed, long seq) {
        if (seq == 0) {
            publish(changed);
            return true;
        }
        if (seq <= sequence) {
            return true;
        }
        if (contiguous && seq != sequence + 1) {
            return false;
        }
        publish(changed);
        sequence = seq;
        return true;
    }

    /**
     * Publishes the rows of every commit after this snapshot's number up to {@code seq}, loaded by a
     * follower; the part already included (the leader publishes its own commits) is skipped.
     */
    public synchronized void catchUp(Collection<Event> changed, long seq) {
        if (seq > sequence) {
            publish(changed);
            sequence = seq;
        }
    }

    /** Cluster mode: only contiguous commits are published by {@link #publish(Collection, long)}. */
    public void requireContiguous() {
        contiguous = true;
    }

    /** The store's change number this snapshot is complete up to. */
    public long sequence() {
        return sequence;
    }
}
