/**
 * The kafka-sidecar example's consumer: {@link io.kevy.examples.kafka.ChangeTopicConsumer} reads the topics of a
 * kevy Kafka bridge and keeps a {@link io.kevy.examples.kafka.KeyView} of the keys. Arguments and results are
 * non-null unless a method says otherwise.
 */
package io.kevy.examples.kafka;
