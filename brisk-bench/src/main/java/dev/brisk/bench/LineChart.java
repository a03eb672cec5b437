package dev.brisk.bench;

import java.util.List;
import java.util.Locale;

/**
 * An SVG line chart of series over time, the companion of {@link Report}'s bar charts (same font and
 * colours): one polyline per series, a gap where a value is missing (NaN), optional horizontal reference
 * lines, an optional shaded stretch of time (the window a figure is taken over), and a linear or
 * logarithmic value axis.
 */
final class LineChart {
    /** Series colours in order: Brisk's orange first, then the peers' blue, green, grey. */
    static final String[] COLORS = {"#d9480f", "#4c6ef5", "#2f9e44", "#868e96", "#ae3ec9"};

    private static final int LEFT = 70;
    private static final int TOP = 40;
    private static final int PLOT_W = 620;
    private static final int PLOT_H = 260;
    private static final int LEGEND_W = 260;

    private LineChart() {
    }

    /** One line: {@code y[i]} at {@code x[i]}; NaN leaves a gap. */
    record Series(String name, double[] x, double[] y) {
    }

    /** A horizontal line across the plot at {@code y}, labelled. */
    record Reference(String name, double y) {
    }

    /** A shaded stretch of the time axis, from {@code from} to {@code to}, labelled. */
    record Window(String name, double from, double to) {
    }

    /**
     * The chart as SVG text.
     *
     * @param window the stretch of time to shade, or null
     * @param logY a logarithmic value axis (values ≤ 0 are then left out), for series orders of magnitude apart
     * @param yFormat how tick values are printed, e.g. {@code "%,.0f"}; null: plain decimals, as short as they go
     */
    static String svg(String title, String xLabel, String yLabel, List<Series> series, List<Reference> references,
                      Window window, boolean logY, String yFormat) {
        double xMax = 1;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                xMax = Math.max(xMax, s.x()[i]);
                double y = s.y()[i];
                if (Double.isFinite(y) && (!logY || y > 0)) {
                    yMin = Math.min(yMin, y);
                    yMax = Math.max(yMax, y);
                }
            }
        }
        for (Reference r : references) {
            yMin = Math.min(yMin, r.y());
            yMax = Math.max(yMax, r.y());
        }
        if (!Double.isFinite(yMax)) { // nothing to draw
            yMin = logY ? 1 : 0;
            yMax = logY ? 10 : 1;
        }
        Axis axis = logY ? Axis.log(yMin, yMax) : Axis.linear(yMax);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
                LEFT + PLOT_W + LEGEND_W, TOP + PLOT_H + 50));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append(String.format("<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", Report.escape(title)));
        if (window != null) {
            double x0 = LEFT + Math.max(0, window.from()) / xMax * PLOT_W;
            double x1 = LEFT + Math.min(xMax, window.to()) / xMax * PLOT_W;
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f1f3f5\"/>\n", x0, TOP, Math.max(0, x1 - x0), PLOT_H));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#868e96\">%s</text>\n",
                    (x0 + x1) / 2, TOP + 12, Report.escape(window.name())));
        }
        // value axis: grid lines and tick labels
        for (double t : axis.ticks()) {
            double py = TOP + PLOT_H - axis.scale(t) * PLOT_H;
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e9ecef\"/>\n", LEFT, py, LEFT + PLOT_W, py));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    LEFT - 6, py + 4, Report.escape(yFormat == null
                            ? java.math.BigDecimal.valueOf(t).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString()
                            : String.format(Locale.ROOT, yFormat, t))));
        }
        // time axis: a tick every "nice" step
        double xStep = niceStep(xMax / 6);
        for (double t = 0; t <= xMax + 1e-9; t += xStep) {
            double px = LEFT + t / xMax * PLOT_W;
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#adb5bd\"/>\n", px, TOP + PLOT_H, px, TOP + PLOT_H + 4));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                    px, TOP + PLOT_H + 16, String.format(Locale.ROOT, "%.0f", t)));
        }
        svg.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#adb5bd\"/>\n",
                LEFT, TOP, PLOT_W, PLOT_H));
        svg.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                LEFT + PLOT_W / 2, TOP + PLOT_H + 34, Report.escape(xLabel)));
        svg.append(String.format("<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">%s</text>\n",
                TOP + PLOT_H / 2, TOP + PLOT_H / 2, Report.escape(yLabel)));
        int legendY = TOP + 6;
        for (Reference r : references) {
            double py = TOP + PLOT_H - axis.scale(r.y()) * PLOT_H;
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#495057\" stroke-dasharray=\"5,4\"/>\n",
                    LEFT, py, LEFT + PLOT_W, py));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" fill=\"#495057\">%s</text>\n",
                    LEFT + 4, py - 3, Report.escape(r.name())));
        }
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            String color = COLORS[k % COLORS.length];
            StringBuilder points = new StringBuilder();
            for (int i = 0; i <= s.x().length; i++) {
                boolean drawable = i < s.x().length && Double.isFinite(s.y()[i]) && (!logY || s.y()[i] > 0);
                if (drawable) {
                    double px = LEFT + s.x()[i] / xMax * PLOT_W;
                    double py = TOP + PLOT_H - axis.scale(s.y()[i]) * PLOT_H;
                    points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                } else if (!points.isEmpty()) { // a gap, or the end: draw what came before
                    svg.append(String.format("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"/>\n",
                            points.toString().strip(), color));
                    points.setLength(0);
                }
            }
            svg.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"3\" fill=\"%s\"/>\n",
                    LEFT + PLOT_W + 12, legendY + k * 18 - 4, color));
            svg.append(String.format("<text x=\"%d\" y=\"%d\">%s</text>\n",
                    LEFT + PLOT_W + 30, legendY + k * 18, Report.escape(s.name())));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    /** Maps values to 0..1 of the plot height. */
    private record Axis(boolean log, double min, double max) {
        static Axis linear(double max) {
            double step = niceStep(max / 5);
            return new Axis(false, 0, Math.max(step, Math.ceil(max * 1.05 / step) * step));
        }

        static Axis log(double min, double max) {
            double lo = Math.pow(10, Math.floor(Math.log10(min)));
            double hi = Math.pow(10, Math.ceil(Math.log10(max)));
            return new Axis(true, lo, hi > lo ? hi : lo * 10);
        }

        double scale(double v) {
            if (log) {
                return (Math.log10(Math.max(v, min)) - Math.log10(min)) / (Math.log10(max) - Math.log10(min));
            }
            return v / max;
        }

        List<Double> ticks() {
            List<Double> t = new java.util.ArrayList<>();
            if (log) {
                for (double d = min; d <= max * 1.0001; d *= 10) {
                    t.add(d);
                    if (d * 10 <= max * 1.0001 && max / min <= 1e4) { // 2 and 5 between decades when there is room
                        t.add(2 * d);
                        t.add(5 * d);
                    }
                }
            } else {
                double step = niceStep(max / 5);
                for (double v = 0; v <= max + step / 1e6; v += step) {
                    t.add(v);
                }
            }
            return t;
        }
    }
}
