package com.example.consumer;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Handler;
import io.lettuce.core.KeyValue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A user's tiny consumer: the string keys under {@code user:} as a map (SET, MSET, DEL, rebuild entries). */
public final class UserMirror implements Handler<String, String> {
    public final Map<String, String> users = new ConcurrentHashMap<>();

    @Override
    public void handle(Batch<String, String> batch) {
        for (Change<String, String> c : batch) {
            switch (c.op()) {
                case SET, SNAPSHOT -> {
                    if (c.value() != null) {
                        users.put(c.key(), c.value());
                    }
                }
                case MSET -> {
                    for (KeyValue<String, String> kv : c.fields()) {
                        users.put(kv.getKey(), kv.getValue());
                    }
                }
                case DEL -> c.keys().forEach(users::remove);
                case VANISHED -> users.remove(c.key());
                default -> { }
            }
        }
    }
}
