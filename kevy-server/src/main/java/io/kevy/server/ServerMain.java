package io.kevy.server;

import io.netty.util.ResourceLeakDetector;
import picocli.CommandLine;

/** Entry point of {@code java -jar kevy-server.jar}: the {@code server} command. */
public final class ServerMain {
    private ServerMain() {
    }

    /** The system property Netty reads its leak detection level from. */
    static final String LEAK_DETECTION_PROPERTY = "io.netty.leakDetection.level";
    /** The system property of Netty's reference-count check on every buffer access. */
    static final String CHECK_ACCESSIBLE_PROPERTY = "io.netty.buffer.checkAccessible";

    public static void main(String[] args) {
        // Netty's default (SIMPLE) records a stack trace for one buffer allocation in 128: ~0.7% of the server's
        // CPU under pipelined GETs (perf). The tests run with paranoid detection; a user can still set the property.
        if (System.getProperty(LEAK_DETECTION_PROPERTY) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        // Every ByteBuf access also checked the buffer's reference count (a use-after-release guard the tests keep);
        // read once, when Netty's buffer classes load, so it must be set before any buffer exists.
        if (System.getProperty(CHECK_ACCESSIBLE_PROPERTY) == null) {
            System.setProperty(CHECK_ACCESSIBLE_PROPERTY, "false");
        }
        int code = new CommandLine(new ServerCommand()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
