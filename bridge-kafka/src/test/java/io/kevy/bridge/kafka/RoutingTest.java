package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Routing: the longest matching prefix wins; unmatched keys go to the default topic or nowhere. */
class RoutingTest {
    private static byte[] k(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void longestPrefixWinsAndUnmatchedKeysFollowThePolicy() {
        Routing r = new Routing(List.of(new Routing.Route("user:", "users"), new Routing.Route("user:vip:", "vips")),
                "all", false);
        assertThat(r.topic(k("user:1"))).isEqualTo("users");
        assertThat(r.topic(k("user:vip:1"))).isEqualTo("vips");
        assertThat(r.topic(k("order:1"))).isEqualTo("all");
        assertThat(r.topic(k("use"))).isEqualTo("all");
        assertThat(r.topics()).containsExactlyInAnyOrder("users", "vips", "all");

        Routing drop = new Routing(List.of(new Routing.Route("user:", "users")), "all", true);
        assertThat(drop.topic(k("order:1"))).isNull();
        assertThat(drop.topics()).containsExactly("users");

        Routing none = new Routing(List.of(), "kevy.changes", true);
        assertThat(none.topic(new byte[] {(byte) 0xff, 0})).isNull();
        assertThat(none.topics()).containsExactly("kevy.changes");
        Routing binary = new Routing(List.of(new Routing.Route("é", "accents")), "all", false);
        assertThat(binary.topic(k("éa"))).isEqualTo("accents");
    }
}
