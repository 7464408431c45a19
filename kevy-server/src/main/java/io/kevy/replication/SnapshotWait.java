package io.kevy.replication;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.session.BlockedClient;
import io.kevy.engine.session.Waiter;
import io.kevy.feed.FeedCursor;
import io.kevy.resp.ReplySink;
import java.util.concurrent.ExecutionException;

/**
 * A parked {@code REPL.SNAPSHOT shard}: woken when its snapshot is written ({@link SnapshotTransfers}), it replies
 * {@code *4 [:generation, :next_offset, :size, $id]}, or the failure as an error. A client that leaves before
 * drops the transfer.
 *
 * <p>Attempts run on the session's thread; {@link #release} from any thread.
 */
final class SnapshotWait implements Waiter {
    private final SnapshotTransfers transfers;
    private final SnapshotTransfers.Transfer transfer;
    private volatile boolean replied;

    SnapshotWait(SnapshotTransfers transfers, SnapshotTransfers.Transfer transfer) {
        this.transfers = transfers;
        this.transfer = transfer;
    }

    /** Wakes {@code b} once the snapshot is written (at once when it already is). */
    void park(BlockedClient b) {
        transfer.written.whenComplete((at, e) -> b.wake());
    }

    @Override
    public boolean attempt(BlockedClient self, ReplySink out) {
        if (!transfer.written.isDone()) {
            return false;
        }
        write(out);
        return true;
    }

    /** Writes the reply of a written (or failed) transfer. */
    void write(ReplySink out) {
        FeedCursor at;
        try {
            at = transfer.written.get();
        } catch (ExecutionException e) {
            out.error(ErrorReply.err("full-sync snapshot of shard " + transfer.shard + " failed: " + e.getCause()));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.error(ErrorReply.err("full-sync snapshot interrupted"));
            return;
        }
        replied = true;
        out.array(4);
        out.integer(at.generation());
        out.integer(at.offset());
        out.integer(transfer.size);
        out.bulk(transfer.id);
    }

    @Override
    public void timedOut(ReplySink out) {
        out.error(ErrorReply.err("full-sync snapshot of shard " + transfer.shard + " timed out"));
    }

    @Override
    public void release() {
        if (!replied) {
            transfers.drop(transfer); // the client left (or timed out) before it got the id
        }
    }
}
