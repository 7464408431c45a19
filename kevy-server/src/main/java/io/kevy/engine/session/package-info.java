/**
 * Clients as the engine sees them: a {@link io.kevy.engine.session.Session} per connection (or embedded call)
 * with its MULTI queue and watched keys, the registry of sessions ({@link io.kevy.engine.session.Sessions}),
 * the {@link io.kevy.engine.session.ClientChannel} a reply goes back through, and blocking: a
 * {@link io.kevy.engine.session.BlockedClient} parks {@link io.kevy.engine.session.Waiter}s, never a thread.
 */
package io.kevy.engine.session;
