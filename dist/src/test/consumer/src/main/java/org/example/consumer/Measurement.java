package org.example.consumer;

import java.io.Serializable;

/** What one member sends the other: an object the Ibis rewriter gives a generated serializer. */
public class Measurement implements Serializable {
    private static final long serialVersionUID = 1L;

    final String label;
    final double[] values;

    Measurement(String label, double[] values) {
        this.label = label;
        this.values = values;
    }

    double sum() {
        double s = 0;
        for (double v : values) {
            s += v;
        }
        return s;
    }
}
