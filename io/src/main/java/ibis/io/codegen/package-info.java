/**
 * Internal, not API: the code generation shared by the two makers of serializers, the run-time
 * generator in {@code ibis.io} (classes that were not rewritten) and the build-time bytecode
 * rewriter ({@code ibis-rewriter}). It is public only because the rewriter is another module; no
 * application should use it, and it may change in any release.
 *
 * <p>{@link ibis.io.codegen.FieldPlan} decides the layout of one class level on the wire (field
 * order, runs of primitives, fields written self-typed, order of reads) once for both;
 * {@link ibis.io.codegen.FieldCodeEmitter} turns a plan into bytecode, asking a
 * {@link ibis.io.codegen.FieldAccess} only how a field is reached; {@link ibis.io.codegen.StreamMethod}
 * names every stream method the generated code calls. The contract they implement is in
 * io/README.md ("Generated serializers").
 */
package ibis.io.codegen;
