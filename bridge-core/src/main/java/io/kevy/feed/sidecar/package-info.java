/**
 * The sidecar runtime shared by the bridges: a TOML config with {@code KEVY_BRIDGE_*} environment overrides
 * ({@link io.kevy.feed.sidecar.SidecarConfig}, validated against option tables of the one option system,
 * kevy-config: {@link io.kevy.feed.sidecar.SidecarOptions}), one {@link io.kevy.feed.client.FeedConsumer} to one
 * sink plugged in through {@link io.kevy.feed.sidecar.SinkProvider} ({@code [sink.<type>]}: its options,
 * readiness, meters and optionally its own cursor store), {@code /healthz} {@code /readyz} {@code /metrics} over
 * the JDK HTTP server, a graceful stop ({@link io.kevy.feed.sidecar.Sidecar},
 * {@link io.kevy.feed.sidecar.SidecarMain}), cursor administration ({@link io.kevy.feed.sidecar.CursorCommand})
 * and the JSON-lines file sink ({@link io.kevy.feed.sidecar.FileSinkProvider}). Lives in bridge-core (with the
 * JSON envelope and {@code kevy tail}), so that the SDK, feed-client, needs none of tomlj, Jackson, picocli or
 * the Prometheus registry. Arguments and results are non-null unless a method says otherwise.
 */
package io.kevy.feed.sidecar;
