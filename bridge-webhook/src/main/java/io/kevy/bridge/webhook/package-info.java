/**
 * The webhook bridge: {@link io.kevy.bridge.webhook.WebhookSink} is a {@link io.kevy.feed.client.Sink} that POSTs
 * a kevy change feed to one HTTP endpoint as JSON batches of change envelopes, signed as Standard Webhooks
 * ({@link io.kevy.bridge.webhook.WebhookSigner}), in order per shard, retried with backoff, with rejected
 * batches parked in a dead-letter file. {@link io.kevy.bridge.webhook.WebhookSettings} holds its options;
 * {@link io.kevy.bridge.webhook.WebhookSinkProvider} plugs it into the sidecar runtime as {@code [sink.webhook]}
 * ({@code kevy bridge --config webhook.toml}). {@code docs/bridges.md} describes the wire format. Arguments and
 * results are non-null unless a method says otherwise.
 */
package io.kevy.bridge.webhook;
