package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.GeneratedDocs;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * docs/bridges.md's connector settings are {@link KevySourceConnectorConfig#CONFIG_DEF} (regenerate with
 * {@code -Dkevy.docs.write=true}); the checks across settings and of the routes reject what they should.
 */
class ConnectDocsTest {
    @Test
    void theSettingsTableIsGeneratedFromTheConfigDef() {
        GeneratedDocs.region("docs/bridges.md", "options:connect", markdown(KevySourceConnectorConfig.CONFIG_DEF));
    }

    @Test
    void hostileRoutesAndRangesAreErrorsNamingTheSetting() {
        Map<String, String> base = Map.of("kevy.uri", "redis://127.0.0.1:6004");
        assertThat(new KevySourceConnectorConfig(Map.of("kevy.uri", "redis://127.0.0.1:6004",
                "topic.routes", "a=b:=t1,user:=t2")).routing().topic("a=b:x".getBytes())).isEqualTo("t1");
        for (String routes : new String[] {"user:", "=t", "user:=", "user:=bad topic", "a:=t,a:=u",
                "a:=" + "t".repeat(250)}) {
            Map<String, String> m = new java.util.HashMap<>(base);
            m.put("topic.routes", routes);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new KevySourceConnectorConfig(m))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("topic.routes");
        }
        Map<String, String> m = new java.util.HashMap<>(base);
        m.put("retry.backoff.ms", "500");
        m.put("retry.backoff.max.ms", "100");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new KevySourceConnectorConfig(m))
                .hasMessageContaining("retry.backoff.max.ms");
        Map<String, String> u = new java.util.HashMap<>(base);
        u.put("kevy.uri", "redis://user:s3cret@[::1");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new KevySourceConnectorConfig(u))
                .hasMessageContaining("kevy.uri").hasMessageNotContaining("s3cret");
    }

    static String markdown(ConfigDef def) {
        StringBuilder sb = new StringBuilder("| key | type | default | valid values | description |\n"
                + "|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey k : def.configKeys().values()) {
            String dflt = !k.hasDefault() ? "required" : k.defaultValue == null ? "none"
                    : "`" + ConfigDef.convertToString(k.defaultValue, k.type) + "`";
            if (k.hasDefault() && k.type == ConfigDef.Type.PASSWORD) {
                dflt = "`\"\"` (hidden)";
            } else if (k.hasDefault() && "".equals(ConfigDef.convertToString(k.defaultValue, k.type))) {
                dflt = "`\"\"`";
            }
            sb.append("| `").append(k.name).append("` | ").append(k.type.name().toLowerCase(java.util.Locale.ROOT))
                    .append(" | ").append(dflt).append(" | ").append(k.validator == null ? "" : k.validator.toString())
                    .append(" | ").append(k.documentation.replace("|", "\\|")).append(" |\n");
        }
        return sb.toString();
    }
}
