package dev.brisk.events.poll;

/** Told about every poll (metrics, logs); called on the poller thread, must not block. */
@FunctionalInterface
public interface PollListener {
    void polled(PollOutcome outcome);

    PollListener NONE = outcome -> { };
}
