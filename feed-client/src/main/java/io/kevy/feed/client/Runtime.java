package io.kevy.feed.client;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the threads of one consumer share: settings, the sink, listeners, the stop and failure state, the BLOCK
 * detection, retries, stop-aware waits. Package-private; thread-safe.
 */
final class Runtime<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(FeedConsumer.class);
    /** Thrown inside the consumer's threads to unwind when it stops. */
    static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop() {
            super("stopping", null, false, false);
        }
    }

    final ConsumerSettings<K, V> s;
    final Sink<K, V> sink;
    final ConsumerListener listener;
    final KeyFilter filter;
    final List<byte[]> prefixes;
    final Retry connectionRetry;
    final Retry handlerRetry;
    final Committer committer;
    /** shard → the frames overlapping its last rebuild's reads (set by the rebuild, taken by the worker). */
    final java.util.concurrent.ConcurrentHashMap<Integer, ReadOverlap> overlaps =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** null = not yet known, else whether FEED.READ accepts BLOCK (detected once; feed contract §4). */
    private final AtomicReference<Boolean> blockSupported = new AtomicReference<>();
    /** false once FEED.READ DURABLE was refused (upstream, or no fsync schedule); reads then go without it. */
    private volatile boolean durableRefused;
    private final AtomicReference<ConsumerFailedException> failure = new AtomicReference<>();
    private final Object sleep = new Object();
    private volatile boolean stopping;
    private volatile boolean aborted;
    private final Runnable onFailure;

    Runtime(ConsumerSettings<K, V> s, ConsumerListener listener, byte[] ownKey, Runnable onFailure) {
        this.s = s;
        this.sink = s.effectiveSink();
        this.listener = listener;
        this.prefixes = s.prefixBytes();
        this.filter = new KeyFilter(prefixes, s.exactPrefixFilter(), ownKey);
        this.onFailure = onFailure;
        IntervalFunction backoff = IntervalFunction.ofExponentialRandomBackoff(s.retryInitial(), 2.0, 0.5,
                s.retryMax());
        this.connectionRetry = Retry.of(s.name() + "-connection", RetryConfig.custom()
                .maxAttempts(s.maxConnectionAttempts() == 0 ? Integer.MAX_VALUE : s.maxConnectionAttempts())
                .intervalFunction(backoff)
                .retryOnException(e -> e instanceof KevyConnectionException || e instanceof KevyTimeoutException)
                .build());
        this.handlerRetry = Retry.of(s.name() + "-handler", RetryConfig.custom()
                .maxAttempts(s.handlerRetries() + 1)
                .intervalFunction(backoff)
                .retryOnException(e -> !(e instanceof SinkException x && !x.retryable()))
                .build());
        this.committer = new Committer(s.name(), s.cursorStore(), this);
    }

    String name() {
        return s.name();
    }

    boolean stopping() {
        return stopping;
    }

    boolean aborted() {
        return aborted;
    }

    void stop(boolean abort) {
        aborted |= abort;
        stopping = true;
        synchronized (sleep) {
            sleep.notifyAll();
        }
    }

    /** Throws {@link Stop} when the consumer is stopping. */
    void checkRunning() {
        if (stopping) {
            throw new Stop();
        }
    }

    /** Sleeps up to {@code millis}, returning early (with {@link Stop}) when the consumer stops. */
    void sleep(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (sleep) {
            while (!stopping) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(sleep, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Stop();
                }
            }
        }
        throw new Stop();
    }

    /**
     * Waits for {@code f}, checking every 50 ms whether the consumer stops ({@link Stop}); a failed stage throws
     * its {@link KevyException} (others wrapped); after {@code timeout} a {@link KevyTimeoutException}.
     */
    <T> T await(CompletableFuture<T> f, Duration timeout, boolean stoppable) {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (stoppable) {
                checkRunning();
            }
            try {
                return f.get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (System.nanoTime() - end > 0) {
                    throw new KevyTimeoutException("no answer in " + timeout.toMillis() + " ms");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Stop();
            } catch (ExecutionException e) {
                throw RemoteFeedSource.map(e.getCause());
            }
        }
    }

    /** The BLOCK time of the next read, or null to poll. */
    Duration block() {
        if (s.block().isZero() || Boolean.FALSE.equals(blockSupported.get())) {
            return null;
        }
        return s.block();
    }

    void blockWorked() {
        blockSupported.compareAndSet(null, true);
    }

    void blockUnsupported() {
        if (blockSupported.getAndSet(false) != Boolean.FALSE) {
            LOG.info("consumer {}: the server does not know FEED.READ ... BLOCK (upstream kevy); polling with "
                    + "backoff from {} to {} ms", name(), s.pollMin().toMillis(), s.pollMax().toMillis());
        }
    }

    /** Whether the next read asks for DURABLE ({@link ConsumerSettings#durableOnly} and not refused). */
    boolean durable() {
        return s.durableOnly() && !durableRefused;
    }

    /** The server refused DURABLE: read without it from now on, and say so once. */
    void durableRefused(String reason) {
        if (!durableRefused) {
            durableRefused = true;
            LOG.warn("consumer {}: the server refused FEED.READ ... DURABLE ({}); reading frames before their fsync: "
                    + "a crash may erase frames already delivered (the generation then changes and the consumer "
                    + "rebuilds)", name(), reason);
        }
    }

    /** Whether BLOCK was detected (null = not yet known). */
    Boolean blockSupported() {
        return blockSupported.get();
    }

    /**
     * Records the consumer's failure (the first one wins), stops it and returns the exception for the caller to
     * throw.
     */
    ConsumerFailedException fail(String message, Throwable cause) {
        ConsumerFailedException e = new ConsumerFailedException(message, cause);
        if (failure.compareAndSet(null, e)) {
            LOG.error("consumer {} FAILED: {}", name(), message, cause);
            stop(false);
            onFailure.run();
        }
        return failure.get();
    }

    ConsumerFailedException failure() {
        return failure.get();
    }

    /** The listener kind of an error. */
    static String kind(Throwable e) {
        if (e instanceof KevyTimeoutException) {
            return ConsumerListener.TIMEOUT;
        }
        if (e instanceof KevyConnectionException) {
            return ConsumerListener.CONNECTION;
        }
        if (e instanceof CursorAheadException) {
            return ConsumerListener.CURSOR_AHEAD;
        }
        if (e instanceof KevyServerException) {
            return ConsumerListener.SERVER;
        }
        if (e instanceof KevyProtocolException) {
            return ConsumerListener.PROTOCOL;
        }
        return ConsumerListener.HANDLER;
    }

    static boolean transientFailure(Throwable e) {
        return e instanceof KevyConnectionException || e instanceof KevyTimeoutException;
    }
}
