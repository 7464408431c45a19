package io.kevy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The {@code oracle-resp3} profile of kevy-server's pom reruns the oracle corpus on RESP3 from a list of class
 * names; a new {@link OracleFixture} IT missing from that list would silently run on RESP2 only (issue 28: byte-exact
 * replies on both protocols for every command family).
 */
class OracleResp3ProfileTest {

    @Test
    void everyOracleFixtureItIsInTheResp3ProfileList() throws IOException {
        String pom = Files.readString(Path.of("pom.xml"));
        Matcher m = Pattern.compile("<id>oracle-resp3</id>.*?<test>(.*?)</test>", Pattern.DOTALL).matcher(pom);
        assertThat(m.find()).as("kevy-server/pom.xml has the oracle-resp3 execution's <test> list").isTrue();
        List<String> listed = Stream.of(m.group(1).split(",")).map(String::strip).toList();

        List<String> oracleIts;
        try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            oracleIts = files.filter(f -> f.getFileName().toString().endsWith("IT.java"))
                    .filter(f -> read(f).contains("OracleFixture"))
                    .map(f -> f.getFileName().toString().replace(".java", ""))
                    // Resp3OracleIT chooses its protocol per test itself
                    .filter(name -> !name.equals("Resp3OracleIT"))
                    .sorted().toList();
        }
        assertThat(oracleIts).as("the OracleFixture ITs").isNotEmpty();
        assertThat(listed).as("oracle-resp3's list in kevy-server/pom.xml").containsAll(oracleIts);
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
