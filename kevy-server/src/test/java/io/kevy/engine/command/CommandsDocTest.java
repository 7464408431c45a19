package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.CommandTables;
import io.kevy.testing.GeneratedDocs;
import org.junit.jupiter.api.Test;

/**
 * docs/commands.md is what {@link CommandDocs} renders from the command table, so it cannot drift from the
 * code. Regenerate: {@code ./mvnw -q -B -o test -pl kevy-server -Dtest=CommandsDocTest -Dkevy.docs.write=true}.
 */
class CommandsDocTest {
    @Test
    void docsCommandsMdIsGeneratedFromTheCommandTable() {
        GeneratedDocs.file("docs/commands.md", CommandDocs.markdown(CommandTables.full()));
    }

    @Test
    void everyCommandAndSubcommandHasARowAndTheFeedCommandsAreThere() {
        String md = CommandDocs.markdown(CommandTables.full());
        for (CommandSpec top : CommandTables.full().all()) {
            if (top.isContainer()) {
                for (CommandSpec sub : top.subcommands().values()) {
                    assertThat(md).contains("| `" + sub.name().toUpperCase().replace('|', ' ') + "` |");
                }
            } else {
                assertThat(md).contains("| `" + top.name().toUpperCase() + "` |");
            }
        }
        assertThat(md).contains("| `FEED.READ` | -4 |", "| `FEED.TAIL` | 2 |", "| `FEED.SHARDS` | 1 |",
                "| `PREFIX.STATS` | 2 |");
    }

    @Test
    void keyPositionsRenderAsRanges() {
        CommandTable t = CommandTables.full();
        assertThat(CommandDocs.keys(t.lookup("get"))).isEqualTo("1");
        assertThat(CommandDocs.keys(t.lookup("mset"))).isEqualTo("1..-1/2");
        assertThat(CommandDocs.keys(t.lookup("del"))).isEqualTo("1..-1");
        assertThat(CommandDocs.keys(t.lookup("zunionstore"))).isEqualTo("movable");
        assertThat(CommandDocs.keys(t.lookup("ping"))).isEmpty();
    }
}
