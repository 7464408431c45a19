package io.kevy.bench;

import java.util.Locale;

/**
 * Prints figures, one line each: {@code figure value unit (params)} for people, or with {@code --csv}
 * {@code figure,value,unit,"params"} (the header {@link #CSV_HEADER} is printed by the calling script, after
 * its machine line). Not thread-safe; call from the harness's main thread.
 */
final class Report {
    static final String CSV_HEADER = "figure,value,unit,params";

    private final boolean csv;

    Report(boolean csv) {
        this.csv = csv;
    }

    void figure(String name, double value, String unit, String params) {
        String v = Math.abs(value) >= 100 ? Long.toString(Math.round(value))
                : String.format(Locale.ROOT, "%.3f", value);
        if (csv) {
            System.out.println(name + "," + v + "," + unit + ",\"" + params + "\"");
        } else {
            System.out.printf(Locale.ROOT, "%-34s %14s %-9s %s%n", name, v, unit, params);
        }
        System.out.flush();
    }
}
