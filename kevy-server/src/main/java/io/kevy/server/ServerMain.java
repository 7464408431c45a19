package io.kevy.server;

import picocli.CommandLine;

/** Entry point of {@code java -jar kevy-server.jar}: the {@code server} command. */
public final class ServerMain {
    private ServerMain() {
    }

    public static void main(String[] args) {
        int code = new CommandLine(new ServerCommand()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
