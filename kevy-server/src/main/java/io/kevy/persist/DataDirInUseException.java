package io.kevy.persist;

/**
 * A data directory is locked by another kevy-server or embedded store (its {@code kevy.lock}); the message
 * names the directory and the owner's pid.
 */
public final class DataDirInUseException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    DataDirInUseException(String message) {
        super(message);
    }
}
