package io.kevy.replication;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.session.ClientChannel;
import io.kevy.resp.ReplySink;

/**
 * The channel of the session through which a replica applies its primary's frames: nobody reads its replies,
 * so its sink keeps only the last error (a frame that fails to apply is a divergence, logged by the link).
 * Frames never block, so nothing is ever posted to it. Thread-confined to the applying thread, like its session.
 */
final class MasterChannel implements ClientChannel {
    /** The discarding sink; {@link #error} is the last error reply since it was cleared. */
    static final class Sink implements ReplySink {
        ErrorReply error;

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

    private final String primary;

    MasterChannel(String primary) {
        this.primary = primary;
    }

    @Override
    public ReplySink newAsyncReply() {
        return new Sink();
    }

    @Override
    public void sendAsync(ReplySink reply, boolean wrote) {
    }

    @Override
    public void execute(Runnable task) {
        throw new java.util.concurrent.RejectedExecutionException("the replication session never blocks");
    }

    @Override
    public void close() {
    }

    @Override
    public String remoteAddress() {
        return primary;
    }

    @Override
    public String localAddress() {
        return "";
    }
}
