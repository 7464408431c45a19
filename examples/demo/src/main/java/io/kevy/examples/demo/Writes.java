package io.kevy.examples.demo;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** What the demo wrote: write commands and the distinct keys they touched. Thread-safe. */
final class Writes {
    private final LongAdder commands = new LongAdder();
    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    void wrote(String key) {
        commands.increment();
        keys.add(key);
    }

    long commands() {
        return commands.sum();
    }

    int keys() {
        return keys.size();
    }
}
