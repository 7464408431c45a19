package io.kevy.examples.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The control-file parser: dpkg status (installed only), continuation lines, gzip, and the bundled sample. */
class DebianPackagesTest {
    private static final String STATUS = """
            Package: zlib1g
            Status: install ok installed
            Priority: required
            Section: libs
            Maintainer: Mark Brown <broonie@debian.org>
            Architecture: amd64
            Version: 1:1.2.13.dfsg-1
            Description: compression library - runtime
             zlib is a library implementing the deflate compression method found
             in gzip and PKZIP.
             .
             This package includes the shared library.

            Package: old-tool
            Status: deinstall ok config-files
            Version: 1.0
            Description: removed, configuration kept

            Package: zlib1g
            Status: install ok installed
            Architecture: i386
            Version: 1:1.2.13.dfsg-1
            Description: the same name for another architecture

            Package: nosection
            Status: install ok installed
            Version: 2
            Description: no section, no maintainer
            """;

    @Test
    void keepsInstalledPackagesOnceWithTheirFiveFields() throws Exception {
        List<DebianPackage> ps = DebianPackages.parse(
                new ByteArrayInputStream(STATUS.getBytes(StandardCharsets.UTF_8)));
        assertThat(ps).extracting(DebianPackage::name).containsExactly("zlib1g", "nosection");
        DebianPackage z = ps.get(0);
        assertThat(z.version()).isEqualTo("1:1.2.13.dfsg-1");
        assertThat(z.section()).isEqualTo("libs");
        assertThat(z.maintainer()).isEqualTo("Mark Brown <broonie@debian.org>");
        assertThat(z.description()).isEqualTo("compression library - runtime\n"
                + "zlib is a library implementing the deflate compression method found\nin gzip and PKZIP.\n\n"
                + "This package includes the shared library.");
        assertThat(z.synopsis()).isEqualTo("compression library - runtime");
        assertThat(z.key()).isEqualTo("pkg:zlib1g");
        assertThat(z.fields()).containsOnlyKeys("name", "version", "section", "maintainer", "description");
        assertThat(ps.get(1).fields()).as("empty fields are left out")
                .containsOnlyKeys("name", "version", "description");
    }

    @Test
    void readsGzipToo() throws Exception {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(STATUS.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(DebianPackages.parse(new ByteArrayInputStream(gz.toByteArray()))).hasSize(2);
    }

    @Test
    void theBundledSampleHoldsEvery20thPackageOfBookworm() {
        List<DebianPackage> sample = DebianPackages.sample();
        assertThat(sample).hasSize(3172);
        assertThat(sample.get(0).name()).isEqualTo("0ad");
        assertThat(sample).allSatisfy(p -> {
            assertThat(p.version()).isNotEmpty();
            assertThat(p.description()).isNotEmpty();
        });
        assertThat(sample.stream().map(DebianPackage::name).distinct().count()).isEqualTo(3172);
    }
}
