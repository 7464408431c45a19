package io.kevy.pubsub;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded subscriber: a Java listener called on a thread of its own ({@code kevy-pubsub-<id>}), one message
 * at a time, in the order of each publisher thread's publishes; never on the publisher's thread, so a slow
 * listener slows nobody else. Bounded like a connection: the bytes of messages queued for the listener (their
 * RESP sizes) are its output buffer under {@link OutputLimit}; past it the subscriber is dropped with one log
 * line and {@code onDrop} runs (it unsubscribes everything).
 *
 * <p>Thread-safe. A listener that throws is logged and keeps receiving.
 */
public final class ListenerSubscriber implements Subscriber, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ListenerSubscriber.class);
    private static final AtomicLong IDS = new AtomicLong();

    private final PubSub pubsub;
    private final Consumer<Message> listener;
    private final Runnable onDrop;
    private final long id = IDS.incrementAndGet();
    private final ExecutorService thread;
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile long softSinceMs;

    public ListenerSubscriber(PubSub pubsub, Consumer<Message> listener, Runnable onDrop) {
        this.pubsub = pubsub;
        this.listener = listener;
        this.onDrop = onDrop;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kevy-pubsub-" + id);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void deliver(Message message) {
        if (closed.get()) {
            return;
        }
        int size = message.size();
        long used = queuedBytes.get() + size;
        if (overLimit(used)) {
            log.warn("dropping subscriber {}: {} bytes queued for its listener, over client-output-buffer-limit "
                    + "pubsub {} {} {}", describe(), used, pubsub.outputLimit().hardBytes(),
                    pubsub.outputLimit().softBytes(), pubsub.outputLimit().softSeconds());
            close();
            onDrop.run();
            return;
        }
        queuedBytes.addAndGet(size);
        try {
            thread.execute(() -> {
                queuedBytes.addAndGet(-size);
                if (closed.get()) {
                    return;
                }
                try {
                    listener.accept(message);
                } catch (RuntimeException e) {
                    log.warn("subscriber {}: the listener failed on {}", describe(), message, e);
                }
            });
        } catch (RejectedExecutionException e) {
            queuedBytes.addAndGet(-size); // closed meanwhile
        }
    }

    private boolean overLimit(long used) {
        OutputLimit limit = pubsub.outputLimit();
        if (limit.hardReached(used)) {
            return true;
        }
        if (!limit.softReached(used)) {
            softSinceMs = 0;
            return false;
        }
        long now = System.currentTimeMillis();
        if (softSinceMs == 0) {
            softSinceMs = now;
            return false;
        }
        return now - softSinceMs > limit.softSeconds() * 1000;
    }

    /** Stops delivery: messages still queued are dropped, the listener's thread ends. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            thread.shutdown();
        }
    }

    @Override
    public String describe() {
        return "embedded-" + id;
    }
}
