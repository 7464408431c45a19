package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hostile library functions on a real kevy-server (two event loops): an endless function makes other clients
 * answer Redis's FUNCTION-flavoured BUSY, FUNCTION STATS shows it, SCRIPT KILL refuses it and FUNCTION KILL stops
 * it; a function that wrote is UNKILLABLE and finishes; an endless library load stops at Redis's load limit and the server
 * goes on.
 */
class FunctionHostileIT {
    private static final String BUSY =
            "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.\r\n";
    private static final String LIB = "#!lua name=spin\n"
            + "redis.register_function{function_name='spin', callback=function() local i = 0 while true do i = i + 1 "
            + "end end, flags={'no-writes'}}\n"
            + "redis.register_function('spinw', function(keys) redis.call('set', keys[1], 'x') local x = 0 "
            + "for i = 1, 8000000 do x = x + 1 end return x end)\n";

    @Test
    void anEndlessFunctionIsBusyForOthersAndFunctionKillStopsIt() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            assertThat(a.call("CONFIG", "SET", "busy-reply-threshold", "100")).isEqualTo("+OK\r\n");
            assertThat(a.call("FUNCTION", "LOAD", LIB)).isEqualTo("$4\r\nspin\r\n");
            assertThat(a.call("FUNCTION", "KILL")).isEqualTo("-NOTBUSY No scripts in execution right now.\r\n");
            a.command("FCALL", "spin", "0");
            try (RawClient b = RawClient.connect(server.port()); RawClient c = RawClient.connect(server.port())) {
                RawClient peer = ScriptHostileIT.busyPeer(List.of(b, c), BUSY);
                assertThat(peer.call("GET", "x")).isEqualTo(BUSY);
                assertThat(peer.call("FUNCTION", "STATS")).startsWith("*4\r\n$14\r\nrunning_script\r\n*6\r\n$4\r\nname"
                        + "\r\n$4\r\nspin\r\n$7\r\ncommand\r\n*3\r\n$5\r\nFCALL\r\n$4\r\nspin\r\n$1\r\n0\r\n$11\r\n"
                        + "duration_ms\r\n:");
                assertThat(peer.call("SCRIPT", "KILL")).isEqualTo(BUSY);
                assertThat(peer.call("FUNCTION", "KILL")).isEqualTo("+OK\r\n");
                assertThat(a.readReply()).isEqualTo("-ERR Script killed by user with SCRIPT KILL... script: spin, "
                        + "on @user_function:2.\r\n");
                assertThat(peer.call("SET", "x", "1")).isEqualTo("+OK\r\n");
                assertThat(peer.call("FUNCTION", "KILL")).isEqualTo("-NOTBUSY No scripts in execution right now.\r\n");
            }
        }
    }

    @Test
    void aFunctionThatWroteIsUnkillableAndFinishes() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            assertThat(a.call("CONFIG", "SET", "busy-reply-threshold", "50")).isEqualTo("+OK\r\n");
            assertThat(a.call("FUNCTION", "LOAD", LIB)).isEqualTo("$4\r\nspin\r\n");
            a.command("FCALL", "spinw", "1", "k");
            try (RawClient b = RawClient.connect(server.port()); RawClient c = RawClient.connect(server.port())) {
                RawClient peer = ScriptHostileIT.busyPeer(List.of(b, c), BUSY);
                assertThat(peer.call("FUNCTION", "KILL")).startsWith("-UNKILLABLE Sorry the script already executed");
                long deadline = System.nanoTime() + 120_000_000_000L; // a loaded machine: wait past the read timeout
                while (!a.replyWithin(1000) && System.nanoTime() < deadline) {
                    assertThat(peer.call("FUNCTION", "KILL")).startsWith("-UNKILLABLE");
                }
                assertThat(a.readReply()).isEqualTo(":8000000\r\n");
                assertThat(peer.call("GET", "k")).isEqualTo("$1\r\nx\r\n");
            }
        }
    }

    @Test
    void anEndlessLoadStopsAtTheLoadLimit() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            long t0 = System.nanoTime();
            assertThat(a.call("FUNCTION", "LOAD", "#!lua name=inf\nwhile true do end"))
                    .isEqualTo("-ERR Error registering functions: ERR FUNCTION LOAD timeout\r\n");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("ms").isBetween(400L, 5000L);
            assertThat(a.call("FUNCTION", "LOAD", "#!lua name=deep\nlocal function f(n) return f(n + 1) + 1 end\n"
                    + "f(1)")).startsWith("-ERR Error registering functions: ");
            assertThat(a.call("FUNCTION", "LIST")).isEqualTo("*0\r\n");
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
        }
    }
}
