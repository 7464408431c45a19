package io.kevy.bridge.webhook;

/**
 * One POST: its {@code webhook-id}, payload type, exact body, how many envelopes it carries, and for a CHANGES
 * request the shard, generation and offsets of its first and last change (-1 otherwise). The body is built once
 * and sent unchanged by every attempt (only the timestamp and signatures change). Immutable.
 *
 * @param id               the {@code webhook-id}: stable for the same content, without '.'
 * @param type             the payload's {@code type}: {@code io.kevy.changes}, {@code io.kevy.snapshot},
 *                         {@code io.kevy.resync.begin} or {@code io.kevy.resync.end}
 * @param body             the JSON body; do not modify
 * @param events           envelopes in {@code data.events}
 * @param oldestReadMillis when the oldest change of the request was read by the consumer (ms since the epoch)
 */
record WebhookRequest(String id, String type, byte[] body, int events, long oldestReadMillis) {
    @Override
    public String toString() {
        return "WebhookRequest[" + id + ", " + type + ", " + events + " event(s), " + body.length + " bytes]";
    }
}
