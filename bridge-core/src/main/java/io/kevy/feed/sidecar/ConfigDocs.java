package io.kevy.feed.sidecar;

import io.kevy.config.Option;
import io.kevy.config.OptionDocs;
import java.util.ArrayList;
import java.util.List;

/**
 * The sidecar's documentation, rendered from its option tables by the one docs renderer ({@link OptionDocs}) so
 * that it cannot drift from the loader: the sample config of a sink type ({@code kevy bridge --sample-config
 * kafka}) and the Markdown key tables of {@code docs/bridges.md} (a test compares the file with
 * {@link #markdown}). Stateless.
 */
public final class ConfigDocs {
    private ConfigDocs() {
    }

    /**
     * A commented sample TOML for {@code provider}: every section and key with its description and default;
     * optional keys are commented out at their default, required ones carry their example.
     */
    public static String sample(SinkProvider provider) {
        String header = "# kevy bridge: sink " + provider.type() + " (generated from the option tables: kevy bridge "
                + "--sample-config " + provider.type() + ")\n# Every key may be overridden by its environment variable "
                + "(KEVY_BRIDGE_<SECTION>_<KEY>).\n";
        return OptionDocs.sampleToml(header, all(provider), SidecarOptions::env);
    }

    /**
     * The Markdown table of {@code options}: key, type, default, environment variable, description. Arrays of
     * tables list their fields as {@code key[].field}.
     */
    public static String markdown(List<? extends Option<?>> options) {
        return OptionDocs.markdown(options, SidecarOptions::env);
    }

    /** The runtime's options followed by the provider's. */
    public static List<Option<?>> all(SinkProvider provider) {
        List<Option<?>> all = new ArrayList<>(SidecarOptions.ALL);
        all.addAll(provider.options());
        return all;
    }
}
