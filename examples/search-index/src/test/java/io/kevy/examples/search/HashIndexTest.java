package io.kevy.examples.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Lucene index on its own: documents, deletes, field-name escaping, search, commits with user data. */
class HashIndexTest {
    private static Map<String, Optional<Map<String, String>>> changes(Object... keyThenFields) {
        Map<String, Optional<Map<String, String>>> m = new LinkedHashMap<>();
        for (int i = 0; i < keyThenFields.length; i += 2) {
            @SuppressWarnings("unchecked")
            Map<String, String> f = (Map<String, String>) keyThenFields[i + 1];
            m.put((String) keyThenFields[i], Optional.ofNullable(f));
        }
        return m;
    }

    @Test
    void documentsAreReplacedWholeAndDeleted() {
        try (HashIndex index = HashIndex.inMemory()) {
            index.apply(changes("pkg:zlib1g", Map.of("name", "zlib1g", "description", "compression library"),
                    "pkg:gzip", Map.of("name", "gzip", "description", "GNU compression utilities")));
            assertThat(index.count()).isEqualTo(2);
            index.apply(changes("pkg:zlib1g", Map.of("name", "zlib1g", "version", "2")));
            assertThat(index.get("pkg:zlib1g")).contains(Map.of("name", "zlib1g", "version", "2"));
            index.apply(changes("pkg:gzip", null, "pkg:none", null));
            assertThat(index.get("pkg:gzip")).isEmpty();
            assertThat(index.all()).containsOnlyKeys("pkg:zlib1g");
            index.apply(changes("pkg:zlib1g", Map.of()));
            assertThat(index.count()).as("no fields = no document").isZero();
        }
    }

    @Test
    void hashFieldsMayBeNamedLikeTheKeyField() {
        try (HashIndex index = HashIndex.inMemory()) {
            Map<String, String> odd = Map.of("_key", "not the key", "__x", "y", "name", "n");
            index.apply(changes("pkg:odd", odd));
            assertThat(index.get("pkg:odd")).contains(odd);
            assertThat(index.keys()).containsExactly("pkg:odd");
        }
    }

    @Test
    void searchesNamesAndStemmedDescriptions() {
        try (HashIndex index = HashIndex.inMemory()) {
            index.apply(changes(
                    "pkg:zlib1g", Map.of("name", "zlib1g", "section", "libs", "description", "compression library"),
                    "pkg:gzip", Map.of("name", "gzip", "section", "utils", "description", "GNU compression utilities"),
                    "pkg:python3-yaml", Map.of("name", "python3-yaml", "section", "python",
                            "description", "YAML parser and emitter for Python3")));
            assertThat(index.search("compressing", 10)).extracting(HashIndex.Hit::key)
                    .containsExactlyInAnyOrder("pkg:zlib1g", "pkg:gzip");
            assertThat(index.search("gzip", 10).get(0).key()).isEqualTo("pkg:gzip");
            assertThat(index.search("section:python AND yaml", 10)).extracting(HashIndex.Hit::key)
                    .containsExactly("pkg:python3-yaml");
            assertThat(index.countHits("libraries")).isEqualTo(1);
            assertThatThrownBy(() -> index.search("name:(", 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bad query");
        }
    }

    @Test
    void commitsKeepUserDataAndAreSearchableFromOutside(@TempDir Path dir) {
        try (HashIndex index = HashIndex.open(dir)) {
            assertThat(index.committedUserData()).isEmpty();
            index.apply(changes("pkg:gzip", Map.of("name", "gzip", "description", "compression utilities")));
            index.commit(Map.of("cursor", "42"));
            assertThat(index.committedUserData()).containsEntry("cursor", "42");
            assertThat(HashIndex.searchCommitted(dir, "gzip", 5)).extracting(HashIndex.Hit::key)
                    .containsExactly("pkg:gzip");
        }
        try (HashIndex again = HashIndex.open(dir)) {
            assertThat(again.committedUserData()).containsEntry("cursor", "42");
            assertThat(again.count()).isEqualTo(1);
        }
    }
}
