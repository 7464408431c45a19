package io.kevy.replication;

import io.kevy.engine.session.BlockedClient;
import io.kevy.engine.session.Waiter;
import io.kevy.resp.ReplySink;

/**
 * A parked {@code WAIT numreplicas timeout}: woken by every replica acknowledgement, it replies the number of
 * replicas that acknowledged the cursors the client's own last writes left (Redis's {@code c->woff}) once that number reaches
 * {@code numreplicas}, or on the timeout whatever the number is (Redis's WAIT).
 *
 * <p>Attempts run on the session's thread; {@link #release} from any thread.
 */
final class ReplicaWait implements Waiter {
    private final ReplicaRegistry registry;
    private final long[][] target;
    private final long numReplicas;
    private volatile BlockedClient blocked;

    ReplicaWait(ReplicaRegistry registry, long[][] target, long numReplicas) {
        this.registry = registry;
        this.target = target;
        this.numReplicas = numReplicas;
    }

    /** Registers for acknowledgements, then wakes once (an acknowledgement may have arrived before). */
    void park(BlockedClient b) {
        blocked = b;
        registry.addWait(b);
        b.wake();
    }

    @Override
    public boolean attempt(BlockedClient self, ReplySink out) {
        int n = registry.covering(target);
        if (n < numReplicas) {
            return false;
        }
        out.integer(n);
        return true;
    }

    @Override
    public void timedOut(ReplySink out) {
        out.integer(registry.covering(target));
    }

    @Override
    public void release() {
        BlockedClient b = blocked;
        if (b != null) {
            registry.removeWait(b);
        }
    }
}
