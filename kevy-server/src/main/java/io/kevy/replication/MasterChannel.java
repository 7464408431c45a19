package io.kevy.replication;

import io.kevy.engine.session.ClientChannel;
import io.kevy.resp.ReplySink;

/**
 * The channel of a session through which a replica applies what arrives over one connection to its primary
 * (Redis's master client): CLIENT LIST shows it at that connection's addresses (the primary's as {@code addr},
 * this server's end as {@code laddr}), and CLIENT KILL of it closes the connection, after which the link reconnects
 * (a partial resync when the primary's backlog still holds its cursors), as Redis's replica reconnects when its
 * master client is killed. Nobody reads its replies, so they go to a {@link io.kevy.resp.DiscardingReplySink},
 * which keeps only the last error (a frame that fails to apply is a divergence, logged by the link). Frames never
 * block, so nothing is ever posted to it.
 *
 * <p>Thread-safe: the addresses are fixed; closing the connection from another thread is what CLIENT KILL does.
 */
final class MasterChannel implements ClientChannel {
    private final RespClient connection;
    private final String remote;
    private final String local;

    MasterChannel(RespClient connection) {
        this.connection = connection;
        this.remote = connection.remoteAddress();
        this.local = connection.localAddress();
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
        connection.close();
    }

    @Override
    public String remoteAddress() {
        return remote;
    }

    @Override
    public String localAddress() {
        return local;
    }
}
