/**
 * Field-for-field copies of the classes in {@code ibis.benchmarks.serialization.shapes} that the
 * build never rewrites: the ibis serialization generates their serializers at run time.
 */
package ibis.benchmarks.serialization.plain;
