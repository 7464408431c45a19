package io.kevy.feed.client;

import io.github.resilience4j.retry.Retry;

/**
 * Hands a batch to the sink and waits until it is accepted, retrying a rejection with backoff
 * ({@code handlerRetries} times, not for a non-retryable {@link SinkException}); then either dead-letters it
 * (the consumer goes on) or stops the consumer with the cursor where it was (the default).
 */
final class Delivery {
    private Delivery() {
    }

    /**
     * Delivers {@code batch} for {@code shard} (-1 for a rebuild).
     *
     * @param onRetry called before each retry wait (the worker shows RETRYING)
     * @throws Runtime.Stop when the consumer stops meanwhile (the batch is then not accepted)
     * @throws ConsumerFailedException when the batch was rejected for good and there is no dead letter
     */
    static <K, V> void deliver(Runtime<K, V> rt, Batch<K, V> batch, int shard, Runnable onRetry) {
        Retry.AsyncContext<Object> ctx = rt.handlerRetry.asyncContext();
        int attempts = 0;
        while (true) {
            attempts++;
            long t0 = System.nanoTime();
            Throwable error;
            try {
                rt.await(rt.sink.deliver(batch).toCompletableFuture(), rt.s.deliveryTimeout(), false);
                ctx.onComplete();
                if (batch.kind() == Batch.Kind.CHANGES) {
                    rt.listener.onBatch(rt.name(), shard, batch.size(), System.nanoTime() - t0);
                }
                return;
            } catch (Runtime.Stop s) {
                throw s;
            } catch (RuntimeException e) {
                error = e instanceof KevyException && !(e instanceof SinkException) && e.getCause() != null
                        && !(e instanceof KevyTimeoutException) ? e.getCause() : e;
            }
            rt.listener.onError(rt.name(), shard, ConsumerListener.HANDLER, error);
            boolean retryable = !(error instanceof SinkException x && !x.retryable());
            long delay = retryable ? ctx.onError(error) : -1;
            if (delay >= 0 && !rt.stopping()) {
                rt.listener.onRetry(rt.name(), shard, ConsumerListener.HANDLER, error);
                onRetry.run();
                rt.sleep(delay);
                continue;
            }
            if (rt.stopping()) {
                throw new Runtime.Stop();
            }
            DeadLetter<K, V> dl = rt.s.deadLetter();
            if (dl != null) {
                try {
                    dl.accept(batch, error);
                    return;
                } catch (Exception e) {
                    throw rt.fail("consumer " + rt.name() + ": the dead letter rejected " + batch + " too: " + e, e);
                }
            }
            throw rt.fail("consumer " + rt.name() + ": the " + (rt.s.sink() != null ? "sink" : "handler")
                    + " rejected " + batch + " " + attempts + " time(s) (last: " + error + "); stopped with the "
                    + "cursor before the batch. Fix the handler and restart, or set a dead letter "
                    + "(FeedConsumer.Builder.deadLetter) to skip such batches", error);
        }
    }
}
