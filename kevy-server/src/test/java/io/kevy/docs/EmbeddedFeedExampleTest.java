package io.kevy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.embedded.Change;
import io.kevy.embedded.ChangeBatch;
import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.FeedCursor;
import io.kevy.testing.GeneratedDocs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded-store example of docs/cdc.md and docs/zh-CN/cdc.md runs here, and both pages show exactly this
 * code: the lines between the {@code // docs:embedded} markers are their {@code <!-- example:embedded -->}
 * regions (regenerate: {@code -Dkevy.docs.write=true}).
 */
class EmbeddedFeedExampleTest {
    private static final Path SOURCE = Path.of("src/test/java/io/kevy/docs/EmbeddedFeedExampleTest.java");

    @Test
    void theEmbeddedStoreServesTheFeedAsTheDocsShow() {
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stdout = System.out;
        System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            embeddedExample();
        } finally {
            System.setOut(stdout);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo("0 [SET, user:1, ada]" + System.lineSeparator());
    }

    private static void embeddedExample() {
        // docs:embedded
        try (Store store = Store.open(Config.defaults().withFeed(0))) {   // 0: the 64 MiB default, at most 1 GiB
            FeedCursor start = store.changesTail();                         // (generation, offset)
            store.set("user:1", "ada");
            store.set("order:7", "paid");
            ChangeBatch batch = store.changesSince(start.generation(), start.offset(), 256,
                    List.of("user:".getBytes(StandardCharsets.UTF_8)));
            for (Change c : batch.changes()) {
                System.out.println(c.offset() + " " + c.argvUtf8());        // 0 [SET, user:1, ada]
            }
            FeedCursor next = batch.next();                                 // resume here: offset 2
            assertThat(next.offset()).isEqualTo(2);
        }
        // docs:embedded
    }

    @Test
    void bothFeedPagesShowThisTestsCode() {
        String block = GeneratedDocs.javaBlock(SOURCE, "// docs:embedded");
        GeneratedDocs.region("docs/cdc.md", "example:embedded", block);
        GeneratedDocs.region("docs/zh-CN/cdc.md", "example:embedded", block);
    }
}
