package ibis.ipl.impl;

import ibis.ipl.Location;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * A {@link Location} made of levels, most specific first, written as {@code level@level@...}
 * (for example {@code node07@cluster@site}).
 */
public final class HierarchicalLocation implements Location {

    private static final long serialVersionUID = 1L;
    private static final int MAX_LEVELS = 64;

    private final String[] levels;

    public HierarchicalLocation(String... levels) {
        this.levels = levels.clone();
    }

    /**
     * Parses {@code spec}; {@code %HOSTNAME%} and {@code %DOMAIN%} are replaced by the local host
     * name and domain (when the host name has no domain, that level is left out).
     */
    public static HierarchicalLocation parse(String spec) {
        String host = "localhost";
        String domain = "";
        try {
            String full = InetAddress.getLocalHost().getCanonicalHostName();
            int dot = full.indexOf('.');
            if (dot > 0 && !Character.isDigit(full.charAt(0))) {
                host = full.substring(0, dot);
                domain = full.substring(dot + 1);
            } else {
                host = InetAddress.getLocalHost().getHostName();
            }
        } catch (IOException e) {
            // keep "localhost": the location is informational only
        }
        List<String> result = new ArrayList<>();
        for (String level : spec.split("@")) {
            String value = level.replace("%HOSTNAME%", host).replace("%DOMAIN%", domain);
            if (!value.isEmpty()) {
                result.add(value);
            }
        }
        if (result.isEmpty()) {
            result.add(host);
        }
        return new HierarchicalLocation(result.toArray(new String[0]));
    }

    @Override
    public int numberOfLevels() {
        return levels.length;
    }

    @Override
    public String getLevel(int levelIndex) {
        return levels[levelIndex];
    }

    @Override
    public String[] getLevels() {
        return levels.clone();
    }

    /** Counts equal levels from the least specific (last) level inwards. */
    @Override
    public int numberOfMatchingLevels(Location location) {
        String[] other = location.getLevels();
        int n = 0;
        for (int i = levels.length - 1, j = other.length - 1; i >= 0 && j >= 0; i--, j--) {
            if (!levels[i].equals(other[j])) {
                break;
            }
            n++;
        }
        return n;
    }

    @Override
    public Location getParent() {
        if (levels.length <= 1) {
            return new HierarchicalLocation();
        }
        return new HierarchicalLocation(Arrays.copyOfRange(levels, 1, levels.length));
    }

    @Override
    public Iterator<String> iterator() {
        return Arrays.asList(levels).iterator();
    }

    @Override
    public int compareTo(Location other) {
        return toString().compareTo(other.toString());
    }

    public void writeTo(DataOutput out) throws IOException {
        out.writeShort(levels.length);
        for (String level : levels) {
            out.writeUTF(level);
        }
    }

    public static HierarchicalLocation readFrom(DataInput in) throws IOException {
        int n = in.readShort();
        if (n < 0 || n > MAX_LEVELS) {
            throw new IOException("malformed location: " + n + " levels (at most " + MAX_LEVELS + ")");
        }
        String[] levels = new String[n];
        for (int i = 0; i < n; i++) {
            levels[i] = in.readUTF();
        }
        return new HierarchicalLocation(levels);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HierarchicalLocation && Arrays.equals(levels, ((HierarchicalLocation) other).levels);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(levels);
    }

    @Override
    public String toString() {
        return String.join("@", levels);
    }
}
