/**
 * The Maven plugin {@code ibis:ibis-maven-plugin}: goal {@code rewrite} runs the Ibis bytecode
 * rewriter ({@link ibis.rewriter.Rewriter}) on a project's classes in phase
 * {@code process-classes}.
 */
package ibis.rewriter.maven;
