package io.kevy.replication;

import io.kevy.engine.session.ClientChannel;
import io.kevy.resp.ReplySink;

/**
 * The channel of the session through which a replica applies its primary's frames: nobody reads its replies,
 * so they go to a {@link io.kevy.resp.DiscardingReplySink}, which keeps only the last error (a frame that fails
 * to apply is a divergence, logged by the link).
 * Frames never block, so nothing is ever posted to it. Thread-confined to the applying thread, like its session.
 */
final class MasterChannel implements ClientChannel {
    private final String primary;

    MasterChannel(String primary) {
        this.primary = primary;
    }

    @Override
    public ReplySink newAsyncReply() {
        return new io.kevy.resp.DiscardingReplySink();
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
