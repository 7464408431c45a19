package io.kevy.bridge.kafka;

import io.kevy.feed.sidecar.ConfigDocs;
import io.kevy.feed.sidecar.FileSinkProvider;
import io.kevy.feed.sidecar.SidecarOptions;
import io.kevy.feed.sidecar.SinkProvider;
import io.kevy.testing.GeneratedDocs;
import org.junit.jupiter.api.Test;

/**
 * docs/bridges.md and the sample configs cannot drift from the option tables: the key tables between the
 * {@code <!-- options:NAME -->} markers and {@code docs/samples/bridge-*.toml} are what {@link ConfigDocs}
 * generates. Run with {@code -Dkevy.docs.write=true} to regenerate them.
 */
class BridgeDocsTest {
    @Test
    void theKeyTablesAndSamplesAreGeneratedFromTheOptionTables() {
        GeneratedDocs.region("docs/bridges.md", "options:runtime", ConfigDocs.markdown(SidecarOptions.ALL));
        GeneratedDocs.region("docs/bridges.md", "options:file", ConfigDocs.markdown(new FileSinkProvider().options()));
        GeneratedDocs.region("docs/bridges.md", "options:kafka",
                ConfigDocs.markdown(new KafkaSinkProvider().options()));
        for (SinkProvider p : new SinkProvider[] {new FileSinkProvider(), new KafkaSinkProvider()}) {
            GeneratedDocs.file("docs/samples/bridge-" + p.type() + ".toml", ConfigDocs.sample(p));
        }
    }
}
