package io.kevy.bridge.webhook;

import io.kevy.feed.sidecar.ConfigDocs;
import io.kevy.testing.GeneratedDocs;
import org.junit.jupiter.api.Test;

/**
 * docs/bridges.md's {@code [sink.webhook]} key table (between the {@code <!-- options:webhook -->} markers) and
 * {@code docs/samples/bridge-webhook.toml} are what {@link ConfigDocs} generates from the option table. Run with
 * {@code -Dkevy.docs.write=true} to regenerate them.
 */
class WebhookDocsTest {
    @Test
    void theKeyTableAndTheSampleAreGeneratedFromTheOptionTable() {
        WebhookSinkProvider provider = new WebhookSinkProvider();
        GeneratedDocs.region("docs/bridges.md", "options:webhook", ConfigDocs.markdown(provider.options()));
        GeneratedDocs.file("docs/samples/bridge-webhook.toml", ConfigDocs.sample(provider));
    }
}
