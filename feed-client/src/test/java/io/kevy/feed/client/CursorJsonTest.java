package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The SDK's small JSON reader of cursor documents: what it accepts, and hostile input it must refuse cleanly. */
class CursorJsonTest {
    private static Object read(String s) {
        return CursorJson.read(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheJsonACursorDocumentUses() {
        assertThat(read(" {\"a\" : [1, -2, {\"b\":\"x\\u00e9\\n\\\"\"}], \"t\":true, \"f\":false, \"n\":null} "))
                .isEqualTo(new java.util.LinkedHashMap<>(Map.of("a", List.of(1L, -2L, Map.of("b", "x\u00e9\n\"")),
                        "t", true, "f", false)) {{ put("n", null); }});
        assertThat(read("\"caf\u00e9\"")).isEqualTo("caf\u00e9");
        assertThat(read("[]")).isEqualTo(List.of());
        assertThat(read("{}")).isEqualTo(Map.of());
        assertThat(read("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void namesWhatIsWrongAndWhere() {
        assertThatThrownBy(() -> read("{")).hasMessage("expected a field name at byte 1");
        assertThatThrownBy(() -> read("{\"a\":1}x")).hasMessage("trailing bytes after the document at byte 7");
        assertThatThrownBy(() -> read("1.5")).hasMessage("not an integer at byte 1");
        assertThatThrownBy(() -> read("01")).hasMessage("malformed number at byte 2");
        assertThatThrownBy(() -> read("99999999999999999999")).hasMessageStartingWith("integer out of range");
        assertThatThrownBy(() -> read("\"a\nb\"")).hasMessage("control character in a string at byte 2");
        assertThatThrownBy(() -> read("\"\\q\"")).hasMessage("bad escape '\\q' at byte 3");
        assertThatThrownBy(() -> read("\"\\u12\"")).hasMessageContaining("\\u escape");
        assertThatThrownBy(() -> read("tru")).hasMessage("unexpected end of the document at byte 0");
        assertThatThrownBy(() -> read("")).hasMessage("unexpected end of the document at byte 0");
        assertThatThrownBy(() -> read("[".repeat(100))).hasMessage("nested deeper than 8 at byte 9");
        assertThatThrownBy(() -> CursorJson.read(new byte[CursorJson.MAX_BYTES + 1]))
                .hasMessageContaining("more than the 1048576 a cursor document may have");
    }

    @Test
    void aCursorDocumentWithWrongTypesIsAConfigErrorNotACrash() {
        for (String doc : List.of("[]", "{\"version\":\"1\"}", "{\"version\":1,\"consumer\":\"c\",\"shards\":1,"
                + "\"cursors\":[{\"shard\":4294967296,\"generation\":1,\"offset\":1}]}", "{\"version\":1,"
                + "\"consumer\":\"c\",\"shards\":1,\"cursors\":[7]}")) {
            assertThatThrownBy(() -> StoredCursors.fromJson(doc.getBytes(StandardCharsets.UTF_8), "f.json"))
                    .as(doc).isInstanceOf(KevyConfigException.class).hasMessageStartingWith("f.json: ");
        }
    }

    @Test
    void randomBytesAndTruncationsNeverEscapeAsAnythingButIllegalArgument() {
        long seed = System.nanoTime();
        System.out.println("CursorJsonTest seed " + seed);
        Random r = new Random(seed);
        byte[] good = CursorStoreTest.cursors("c", 1, 2, 3).toJson();
        for (int i = 0; i < 5000; i++) {
            byte[] b;
            if (i % 2 == 0) {
                b = java.util.Arrays.copyOf(good, r.nextInt(good.length));
            } else {
                b = good.clone();
                b[r.nextInt(b.length)] = (byte) r.nextInt(256);
            }
            try {
                StoredCursors.fromJson(b, "f");
            } catch (KevyConfigException expected) {
                assertThat(expected).as("seed " + seed).hasMessageStartingWith("f: ");
            }
        }
    }
}
