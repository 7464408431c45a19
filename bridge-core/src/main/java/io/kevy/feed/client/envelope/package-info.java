/**
 * The JSON change envelope shared by every sink (CloudEvents 1.0, structured mode): {@link
 * io.kevy.feed.client.envelope.ChangeEnvelopes}. Its JSON Schema is {@code docs/schema/change-envelope.schema.json}.
 */
package io.kevy.feed.client.envelope;
