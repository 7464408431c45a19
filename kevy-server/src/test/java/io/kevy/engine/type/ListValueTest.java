package io.kevy.engine.type;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.text.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ListValueTest {

    /** Random operations on the ring buffer and on an ArrayList must agree after every step. */
    @Test
    void randomOperationsMatchArrayList() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("ListValueTest seed=" + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 20; round++) {
            ListValue list = new ListValue();
            List<byte[]> model = new ArrayList<>();
            for (int step = 0; step < 3000; step++) {
                int op = rnd.nextInt(12);
                byte[] v = Bytes.utf8("v" + rnd.nextInt(8));
                String what = "seed " + seed + " round " + round + " step " + step + " op " + op;
                switch (op) {
                    case 0, 1 -> {
                        list.pushLeft(v);
                        model.add(0, v);
                    }
                    case 2, 3 -> {
                        list.pushRight(v);
                        model.add(v);
                    }
                    case 4 -> {
                        if (!model.isEmpty()) {
                            assertThat(list.popLeft()).as(what).isEqualTo(model.remove(0));
                        }
                    }
                    case 5 -> {
                        if (!model.isEmpty()) {
                            assertThat(list.popRight()).as(what).isEqualTo(model.remove(model.size() - 1));
                        }
                    }
                    case 6 -> {
                        int i = rnd.nextInt(model.size() + 1);
                        list.insert(i, v);
                        model.add(i, v);
                    }
                    case 7 -> {
                        if (!model.isEmpty()) {
                            int i = rnd.nextInt(model.size());
                            assertThat(list.remove(i)).as(what).isEqualTo(model.remove(i));
                        }
                    }
                    case 8 -> {
                        if (!model.isEmpty()) {
                            int i = rnd.nextInt(model.size());
                            assertThat(list.set(i, v)).as(what).isEqualTo(model.set(i, v));
                        }
                    }
                    case 9 -> {
                        long count = rnd.nextInt(7) - 3;
                        int expected = removeMatching(model, v, count);
                        assertThat(list.removeMatching(v, count)).as(what).isEqualTo(expected);
                    }
                    case 10 -> {
                        int n = rnd.nextInt(Math.min(model.size(), 5) + 1);
                        if (rnd.nextBoolean()) {
                            list.removeFirst(n);
                            model.subList(0, n).clear();
                        } else {
                            list.removeLast(n);
                            model.subList(model.size() - n, model.size()).clear();
                        }
                    }
                    default -> assertThat(list.indexOf(v)).as(what).isEqualTo(indexOf(model, v));
                }
                assertThat(list.size()).as(what).isEqualTo(model.size());
                if (!model.isEmpty()) {
                    int i = rnd.nextInt(model.size());
                    assertThat(list.get(i)).as(what).isEqualTo(model.get(i));
                }
            }
            assertThat(contents(list)).isEqualTo(strings(model));
            assertThat(contents(list.copy())).isEqualTo(strings(model));
        }
    }

    @Test
    void growsAndShrinksAcrossTheWrapPoint() {
        ListValue list = new ListValue();
        for (int i = 0; i < 1000; i++) {
            list.pushLeft(Bytes.utf8("l" + i));
            list.pushRight(Bytes.utf8("r" + i));
        }
        assertThat(list.size()).isEqualTo(2000);
        assertThat(Bytes.str(list.get(0))).isEqualTo("l999");
        assertThat(Bytes.str(list.get(1999))).isEqualTo("r999");
        for (int i = 0; i < 999; i++) {
            list.popLeft();
            list.popRight();
        }
        assertThat(contents(list)).containsExactly("l0", "r0");
    }

    @Test
    void rebuildIsRpushInChunksOf1024() {
        ListValue list = new ListValue();
        for (int i = 0; i < 2500; i++) {
            list.pushRight(Bytes.utf8(Integer.toString(i)));
        }
        List<byte[][]> frames = new ArrayList<>();
        list.rebuild(Bytes.utf8("k"), frames::add);
        assertThat(frames).hasSize(3);
        assertThat(frames.get(0).length).isEqualTo(1026);
        assertThat(frames.get(2).length).isEqualTo(2 + 2500 - 2048);
        List<String> replayed = new ArrayList<>();
        for (byte[][] f : frames) {
            assertThat(Bytes.str(f[0])).isEqualTo("RPUSH");
            assertThat(Bytes.str(f[1])).isEqualTo("k");
            for (int i = 2; i < f.length; i++) {
                replayed.add(Bytes.str(f[i]));
            }
        }
        assertThat(replayed).isEqualTo(contents(list));
    }

    @Test
    void encodingIsAlwaysQuicklist() {
        ListValue list = new ListValue();
        list.pushRight(Bytes.utf8("x".repeat(10_000)));
        assertThat(list.encoding()).isEqualTo("quicklist");
        assertThat(list.type().typeName()).isEqualTo("list");
    }

    private static int removeMatching(List<byte[]> model, byte[] v, long count) {
        int removed = 0;
        long limit = count == 0 ? Long.MAX_VALUE : Math.abs(count);
        if (count >= 0) {
            for (int i = 0; i < model.size() && removed < limit; ) {
                if (Arrays.equals(model.get(i), v)) {
                    model.remove(i);
                    removed++;
                } else {
                    i++;
                }
            }
        } else {
            for (int i = model.size() - 1; i >= 0 && removed < limit; i--) {
                if (Arrays.equals(model.get(i), v)) {
                    model.remove(i);
                    removed++;
                }
            }
        }
        return removed;
    }

    private static int indexOf(List<byte[]> model, byte[] v) {
        for (int i = 0; i < model.size(); i++) {
            if (Arrays.equals(model.get(i), v)) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> contents(ListValue list) {
        List<String> out = new ArrayList<>();
        list.forEach(b -> out.add(Bytes.str(b)));
        return out;
    }

    private static List<String> strings(List<byte[]> model) {
        List<String> out = new ArrayList<>();
        model.forEach(b -> out.add(Bytes.str(b)));
        return out;
    }
}
