/** The Micrometer binder of the feed consumer: {@link io.kevy.feed.client.metrics.FeedConsumerMetrics}. */
package io.kevy.feed.client.metrics;
