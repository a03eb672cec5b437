package dev.brisk.events.store;

/** The database refused or failed an operation; what was not committed is not stored. */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
