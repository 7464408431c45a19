package io.kevy.engine.config;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a key's access clock holds, as Redis 7.0 decides it from {@code maxmemory-policy}: the LRU clock
 * (seconds, 24 bits) normally, or under an LFU policy ({@code allkeys-lfu}, {@code volatile-lfu}) Redis's LFU
 * word: the minute of the last decrement (16 bits) and a logarithmic access counter (8 bits), initialised to
 * {@link #LFU_INIT_VAL}, incremented on access with probability {@code 1/((counter-5)*lfu-log-factor+1)} and
 * decremented by one per {@code lfu-decay-time} minutes idle ({@code src/evict.c}: {@code LFULogIncr},
 * {@code LFUDecrAndReturn}). kevy evicts nothing; the counter serves OBJECT FREQ and RESTORE ... FREQ.
 *
 * <p>Thread-safe: volatile fields written by CONFIG SET, read under shard locks. Changing the policy leaves the
 * stored words as they are, so values read under the other policy are meaningless until the keys are touched,
 * as Redis warns in OBJECT's error texts.
 */
public final class AccessPolicy {
    /** Redis's LFU_INIT_VAL: the counter of a new key. */
    public static final int LFU_INIT_VAL = 5;
    private static final List<String> POLICIES = List.of("volatile-lru", "volatile-lfu", "volatile-random",
            "volatile-ttl", "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction");

    private volatile String policy = "noeviction";
    private volatile boolean lfu;
    private volatile long logFactor = 10;
    private volatile long decayTime = 1;

    /** Registers {@code maxmemory-policy}, {@code lfu-log-factor} and {@code lfu-decay-time} in {@code rc}. */
    public void register(RuntimeConfig rc) {
        rc.enumeration("maxmemory-policy", POLICIES, () -> policy, v -> {
            policy = v;
            lfu = v.endsWith("-lfu");
        });
        rc.integer("lfu-log-factor", 0, Integer.MAX_VALUE, () -> logFactor, v -> logFactor = v);
        rc.integer("lfu-decay-time", 0, Integer.MAX_VALUE, () -> decayTime, v -> decayTime = v);
    }

    /** True under an LFU {@code maxmemory-policy}: access clocks hold LFU words. */
    public boolean lfu() {
        return lfu;
    }

    /** The LFU word of a new key at {@code nowMs} (Redis's {@code createObject} under LFU). */
    public static int lfuInit(long nowMs) {
        return minutes(nowMs) << 8 | LFU_INIT_VAL;
    }

    /** The LFU word holding {@code counter} (0..255) at {@code nowMs} (RESTORE ... FREQ). */
    public static int lfuWord(long nowMs, int counter) {
        return minutes(nowMs) << 8 | counter;
    }

    /** The LFU word after an access at {@code nowMs} (Redis's {@code updateLFU}). */
    public int touch(int word, long nowMs) {
        int counter = counter(word, nowMs);
        if (counter < 255) {
            double r = ThreadLocalRandom.current().nextDouble();
            double base = Math.max(0, counter - LFU_INIT_VAL);
            if (r < 1.0 / (base * logFactor + 1)) {
                counter++;
            }
        }
        return minutes(nowMs) << 8 | counter;
    }

    /** The counter of {@code word} decayed to {@code nowMs}, without changing it (OBJECT FREQ). */
    public int counter(int word, long nowMs) {
        int ldt = (word >>> 8) & 0xffff;
        int counter = word & 0xff;
        long decay = decayTime;
        if (decay == 0) {
            return counter;
        }
        int now = minutes(nowMs);
        long elapsed = now >= ldt ? now - ldt : 65535 - ldt + now;
        long periods = elapsed / decay;
        return periods >= counter ? 0 : (int) (counter - periods);
    }

    private static int minutes(long nowMs) {
        return (int) ((nowMs / 1000 / 60) & 65535);
    }
}
