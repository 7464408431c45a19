package io.kevy.pubsub;

import io.kevy.engine.session.ClientChannel;
import io.kevy.engine.session.Session;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client connection as a subscriber: publishers queue each message's shared RESP bytes here, and one task on
 * the connection's event loop writes whatever is queued and flushes once ({@link ClientChannel#push}), so
 * delivery never runs under a shard lock or on the publisher's thread.
 *
 * <p>Output limit ({@code client-output-buffer-limit pubsub}, {@link OutputLimit}): the bytes queued here plus
 * those the transport has not sent yet are the client's output buffer. Reaching the hard limit, or staying at
 * the soft limit longer than its seconds, disconnects the client with one log line; its queued messages are
 * dropped at once, so a subscriber that never reads holds at most about the hard limit.
 *
 * <p>Thread-safe.
 */
public final class BufferedSubscriber implements Subscriber {
    private static final Logger log = LoggerFactory.getLogger(BufferedSubscriber.class);

    private final PubSub pubsub;
    private final Session session;
    private final ClientChannel channel;
    private final ConcurrentLinkedQueue<byte[]> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicBoolean dropped = new AtomicBoolean();
    /** When the soft limit was first reached (ms), 0 while under it. */
    private volatile long softSinceMs;

    public BufferedSubscriber(PubSub pubsub, Session session) {
        this.pubsub = pubsub;
        this.session = session;
        this.channel = session.channel();
    }

    @Override
    public void deliver(Message message) {
        if (dropped.get()) {
            return;
        }
        byte[] resp = message.resp();
        long used = queuedBytes.get() + channel.pendingOutputBytes() + resp.length;
        if (overLimit(used)) {
            drop(used);
            return;
        }
        if (queue.isEmpty() && channel.onOwnThread()) {
            // on the receiver's own event loop (the publisher itself, or a connection of the same loop): into its
            // output now, as Redis writes a message at PUBLISH time, so a RESP3 connection publishing to its own
            // channel gets the push before PUBLISH's reply, in the protocol it speaks then; sent with the replies
            channel.push(resp);
            scheduleFlush();
            return;
        }
        queuedBytes.addAndGet(resp.length);
        queue.add(resp);
        if (scheduled.compareAndSet(false, true)) {
            try {
                channel.execute(this::drain);
            } catch (RejectedExecutionException e) {
                dropped.set(true); // the connection's event loop is gone: so is the connection
                queue.clear();
            }
        }
    }

    private void scheduleFlush() {
        try {
            channel.execute(channel::flushPushes);
        } catch (RejectedExecutionException e) {
            dropped.set(true);
        }
    }

    /** Redis's checkClientOutputBufferLimits for the pubsub class. */
    private boolean overLimit(long used) {
        OutputLimit limit = pubsub.outputLimit();
        if (limit.hardReached(used)) {
            return true;
        }
        if (!limit.softReached(used)) {
            if (softSinceMs != 0) {
                softSinceMs = 0;
            }
            return false;
        }
        long now = System.currentTimeMillis();
        long since = softSinceMs;
        if (since == 0) {
            softSinceMs = now;
            return false;
        }
        return now - since > limit.softSeconds() * 1000;
    }

    private void drop(long used) {
        if (!dropped.compareAndSet(false, true)) {
            return;
        }
        queue.clear();
        queuedBytes.set(0);
        OutputLimit l = pubsub.outputLimit();
        log.warn("closing subscriber {}: output buffer of {} bytes over client-output-buffer-limit pubsub {} {} {}",
                describe(), used, l.hardBytes(), l.softBytes(), l.softSeconds());
        channel.close();
    }

    /** On the event loop: writes every queued message, then flushes once. */
    private void drain() {
        scheduled.set(false);
        boolean any = false;
        byte[] b;
        while ((b = queue.poll()) != null) {
            queuedBytes.addAndGet(-b.length);
            if (!dropped.get()) {
                channel.push(b);
                any = true;
            }
        }
        if (any) {
            channel.flushPushes();
        }
    }

    /** True once this subscriber went over its output limit and was disconnected. */
    public boolean dropped() {
        return dropped.get();
    }

    @Override
    public String describe() {
        return "id=" + session.id() + " addr=" + channel.remoteAddress();
    }
}
