package io.kevy.engine.type;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A consumer group of a stream (Redis's {@code streamCG}): the last id delivered, the entries-read counter (-1 when
 * unknown), the pending entries list (PEL: delivered, not yet acknowledged, by id) and the consumers (by name,
 * in byte order as Redis's rax lists them), each with its own PEL holding the same {@link Pending} objects.
 *
 * <p>Not thread-safe: used under the owning shard's lock.
 */
public final class StreamGroup {
    /** One delivered, unacknowledged entry: its owner, the last delivery time (ms) and the delivery count. */
    public static final class Pending {
        public Consumer consumer;
        public long deliveryTime;
        public long deliveryCount;

        Pending(Consumer consumer, long deliveryTime, long deliveryCount) {
            this.consumer = consumer;
            this.deliveryTime = deliveryTime;
            this.deliveryCount = deliveryCount;
        }
    }

    /** A consumer: its name, when it was last seen (ms) and the entries pending for it. */
    public static final class Consumer {
        public final byte[] name;
        public long seenTime;
        public final TreeMap<StreamId, Pending> pel = new TreeMap<>();

        Consumer(byte[] name, long seenTime) {
            this.name = name;
            this.seenTime = seenTime;
        }
    }

    public StreamId lastId;
    /** Entries read by the group, or -1 (Redis's {@code SCG_INVALID_ENTRIES_READ}). */
    public long entriesRead;
    public final TreeMap<StreamId, Pending> pel = new TreeMap<>();
    public final TreeMap<byte[], Consumer> consumers = new TreeMap<>(Arrays::compareUnsigned);

    public StreamGroup(StreamId lastId, long entriesRead) {
        this.lastId = lastId;
        this.entriesRead = entriesRead;
    }

    /** The consumer named {@code name}, or null. */
    public Consumer consumer(byte[] name) {
        return consumers.get(name);
    }

    /** Creates the consumer {@code name} (which must not exist), seen at {@code now}. */
    public Consumer createConsumer(byte[] name, long now) {
        Consumer c = new Consumer(name, now);
        consumers.put(name, c);
        return c;
    }

    /** Removes consumer {@code c} and its pending entries; returns how many were pending. */
    public int deleteConsumer(Consumer c) {
        int n = c.pel.size();
        for (StreamId id : c.pel.keySet()) {
            pel.remove(id);
        }
        consumers.remove(c.name);
        return n;
    }

    /**
     * Makes {@code id} pending for {@code owner} with the given time and count, taking it from a previous owner.
     */
    public Pending assign(StreamId id, Consumer owner, long deliveryTime, long deliveryCount) {
        Pending p = pel.get(id);
        if (p == null) {
            p = new Pending(owner, deliveryTime, deliveryCount);
            pel.put(id, p);
        } else {
            p.consumer.pel.remove(id);
            p.consumer = owner;
            p.deliveryTime = deliveryTime;
            p.deliveryCount = deliveryCount;
        }
        owner.pel.put(id, p);
        return p;
    }

    /** Acknowledges {@code id}: true when it was pending. */
    public boolean ack(StreamId id) {
        Pending p = pel.remove(id);
        if (p == null) {
            return false;
        }
        p.consumer.pel.remove(id);
        return true;
    }

    /** A deep copy (consumers and pending entries are new objects). */
    StreamGroup copy() {
        StreamGroup g = new StreamGroup(lastId, entriesRead);
        for (Consumer c : consumers.values()) {
            Consumer d = g.createConsumer(c.name, c.seenTime);
            for (Map.Entry<StreamId, Pending> e : c.pel.entrySet()) {
                Pending p = new Pending(d, e.getValue().deliveryTime, e.getValue().deliveryCount);
                d.pel.put(e.getKey(), p);
                g.pel.put(e.getKey(), p);
            }
        }
        return g;
    }
}
