package io.kevy.engine.type;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SetValueTest {

    /**
     * Random adds and removes against a HashSet, checking membership, size, Redis 7.0's encoding rule (intset
     * until a non-integer member or more than 512 members, then hashtable for good) and the ascending order of
     * an intset's iteration.
     */
    @Test
    void randomOperationsMatchHashSetAndEncodingRule() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("SetValueTest seed=" + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 40; round++) {
            SetValue set = new SetValue();
            Set<String> model = new HashSet<>();
            boolean hashtable = false;
            int range = 1 + rnd.nextInt(1200);
            double nonIntChance = rnd.nextInt(3) == 0 ? 0.01 : 0;
            for (int step = 0; step < 2000; step++) {
                String m = rnd.nextDouble() < nonIntChance ? "m" + rnd.nextInt(range)
                        : Long.toString(rnd.nextInt(range) - range / 2);
                if (rnd.nextInt(10) == 0) {
                    m = "0" + m; // not canonical: a string member
                }
                String what = "seed " + seed + " round " + round + " step " + step + " member " + m;
                if (rnd.nextInt(3) > 0) {
                    assertThat(set.add(Bytes.utf8(m))).as(what).isEqualTo(model.add(m));
                    if (!RedisNumbers.isLong(Bytes.utf8(m)) || model.size() > SetValue.MAX_INTSET_ENTRIES) {
                        hashtable = true;
                    }
                } else {
                    assertThat(set.remove(Bytes.utf8(m))).as(what).isEqualTo(model.remove(m));
                }
                assertThat(set.size()).as(what).isEqualTo(model.size());
                assertThat(set.encoding()).as(what).isEqualTo(hashtable ? "hashtable" : "intset");
                assertThat(set.contains(Bytes.utf8(m))).as(what).isEqualTo(model.contains(m));
            }
            List<String> members = strings(set.members());
            assertThat(members).containsExactlyInAnyOrderElementsOf(model);
            if (set.isIntset()) {
                assertThat(members).isSortedAccordingTo((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b)));
            }
            if (!model.isEmpty()) {
                assertThat(model).contains(Bytes.str(set.random(rnd)));
            }
            Set<String> scanned = new HashSet<>();
            long cursor = 0;
            do {
                cursor = set.scan(cursor, b -> scanned.add(Bytes.str(b)));
            } while (cursor != 0);
            assertThat(scanned).isEqualTo(model);
            assertThat(strings(set.copy().members())).containsExactlyInAnyOrderElementsOf(model);
            assertThat(set.copy().encoding()).isEqualTo(set.encoding());
        }
    }

    @Test
    void intsetHoldsAtMost512Members() {
        SetValue set = new SetValue();
        for (int i = 0; i < 512; i++) {
            set.add(Bytes.utf8(Integer.toString(i)));
        }
        assertThat(set.encoding()).isEqualTo("intset");
        set.add(Bytes.utf8("512"));
        assertThat(set.encoding()).isEqualTo("hashtable");
        set.remove(Bytes.utf8("512"));
        assertThat(set.encoding()).isEqualTo("hashtable");
    }

    @Test
    void extremeIntegersAreIntsetMembers() {
        SetValue set = new SetValue();
        set.add(Bytes.utf8("9223372036854775807"));
        set.add(Bytes.utf8("-9223372036854775808"));
        set.add(Bytes.utf8("0"));
        assertThat(set.encoding()).isEqualTo("intset");
        assertThat(strings(set.members())).containsExactly("-9223372036854775808", "0", "9223372036854775807");
        assertThat(set.contains(Bytes.utf8("-9223372036854775808"))).isTrue();
        set.add(Bytes.utf8("9223372036854775808"));
        assertThat(set.encoding()).isEqualTo("hashtable");
    }

    @Test
    void rebuildIsSaddInChunksOf1024() {
        SetValue set = new SetValue();
        for (int i = 0; i < 3000; i++) {
            set.add(Bytes.utf8("m" + i));
        }
        List<byte[][]> frames = new ArrayList<>();
        set.rebuild(Bytes.utf8("k"), frames::add);
        assertThat(frames).hasSize(3);
        Set<String> replayed = new HashSet<>();
        for (byte[][] f : frames) {
            assertThat(Bytes.str(f[0])).isEqualTo("SADD");
            assertThat(f.length - 2).isLessThanOrEqualTo(RedisValue.REBUILD_CHUNK);
            for (int i = 2; i < f.length; i++) {
                replayed.add(Bytes.str(f[i]));
            }
        }
        assertThat(replayed).containsExactlyInAnyOrderElementsOf(strings(set.members()));
    }

    private static List<String> strings(List<byte[]> bytes) {
        List<String> out = new ArrayList<>();
        bytes.forEach(b -> out.add(Bytes.str(b)));
        return out;
    }
}
