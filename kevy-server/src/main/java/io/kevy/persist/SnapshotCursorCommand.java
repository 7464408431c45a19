package io.kevy.persist;

import io.kevy.feed.FeedCursor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kevy snapshot-cursor FILE...}: prints the feed cursor recorded in snapshot headers, one line per file:
 * {@code <file> generation=<g> next_offset=<n>}, or {@code <file> no cursor (format version <v>)}. Exit status
 * 1 when a file cannot be read (bad magic, truncated header).
 */
@Command(name = "snapshot-cursor", mixinStandardHelpOptions = true,
        description = "Print the feed cursor (generation, next offset) recorded in snapshot files (dump-{i}.rdb).")
public final class SnapshotCursorCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Snapshot files, e.g. data/dump-0.rdb.")
    Path[] files;

    @Override
    public Integer call() {
        int status = 0;
        for (Path f : files) {
            try {
                Optional<FeedCursor> c = Snapshots.readSnapshotCursor(f);
                if (c.isPresent()) {
                    spec.commandLine().getOut().println(f + " generation=" + c.get().generation() + " next_offset="
                            + c.get().offset());
                } else {
                    spec.commandLine().getOut().println(f + " no cursor (format version "
                            + SnapshotReader.readHeader(f).version() + ")");
                }
            } catch (IOException e) {
                spec.commandLine().getErr().println("snapshot-cursor: " + FileErrors.readFailure(e));
                status = 1;
            }
        }
        return status;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SnapshotCursorCommand()).execute(args));
    }
}
