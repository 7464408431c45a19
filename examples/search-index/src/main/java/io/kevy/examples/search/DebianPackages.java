package io.kevy.examples.search;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Reads the Debian package catalog in the control-file format of {@code /var/lib/dpkg/status} and of the
 * archive's {@code Packages} indexes (Debian Policy §5.1: stanzas separated by blank lines, {@code Field: value}
 * lines, continuation lines starting with a space, {@code " ."} for an empty line of a long description).
 *
 * <p>From a dpkg status file only installed packages are kept (the third word of {@code Status} is
 * {@code installed}; removed packages whose configuration files remain are skipped). A name seen twice (a
 * package installed for two architectures) is kept once, the first time. Stateless and thread-safe.
 */
public final class DebianPackages {
    /** Where dpkg keeps the catalog of the packages installed on this machine. */
    public static final Path DPKG_STATUS = Path.of("/var/lib/dpkg/status");
    /** The bundled sample's resource name (every 20th package of Debian 12 main amd64; examples/data). */
    public static final String SAMPLE = "debian-bookworm-packages-sample.gz";

    private DebianPackages() {
    }

    /**
     * The packages of {@code file}, plain text or gzip (detected by its first bytes).
     *
     * @throws UncheckedIOException when the file cannot be read
     */
    public static List<DebianPackage> read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
        }
    }

    /** The bundled sample (3,172 packages of Debian 12 "bookworm", see {@code examples/data/README.md}). */
    public static List<DebianPackage> sample() {
        try (InputStream in = DebianPackages.class.getResourceAsStream(SAMPLE)) {
            if (in == null) {
                throw new IllegalStateException("the bundled sample " + SAMPLE + " is missing from the class path");
            }
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the bundled sample: " + e.getMessage(), e);
        }
    }

    /** The packages in {@code in} (plain or gzip); does not close it. */
    public static List<DebianPackage> parse(InputStream in) throws IOException {
        BufferedInputStream b = new BufferedInputStream(in);
        b.mark(2);
        int m1 = b.read();
        int m2 = b.read();
        b.reset();
        InputStream text = m1 == 0x1f && m2 == 0x8b ? new GZIPInputStream(b) : b;
        BufferedReader r = new BufferedReader(new InputStreamReader(text, StandardCharsets.UTF_8));
        List<DebianPackage> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Map<String, StringBuilder> stanza = new HashMap<>();
        StringBuilder last = null;
        String line;
        while ((line = r.readLine()) != null) {
            if (line.isBlank()) {
                add(stanza, out, seen);
                stanza.clear();
                last = null;
            } else if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                if (last != null) {
                    String cont = line.substring(1);
                    last.append('\n').append(cont.equals(".") ? "" : cont);
                }
            } else {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    last = null;
                    continue;
                }
                last = new StringBuilder(line.substring(colon + 1).strip());
                stanza.put(line.substring(0, colon), last);
            }
        }
        add(stanza, out, seen);
        return out;
    }

    private static void add(Map<String, StringBuilder> s, List<DebianPackage> out, Set<String> seen) {
        String name = text(s, "Package");
        if (name.isEmpty() || !seen.add(name)) {
            return;
        }
        String status = text(s, "Status");
        if (!status.isEmpty() && !status.endsWith(" installed")) {
            seen.remove(name);
            return;
        }
        out.add(new DebianPackage(name, text(s, "Version"), text(s, "Section"), text(s, "Maintainer"),
                text(s, "Description")));
    }

    private static String text(Map<String, StringBuilder> s, String field) {
        StringBuilder b = s.get(field);
        return b == null ? "" : b.toString();
    }
}
