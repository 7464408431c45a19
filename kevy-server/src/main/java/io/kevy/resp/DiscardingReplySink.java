package io.kevy.resp;

import io.kevy.engine.error.ErrorReply;

/**
 * A reply sink for replies nobody reads (frames applied at boot, a replica applying its primary's frames): it
 * drops every reply but keeps the last error, so the applier can log a frame that failed to apply.
 *
 * <p>Not thread-safe: confined to the applying thread.
 */
public final class DiscardingReplySink implements ReplySink {
    private ErrorReply error;

    /** The last error reply since {@link #clear()}, or null. */
    public ErrorReply error() {
        return error;
    }

    /** Forgets the last error. */
    public void clear() {
        error = null;
    }

    @Override
    public void ok() {
    }

    @Override
    public void simple(String s) {
    }

    @Override
    public void error(ErrorReply e) {
        error = e;
    }

    @Override
    public void integer(long v) {
    }

    @Override
    public void bulk(byte[] b) {
    }

    @Override
    public void bulk(byte[] b, int off, int len) {
    }

    @Override
    public void nullBulk() {
    }

    @Override
    public void nullArray() {
    }

    @Override
    public void array(int n) {
    }
}
