package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.config.ConfigException;
import io.kevy.feed.sidecar.ConfigDocs;
import io.kevy.feed.sidecar.FileSinkProvider;
import io.kevy.feed.sidecar.SidecarConfig;
import io.kevy.feed.sidecar.SinkProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The [sink.kafka] table: settings, refused producer properties, the generated sample. */
class KafkaSinkProviderTest {
    @TempDir
    Path dir;

    private SidecarConfig load(String toml) throws Exception {
        Path p = dir.resolve("k.toml");
        Files.writeString(p, toml);
        return SidecarConfig.load(p, Map.of(), SinkProvider.installed());
    }

    @Test
    void theProvidersAreInstalledAndTheSampleLoads() throws Exception {
        assertThat(SinkProvider.installed()).extracting(SinkProvider::type).containsExactly("file", "kafka");
        SidecarConfig c = load(ConfigDocs.sample(new KafkaSinkProvider()));
        assertThat(c.sinkType()).isEqualTo("kafka");
        assertThat(load(ConfigDocs.sample(new FileSinkProvider())).sinkType()).isEqualTo("file");
    }

    @Test
    void producerSettingsAreFixedWhereTheGuaranteesNeedThem() throws Exception {
        SidecarConfig c = load("""
                [consumer]
                name = "orders"
                [sink.kafka]
                bootstrap_servers = "k1:9092,k2:9092"
                compression = "zstd"
                transactional = true
                [sink.kafka.producer]
                "linger.ms" = 20
                "sasl.jaas.config" = "secret stuff"
                """);
        KafkaSinkSettings s = KafkaSinkSettings.of(c.values(), "orders");
        assertThat(s.producer()).containsEntry("enable.idempotence", true).containsEntry("acks", "all")
                .containsEntry("compression.type", "zstd").containsEntry("linger.ms", "20")
                .containsEntry("transactional.id", "kevy-bridge.orders").containsEntry("client.id", "kevy-bridge-orders");
        assertThat(s.transactional()).isTrue();
        assertThat(String.join("\n", io.kevy.feed.sidecar.Sidecar.describe(c, false))).doesNotContain("secret stuff");
    }

    @Test
    void refusesWhatWouldBreakTheGuarantees() {
        String base = "[sink.kafka]\nbootstrap_servers = \"k:9092\"\n";
        for (String bad : List.of("[sink.kafka.producer]\n\"acks\" = \"1\"\n",
                "[sink.kafka.producer]\n\"transactional.id\" = \"x\"\n",
                "[sink.kafka.producer]\n\"max.in.flight.requests.per.connection\" = 10\n",
                "[sink.kafka.producer]\n\"no.such.property\" = 1\n")) {
            assertThatThrownBy(() -> load(base + bad)).as(bad).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("k.toml:");
        }
    }
}
