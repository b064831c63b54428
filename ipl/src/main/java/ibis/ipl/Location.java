package ibis.ipl;

/**
 * Where an Ibis instance runs, as a list of levels from most to least specific, for example
 * {@code node07}, {@code cluster}, {@code site}; written {@code node07@cluster@site}. Programs can
 * use locations to find out which members are close to each other
 * ({@link #numberOfMatchingLevels}). The location of an instance is set with the property
 * {@link IbisProperties#LOCATION}. Iterating over a location gives its levels, most specific first.
 *
 * <p>Implementations are immutable and serializable.
 */
public interface Location extends java.io.Serializable, Comparable<Location>, Iterable<String> {

    /**
     * The default of {@link IbisProperties#LOCATION}: the host name followed by the domain;
     * {@code %HOSTNAME%} and {@code %DOMAIN%} are replaced by the local host's name and domain.
     */
    public static final String DEFAULT_LOCATION = "%HOSTNAME%@%DOMAIN%";

    /**
     * Returns the number of levels.
     *
     * @return the number of levels
     */
    int numberOfLevels();

    /**
     * Returns one level; level 0 is the most specific.
     *
     * @param levelIndex the index of the level, from 0 to {@code numberOfLevels() - 1}
     * @return the level
     * @throws IndexOutOfBoundsException when there is no such level
     */
    String getLevel(int levelIndex);

    /**
     * Returns all levels, most specific first.
     *
     * @return a new array of the levels
     */
    String[] getLevels();

    /**
     * Counts how many levels this location has in common with another, comparing from the least
     * specific level inwards: {@code a@x@y} and {@code b@x@y} have 2 levels in common.
     *
     * @param location the other location
     * @return the number of equal levels
     */
    int numberOfMatchingLevels(Location location);

    /**
     * Returns the location one level up: this location without its most specific level.
     *
     * @return the parent location (without levels when this location has one level or none)
     */
    Location getParent();
}
