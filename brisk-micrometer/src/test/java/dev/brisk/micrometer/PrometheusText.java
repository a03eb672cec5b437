package dev.brisk.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/** Reads samples out of a Prometheus text scrape. */
final class PrometheusText {
    private PrometheusText() {
    }

    /** The value of the sample written exactly {@code series} (name and labels as printed). */
    static double value(String scrape, String series) {
        List<Double> found = new ArrayList<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith(series + " ")) {
                found.add(Double.parseDouble(line.substring(series.length() + 1).trim()));
            }
        }
        assertThat(found).as("one sample %s in:%n%s", series, scrape).hasSize(1);
        return found.get(0);
    }

    /** The metric family names of the {@code # TYPE} lines, in order, repeats included. */
    static List<String> families(String scrape) {
        List<String> names = new ArrayList<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                names.add(line.split(" ")[2]);
            }
        }
        return names;
    }
}
