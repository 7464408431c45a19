/**
 * The Kafka bridge: {@link io.kevy.bridge.kafka.KafkaSink} forwards a kevy change feed to Kafka topics (routes by
 * key prefix, one record per key with the kevy key as record key, headers, resync markers), at-least-once with an
 * idempotent producer or exactly-once into Kafka with a transactional producer that stores the cursors in a
 * compacted topic. {@link io.kevy.bridge.kafka.KafkaSinkProvider} plugs it into the sidecar runtime as
 * {@code [sink.kafka]}; the shaded {@code kevy-bridge-kafka.jar} runs {@code io.kevy.feed.sidecar.SidecarMain}.
 * Arguments and results are non-null unless a method says otherwise.
 */
package io.kevy.bridge.kafka;
