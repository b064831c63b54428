package org.example.loop;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;

/** The properties of the loop implementation. */
public final class LoopPropertyTable implements PropertyTable {

    public static final Property<String> ADDRESS = Property.ofText("ibis.loop.address", "127.0.0.1",
            "address the loop implementation listens on and publishes");
    public static final Property<Integer> BUFFER = Property.ofInt("ibis.loop.buffer.size", 4 << 20, 1 << 16,
            1 << 30, "bytes a connection reads ahead while the receiver does not read");

    public LoopPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "loop";
    }

    @Override
    public List<Property<?>> properties() {
        return List.of(ADDRESS, BUFFER);
    }
}
