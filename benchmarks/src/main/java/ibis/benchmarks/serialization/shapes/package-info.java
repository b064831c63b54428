/**
 * The serialization suite's classes that the build rewrites with the Ibis rewriter
 * (ibis-maven-plugin, see benchmarks/pom.xml): the rewritten path of the ibis serialization.
 */
package ibis.benchmarks.serialization.shapes;
