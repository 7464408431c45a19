package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.Shard;
import io.kevy.engine.Verbs;
import java.util.ArrayList;
import java.util.List;

/** Generic key commands: DEL, UNLINK, EXISTS. */
final class KeyCommands {
    private KeyCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("del", -2).flags(WRITE).keys(1, -1, 1).group("generic").since("1.0.0")
                .summary("Deletes one or more keys.").handler(KeyCommands::del));
        t.add(command("unlink", -2).flags(WRITE, FAST).keys(1, -1, 1).group("generic").since("4.0.0")
                .summary("Deletes one or more keys (the memory is reclaimed at once in kevy).").handler(KeyCommands::del));
        t.add(command("exists", -2).flags(READONLY, FAST).keys(1, -1, 1).group("generic").since("1.0.0")
                .summary("Determines whether one or more keys exist.").handler(KeyCommands::exists));
    }

    /** DEL/UNLINK: per shard one {@code DEL <keys actually deleted>} frame, in argument order (contract §7). */
    static void del(Call c) {
        int n = c.argc() - 1;
        if (n == 1) {
            byte[] key = c.arg(1);
            boolean deleted = c.node(key) != null && c.db(key).remove(key) != null;
            if (deleted) {
                c.emit(Verbs.DEL, key);
            }
            c.reply().integer(deleted ? 1 : 0);
            return;
        }
        int shards = c.engine().shardCount();
        List<List<byte[]>> perShard = new ArrayList<>(shards);
        for (int i = 0; i < shards; i++) {
            perShard.add(null);
        }
        long count = 0;
        for (int i = 1; i <= n; i++) {
            byte[] key = c.arg(i);
            if (c.node(key) != null && c.db(key).remove(key) != null) {
                int s = c.engine().shardIndex(key);
                List<byte[]> l = perShard.get(s);
                if (l == null) {
                    l = new ArrayList<>();
                    l.add(Verbs.DEL);
                    perShard.set(s, l);
                }
                l.add(key);
                count++;
            }
        }
        for (int s = 0; s < shards; s++) {
            List<byte[]> l = perShard.get(s);
            if (l != null) {
                Shard shard = c.engine().shard(s);
                shard.emit(l.toArray(new byte[0][]));
            }
        }
        c.reply().integer(count);
    }

    private static void exists(Call c) {
        long count = 0;
        for (int i = 1; i < c.argc(); i++) {
            if (c.node(c.arg(i)) != null) {
                count++;
            }
        }
        c.reply().integer(count);
    }
}
