/**
 * The Kafka Connect source connector of a kevy change feed: {@link io.kevy.bridge.kafka.connect.KevySourceConnector}
 * plans one task per group of shards, each {@link io.kevy.bridge.kafka.connect.KevySourceTask} follows its shards
 * with the feed-client's {@link io.kevy.feed.client.FeedConsumer} and writes the sidecar's change envelopes;
 * Connect stores the cursors as source offsets. docs/bridges.md ("Kafka Connect") shows a worker config, the
 * REST request and a Strimzi KafkaConnector; docs/design.md says why the task wraps the consumer.
 */
package io.kevy.bridge.kafka.connect;
