package io.kevy.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The docs renderer's two texts of an option: the key table takes the docs-only description and the stated
 * default when an option has them; the sample config keeps the one-line description and the value itself.
 */
class OptionDocsTest {
    static final Option<Long> THREADS = Option.integer("", "threads", 3, 1, 64, "Worker threads.")
            .env("T_THREADS").defaultDocs("available processors").docs("Worker threads; see [a](a.md). a | b");
    static final Option<Long> PORT = Option.integer("net", "port", 6004, 0, 65535, "TCP port.").env("T_PORT");

    @Test
    void theTableUsesTheDocsTextAndTheStatedDefault() {
        String md = OptionDocs.markdown(List.of(THREADS, PORT), Option::env);
        assertThat(md.lines()).containsExactly("| key | type | default | environment | description |",
                "|---|---|---|---|---|",
                "| `threads` | integer | available processors | `T_THREADS` | Worker threads; see [a](a.md). a \\| b |",
                "| `net.port` | integer | `6004` | `T_PORT` | TCP port. |");
    }

    @Test
    void theSampleUsesTheDescriptionAndTheValue() {
        String toml = OptionDocs.sampleToml("# t\n", List.of(THREADS, PORT), Option::env);
        assertThat(toml).contains("# Worker threads. (env T_THREADS)\n# threads = 3\n")
                .contains("# TCP port. (env T_PORT)\n# port = 6004\n").doesNotContain("a.md")
                .doesNotContain("available processors");
    }

    /** Root keys have no {@code []} header and come before every table, even when listed after one. */
    @Test
    void rootKeysComeFirstWithoutATableHeader() {
        String toml = OptionDocs.sampleToml("# t\n", List.of(PORT, THREADS), Option::env);
        assertThat(toml).doesNotContain("[]")
                .isEqualTo("# t\n\n# Worker threads. (env T_THREADS)\n# threads = 3\n"
                        + "\n[net]\n# TCP port. (env T_PORT)\n# port = 6004\n");
        assertThat(org.tomlj.Toml.parse(toml.replace("# threads", "threads").replace("# port", "port"))
                .getLong("net.port")).isEqualTo(6004L);
    }

    @Test
    void withoutDocsTheDescriptionIsTheDocs() {
        assertThat(PORT.docs()).isEqualTo("TCP port.");
        assertThat(PORT.defaultDocs()).isNull();
        assertThat(THREADS.description()).isEqualTo("Worker threads.");
    }
}
