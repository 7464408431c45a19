/**
 * The runtime configuration CONFIG GET and CONFIG SET see: the parameter registry
 * ({@link io.kevy.engine.config.RuntimeConfig}), the catalog of Redis 7.0's parameter names and defaults
 * ({@link io.kevy.engine.config.RedisConfigCatalog}) and the live encoding thresholds
 * ({@link io.kevy.engine.config.EncodingLimits}). The server's startup options (TOML, environment, flags) are
 * {@code io.kevy.server.config}.
 */
package io.kevy.engine.config;
