package ibis.benchmarks.rmi;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.imageio.ImageIO;

/**
 * A PNG line plot of latency against message size, both axes logarithmic (decades), drawn with
 * Java 2D in headless mode: one curve per side and element type, so the sizes where Ibis RMI
 * overtakes java.rmi are visible at a glance.
 */
public final class LatencyPlot {

    /** Width and height of the image in pixels. */
    static final int WIDTH = 900;
    static final int HEIGHT = 600;

    private static final Color[] COLORS = {
        new Color(0xC0392B), new Color(0x2471A3), new Color(0xE67E22), new Color(0x17A589),
        new Color(0x8E44AD), new Color(0x2E4053),
    };

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Map<String, List<double[]>> curves = new LinkedHashMap<>();

    /** A plot with a title and axis labels. */
    public LatencyPlot(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** Adds a point (both coordinates > 0) to the curve {@code label}; curves keep the order of their first point. */
    public void add(String label, double x, double y) {
        if (x > 0 && y > 0 && !Double.isNaN(y)) {
            curves.computeIfAbsent(label, k -> new ArrayList<>()).add(new double[] {x, y});
        }
    }

    /** @return true when some curve has two points or more */
    public boolean hasCurves() {
        return curves.values().stream().anyMatch(c -> c.size() >= 2);
    }

    /**
     * Draws and writes the plot.
     *
     * @param file the PNG file
     * @throws IOException when it cannot be written
     */
    public void write(Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        double minX = Double.MAX_VALUE, maxX = 0, minY = Double.MAX_VALUE, maxY = 0;
        for (List<double[]> c : curves.values()) {
            for (double[] p : c) {
                minX = Math.min(minX, p[0]);
                maxX = Math.max(maxX, p[0]);
                minY = Math.min(minY, p[1]);
                maxY = Math.max(maxY, p[1]);
            }
        }
        if (maxX == 0) {
            throw new IllegalStateException("nothing to plot");
        }
        double x0 = Math.floor(Math.log10(minX));
        double x1 = Math.max(x0 + 1, Math.ceil(Math.log10(maxX)));
        double y0 = Math.floor(Math.log10(minY));
        double y1 = Math.max(y0 + 1, Math.ceil(Math.log10(maxY)));

        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            int left = 80, right = WIDTH - 220, top = 50, bottom = HEIGHT - 60;
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
            g.drawString(title, left, 30);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            // Grid and decade labels.
            for (double d = x0; d <= x1 + 1e-9; d++) {
                int px = (int) Math.round(left + (d - x0) / (x1 - x0) * (right - left));
                g.setColor(new Color(0xDDDDDD));
                g.drawLine(px, top, px, bottom);
                g.setColor(Color.BLACK);
                g.drawString(decade(d), px - 12, bottom + 18);
            }
            for (double d = y0; d <= y1 + 1e-9; d++) {
                int py = (int) Math.round(bottom - (d - y0) / (y1 - y0) * (bottom - top));
                g.setColor(new Color(0xDDDDDD));
                g.drawLine(left, py, right, py);
                g.setColor(Color.BLACK);
                g.drawString(decade(d), left - 50, py + 4);
            }
            g.drawRect(left, top, right - left, bottom - top);
            g.drawString(xLabel, (left + right) / 2 - 60, HEIGHT - 20);
            g.drawString(yLabel, 10, top - 10);
            int i = 0;
            for (Map.Entry<String, List<double[]>> e : curves.entrySet()) {
                Color color = COLORS[i % COLORS.length];
                boolean dashed = e.getKey().startsWith("java.rmi");
                g.setColor(color);
                g.setStroke(dashed ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f,
                        new float[] {8f, 5f}, 0f) : new BasicStroke(2f));
                List<double[]> points = new ArrayList<>(e.getValue());
                points.sort((a, b) -> Double.compare(a[0], b[0]));
                int lastX = -1, lastY = -1;
                for (double[] p : points) {
                    int px = (int) Math.round(left + (Math.log10(p[0]) - x0) / (x1 - x0) * (right - left));
                    int py = (int) Math.round(bottom - (Math.log10(p[1]) - y0) / (y1 - y0) * (bottom - top));
                    g.fillOval(px - 3, py - 3, 7, 7);
                    if (lastX >= 0) {
                        g.drawLine(lastX, lastY, px, py);
                    }
                    lastX = px;
                    lastY = py;
                }
                int ly = top + 10 + 20 * i;
                g.drawLine(right + 15, ly, right + 45, ly);
                g.setColor(Color.BLACK);
                g.drawString(e.getKey(), right + 52, ly + 4);
                i++;
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile());
    }

    private static String decade(double d) {
        double v = Math.pow(10, d);
        return v >= 1 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%s", v);
    }
}
