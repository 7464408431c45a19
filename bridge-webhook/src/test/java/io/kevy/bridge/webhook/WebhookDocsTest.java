package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.sidecar.ConfigDocs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/bridges.md's {@code [sink.webhook]} key table (between the {@code <!-- options:webhook -->} markers) and
 * {@code docs/samples/bridge-webhook.toml} are what {@link ConfigDocs} generates from the option table. Run with
 * {@code -Dkevy.docs.write=true} to regenerate them.
 */
class WebhookDocsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theKeyTableAndTheSampleAreGeneratedFromTheOptionTable() throws Exception {
        boolean write = Boolean.getBoolean("kevy.docs.write");
        WebhookSinkProvider provider = new WebhookSinkProvider();
        Path doc = ROOT.resolve("docs/bridges.md");
        String text = Files.readString(doc);
        String open = "<!-- options:webhook -->\n";
        String close = "<!-- /options:webhook -->";
        int a = text.indexOf(open);
        int b = text.indexOf(close);
        assertThat(a).as("marker %s in docs/bridges.md", open.trim()).isGreaterThanOrEqualTo(0);
        assertThat(b).isGreaterThan(a);
        String table = ConfigDocs.markdown(provider.options());
        if (write) {
            Files.writeString(doc, text.substring(0, a + open.length()) + table + text.substring(b));
        } else {
            assertThat(text.substring(a + open.length(), b))
                    .as("docs/bridges.md webhook table (regenerate: -Dkevy.docs.write=true)").isEqualTo(table);
        }
        Path sample = ROOT.resolve("docs/samples/bridge-webhook.toml");
        if (write) {
            Files.createDirectories(sample.getParent());
            Files.writeString(sample, ConfigDocs.sample(provider));
        }
        assertThat(Files.readString(sample)).as(sample.toString()).isEqualTo(ConfigDocs.sample(provider));
    }
}
