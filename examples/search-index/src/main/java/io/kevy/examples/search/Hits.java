package io.kevy.examples.search;

/** How a search hit is printed: score, package name and version, section, and the description's first line. */
public final class Hits {
    private Hits() {
    }

    /** {@code  7.21  zlib1g 1:1.2.13.dfsg-1 (libs) compression library - runtime}. */
    public static String line(HashIndex.Hit h) {
        String name = h.fields().getOrDefault("name", h.key());
        String description = h.fields().getOrDefault("description", "");
        int nl = description.indexOf('\n');
        String synopsis = nl < 0 ? description : description.substring(0, nl);
        String section = h.fields().getOrDefault("section", "");
        return String.format("%6.2f  %s %s%s  %s", h.score(), name, h.fields().getOrDefault("version", ""),
                section.isEmpty() ? "" : " (" + section + ")", synopsis);
    }
}
