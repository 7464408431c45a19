/**
 * The sidecar runtime shared by the bridges: a TOML config with {@code KEVY_BRIDGE_*} environment overrides
 * ({@link io.kevy.feed.sidecar.SidecarConfig}, validated against option tables:
 * {@link io.kevy.feed.sidecar.SidecarOptions}), one {@link io.kevy.feed.client.FeedConsumer} to one sink plugged
 * in through {@link io.kevy.feed.sidecar.SinkProvider} ({@code [sink.<type>]}: its options, readiness, meters and
 * optionally its own cursor store), {@code /healthz} {@code /readyz} {@code /metrics} over the JDK HTTP server,
 * a graceful stop ({@link io.kevy.feed.sidecar.Sidecar}, {@link io.kevy.feed.sidecar.SidecarMain}), cursor
 * administration ({@link io.kevy.feed.sidecar.CursorCommand}) and the JSON-lines file sink
 * ({@link io.kevy.feed.sidecar.FileSinkProvider}). Needs tomlj and micrometer-registry-prometheus on the class
 * path (optional dependencies of the feed client; the bridge jars bring them). Arguments and results are
 * non-null unless a method says otherwise.
 */
package io.kevy.feed.sidecar;
