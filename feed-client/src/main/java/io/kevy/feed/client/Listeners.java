package io.kevy.feed.client;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls several {@link ConsumerListener}s, logging and ignoring what they throw. */
final class Listeners implements ConsumerListener {
    private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);
    private final List<ConsumerListener> all;

    private Listeners(List<ConsumerListener> all) {
        this.all = List.copyOf(all);
    }

    static ConsumerListener of(List<ConsumerListener> listeners) {
        return new Listeners(listeners);
    }

    private interface Call {
        void on(ConsumerListener l);
    }

    private void each(Call c) {
        for (ConsumerListener l : all) {
            try {
                c.on(l);
            } catch (RuntimeException e) {
                LOG.warn("listener {} threw", l, e);
            }
        }
    }

    @Override
    public void onStart(String consumer, int shards) {
        each(l -> l.onStart(consumer, shards));
    }

    @Override
    public void onBatch(String consumer, int shard, int frames, long handlerNanos) {
        each(l -> l.onBatch(consumer, shard, frames, handlerNanos));
    }

    @Override
    public void onCommit(String consumer) {
        each(l -> l.onCommit(consumer));
    }

    @Override
    public void onResync(String consumer, int shard) {
        each(l -> l.onResync(consumer, shard));
    }

    @Override
    public void onRebuild(String consumer, RebuildScope scope, RebuildResult result) {
        each(l -> l.onRebuild(consumer, scope, result));
    }

    @Override
    public void onRetry(String consumer, int shard, String kind, Throwable error) {
        each(l -> l.onRetry(consumer, shard, kind, error));
    }

    @Override
    public void onError(String consumer, int shard, String kind, Throwable error) {
        each(l -> l.onError(consumer, shard, kind, error));
    }

    @Override
    public void onState(String consumer, int shard, ShardState state) {
        each(l -> l.onState(consumer, shard, state));
    }
}
