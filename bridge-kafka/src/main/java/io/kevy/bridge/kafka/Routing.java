package io.kevy.bridge.kafka;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which topic a key goes to: the route with the longest matching prefix, else the default topic, or nothing
 * when unmatched keys are dropped. Prefixes compare as UTF-8 bytes with the key's bytes. Immutable. Shared by the
 * sidecar's {@code [sink.kafka]} and the Kafka Connect source connector.
 */
public final class Routing {
    /** One route: keys starting with {@code prefix} go to {@code topic}. */
    public record Route(String prefix, String topic) {
        byte[] bytes() {
            return prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final List<Route> routes;
    private final List<byte[]> prefixes = new ArrayList<>();
    private final String defaultTopic;
    private final boolean dropUnmatched;

    /** Routes by longest prefix; unmatched keys to {@code defaultTopic}, or nowhere when {@code dropUnmatched}. */
    public Routing(List<Route> routes, String defaultTopic, boolean dropUnmatched) {
        List<Route> sorted = new ArrayList<>(routes);
        sorted.sort(Comparator.comparingInt((Route r) -> r.bytes().length).reversed());
        this.routes = List.copyOf(sorted);
        this.routes.forEach(r -> prefixes.add(r.bytes()));
        this.defaultTopic = defaultTopic;
        this.dropUnmatched = dropUnmatched;
    }

    /** The topic of {@code key}, or null when it is dropped. */
    public String topic(byte[] key) {
        for (int i = 0; i < routes.size(); i++) {
            if (startsWith(key, prefixes.get(i))) {
                return routes.get(i).topic();
            }
        }
        return dropUnmatched ? null : defaultTopic;
    }

    /**
     * Every topic the bridge writes: the routes' and, unless unmatched keys are dropped (or there are no
     * routes), the default topic. Resync markers and keyless changes go to all of them.
     */
    public Set<String> topics() {
        Set<String> out = new LinkedHashSet<>();
        routes.forEach(r -> out.add(r.topic()));
        if (!dropUnmatched || routes.isEmpty()) {
            out.add(defaultTopic);
        }
        return out;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        if (key.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (key[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
