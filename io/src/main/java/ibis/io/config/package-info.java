/**
 * The configuration model shared by every Ibis module: typed {@link ibis.io.config.Property}
 * definitions, read from an instance's properties or the system properties with one behaviour for
 * a bad value ({@link ibis.io.config.InvalidPropertyException}), grouped per subsystem in
 * {@link ibis.io.config.PropertyTable}s from which the help and the documentation are generated.
 * It lives in the io module because io is the bottom layer; it imports nothing else of Ibis.
 */
package ibis.io.config;
