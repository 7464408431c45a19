package io.kevy.examples.demo;

import io.kevy.examples.search.DebianPackage;
import io.kevy.examples.search.DebianPackages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The packages the demo loads and where they came from: a file given on the command line, else
 * {@code /var/lib/dpkg/status} (every package installed on this machine) when it is readable and names any,
 * else the bundled sample (every 20th package of Debian 12 "bookworm" main amd64). Immutable.
 *
 * @param packages the packages, at most {@code limit} of them
 * @param source   where they came from, for the summary
 */
record Catalog(List<DebianPackage> packages, String source) {
    Catalog {
        packages = List.copyOf(packages);
    }

    /**
     * Chooses the input.
     *
     * @param file   a dpkg status or Packages file (plain or gzip), or null
     * @param sample true to use the bundled sample whatever else exists
     * @param limit  the most packages to keep (the first ones); 0 keeps all
     */
    static Catalog choose(Path file, boolean sample, int limit) {
        Catalog c;
        if (sample) {
            c = sample();
        } else if (file != null) {
            c = new Catalog(DebianPackages.read(file), file.toString());
        } else if (Files.isReadable(DebianPackages.DPKG_STATUS)) {
            List<DebianPackage> installed = DebianPackages.read(DebianPackages.DPKG_STATUS);
            c = installed.isEmpty() ? sample()
                    : new Catalog(installed, DebianPackages.DPKG_STATUS + " (the packages installed here)");
        } else {
            c = sample();
        }
        if (c.packages().isEmpty()) {
            throw new IllegalArgumentException(c.source() + " names no package");
        }
        if (limit > 0 && c.packages().size() > limit) {
            c = new Catalog(c.packages().subList(0, limit),
                    String.format(Locale.ROOT, "%s, the first %,d", c.source(), limit));
        }
        return c;
    }

    private static Catalog sample() {
        return new Catalog(DebianPackages.sample(), "the bundled sample of Debian 12 bookworm (examples/data)");
    }
}
