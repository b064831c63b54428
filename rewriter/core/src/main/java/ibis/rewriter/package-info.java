/**
 * The Ibis bytecode rewriter (build time): {@link ibis.rewriter.Rewriter} adds generated
 * serializers to the plain Serializable classes of directories and jars, as io/README.md
 * ("Generated serializers: the contract for the rewriter") specifies, and with
 * {@link ibis.rewriter.Rewriter#javaRmi(boolean) javaRmi} first renames a compiled program's
 * java.rmi registry and export classes to their ibis.rmi counterparts; {@link ibis.rewriter.Ibisc}
 * is the {@code ibisc} command. Class files are read as bytes with ASM; the rewriter never loads
 * the classes it rewrites. The Maven plugin (artifact ibis-maven-plugin) runs it in a user's build.
 */
package ibis.rewriter;
