package io.kevy.persist;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * File errors as one line for a person ({@code cannot read /x: no such file}), for command-line tools: the reason
 * comes from the exception type, never a Java class name. Stateless; thread-safe.
 */
public final class FileErrors {
    private FileErrors() {
    }

    /**
     * Why reading failed: {@code cannot read <file>: no such file | permission denied | not a directory |
     * <the reason the OS gave>}; for an error that names no file, its message.
     *
     * @param e an I/O error (a {@link FileSystemException} names its file)
     * @return one line, without a trailing newline
     */
    public static String readFailure(IOException e) {
        if (!(e instanceof FileSystemException f)) {
            return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
        String reason;
        if (f instanceof NoSuchFileException) {
            reason = "no such file";
        } else if (f instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (f instanceof NotDirectoryException) {
            reason = "not a directory";
        } else {
            reason = f.getReason();
        }
        return "cannot read " + f.getFile() + (reason == null ? "" : ": " + reason);
    }
}
