/** {@code kevy tail}: {@link io.kevy.feed.client.cli.TailCommand}. */
package io.kevy.feed.client.cli;
