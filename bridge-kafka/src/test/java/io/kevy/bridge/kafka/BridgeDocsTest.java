package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.sidecar.ConfigDocs;
import io.kevy.feed.sidecar.FileSinkProvider;
import io.kevy.feed.sidecar.SidecarOptions;
import io.kevy.feed.sidecar.SinkProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/bridges.md and the sample configs cannot drift from the option tables: the key tables between the
 * {@code <!-- options:NAME -->} markers and {@code docs/samples/bridge-*.toml} are what {@link ConfigDocs}
 * generates. Run with {@code -Dkevy.docs.write=true} to regenerate them.
 */
class BridgeDocsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static Map<String, String> tables() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("runtime", ConfigDocs.markdown(SidecarOptions.ALL));
        m.put("file", ConfigDocs.markdown(new FileSinkProvider().options()));
        m.put("kafka", ConfigDocs.markdown(new KafkaSinkProvider().options()));
        return m;
    }

    @Test
    void theKeyTablesAndSamplesAreGeneratedFromTheOptionTables() throws Exception {
        boolean write = Boolean.getBoolean("kevy.docs.write");
        Path doc = ROOT.resolve("docs/bridges.md");
        String text = Files.readString(doc);
        for (Map.Entry<String, String> t : tables().entrySet()) {
            String open = "<!-- options:" + t.getKey() + " -->\n";
            String close = "<!-- /options:" + t.getKey() + " -->";
            int a = text.indexOf(open);
            int b = text.indexOf(close);
            assertThat(a).as("marker %s in docs/bridges.md", open.trim()).isGreaterThanOrEqualTo(0);
            assertThat(b).isGreaterThan(a);
            String current = text.substring(a + open.length(), b);
            if (write) {
                text = text.substring(0, a + open.length()) + t.getValue() + text.substring(b);
            } else {
                assertThat(current).as("docs/bridges.md table %s (regenerate: -Dkevy.docs.write=true)", t.getKey())
                        .isEqualTo(t.getValue());
            }
        }
        if (write) {
            Files.writeString(doc, text);
        }
        for (SinkProvider p : new SinkProvider[] {new FileSinkProvider(), new KafkaSinkProvider()}) {
            Path sample = ROOT.resolve("docs/samples/bridge-" + p.type() + ".toml");
            if (write) {
                Files.createDirectories(sample.getParent());
                Files.writeString(sample, ConfigDocs.sample(p));
            }
            assertThat(Files.readString(sample)).as(sample.toString()).isEqualTo(ConfigDocs.sample(p));
        }
    }
}
