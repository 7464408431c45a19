package io.kevy.feed.client;

import io.kevy.common.Slots;
import static io.kevy.feed.client.TestChanges.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact prefix filter of fail-open frames (feed contract §8), the own-key skip, glob escaping, slots. */
class KeyFilterTest {
    private static List<String> strs(byte[][] a) {
        return java.util.Arrays.stream(a).map(String::new).collect(java.util.stream.Collectors.toList());
    }

    private static RawChange raw(String... argv) {
        return FrameDecoder.decode(TestChanges.frame(0, argv).argv());
    }

    private final KeyFilter users = new KeyFilter(List.of(utf8("user:")), true, utf8("__kevy:feed-cursor:c"));

    @Test
    void failOpenFramesAreFilteredExactly() {
        RawChange mset = users.apply(raw("MSET", "user:1", "a", "order:1", "b", "user:2", "c"));
        assertThat(strs(mset.keys)).containsExactly("user:1", "user:2");
        assertThat(strs(mset.pairs)).containsExactly("user:1", "a", "user:2", "c");
        assertThat(strs(users.apply(raw("DEL", "order:1", "user:9")).keys))
                .containsExactly("user:9");
        assertThat(users.apply(raw("DEL", "order:1", "order:2"))).isNull();
        assertThat(users.apply(raw("RENAME", "order:1", "user:1")).keys.length).isEqualTo(2);
        assertThat(users.apply(raw("RENAME", "order:1", "order:2"))).isNull();
        assertThat(users.apply(raw("SET", "order:1", "x"))).isNull();
    }

    @Test
    void unknownKeysAreDeliveredAndTheOwnKeyIsNot() {
        assertThat(users.apply(raw("EVAL", "return 1", "0"))).isNotNull();
        assertThat(users.apply(raw("FLUSHALL"))).isNotNull();
        assertThat(users.apply(raw("NOSUCH", "order:1"))).isNotNull();
        assertThat(users.apply(raw("EVAL", "s", "1", "order:1"))).isNull();
        assertThat(users.apply(raw("SET", "__kevy:feed-cursor:c", "{}"))).isNull();
        KeyFilter all = new KeyFilter(List.of(), true, null);
        assertThat(all.apply(raw("SET", "order:1", "x"))).isNotNull();
        KeyFilter loose = new KeyFilter(List.of(utf8("user:")), false, null);
        assertThat(loose.apply(raw("MSET", "order:1", "b")).keys.length).isEqualTo(1);
    }

    @Test
    void globCharactersAreEscapedInScanPatterns() {
        assertThat(new String(KeyFilter.globPrefix(utf8("a*b?[c]\\")))).isEqualTo("a\\*b\\?\\[c\\]\\\\*");
        assertThat(new KeyFilter(List.of(), true, null).scanPatterns()).containsExactly((byte[]) null);
    }

    @Test
    void slotsFollowRedisCluster() {
        assertThat(Slots.slot(utf8("123456789"))).isEqualTo(0x31C3 % 16384);
        assertThat(Slots.slot(utf8("{user1000}.following"))).isEqualTo(Slots.slot(utf8("{user1000}.followers")));
        assertThat(Slots.slot(utf8("foo{}{bar}"))).isEqualTo(Slots.slot(utf8("foo{}{bar}")));
        assertThat(Slots.slot(utf8("{}x"))).isEqualTo(Slots.slot(utf8("{}x")));
        assertThat(Slots.slot(utf8("foo"))).isEqualTo(12182);
    }
}
