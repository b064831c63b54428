package ibis.gmi.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.gmi.ParameterVector;
import ibis.gmi.testing.Calc;

import org.testng.annotations.Test;

/** Finding methods by source signature, and the typed parameter vectors. */
public class MethodTableTest {

    @Test
    public void methodsAreFoundBySourceSignature() throws Exception {
        MethodTable t = MethodTable.of(Calc.class);
        int weigh = t.find("double weigh(double[])");
        assertEquals(t.methods[weigh].getName(), "weigh");
        assertEquals(t.find("weigh(double [])"), weigh);
        int check = t.find("long check(long, double, boolean, char, java.lang.Object)");
        assertEquals(t.find("long check(long,double,boolean,char,Object)"), check);
        expectThrows(NoSuchMethodException.class, () -> t.find("int weigh(double[])"));
        expectThrows(NoSuchMethodException.class, () -> t.find("weigh"));
        expectThrows(IllegalArgumentException.class, () -> MethodTable.of(Runnable.class));
    }

    /** A group interface with generic, varargs and array types, for the source spellings of signatures. */
    public interface Spellings extends ibis.gmi.GroupInterface {
        int[] arr(int[] a);

        int gen(java.util.List<String> l, java.util.Map<String, java.util.List<Integer>> m);

        int var(int... xs);
    }

    /** Signatures as Java source writes them: type arguments, varargs, spaces, parameter names. */
    @Test
    public void signaturesAreFoundAsJavaSourceWritesThem() throws Exception {
        MethodTable t = MethodTable.of(Spellings.class);
        int arr = t.find("int[] arr(int[])");
        assertEquals(t.methods[arr].getName(), "arr");
        assertEquals(t.find("int [] arr(int [])"), arr);
        assertEquals(t.find("int[ ] arr(final int[] a)"), arr);
        int gen = t.find("int gen(java.util.List, java.util.Map)");
        assertEquals(t.methods[gen].getName(), "gen");
        assertEquals(t.find("int gen(List<String>, Map<String, List<Integer>>)"), gen);
        assertEquals(t.find("int gen(java.util.List<java.lang.String> l, java.util.Map<String,Object> m)"), gen);
        int var = t.find("int var(int[])");
        assertEquals(t.methods[var].getName(), "var");
        assertEquals(t.find("int var(int...)"), var);
        assertEquals(t.find("var(int ... xs)"), var);
        expectThrows(NoSuchMethodException.class, () -> t.find("int gen(List<String>)"));
        expectThrows(NoSuchMethodException.class, () -> t.find("int var(long...)"));
    }

    @Test
    public void parameterVectorsCheckTypesAndCompleteness() throws Exception {
        MethodTable t = MethodTable.of(Calc.class);
        int check = t.find("long check(long, double, boolean, char, Object)");
        GeneratedParameterVector v = ParameterVectorGenerator.newVector(t, check);
        v.write(0, 5L);
        expectThrows(IllegalArgumentException.class, () -> v.write(0, 5));
        expectThrows(IllegalArgumentException.class, () -> v.write(1, "no"));
        expectThrows(IllegalArgumentException.class, () -> v.write(9, 1.0));
        v.write(1, 0.5);
        v.write(2, true);
        v.write(3, 'z');
        IllegalStateException e = expectThrows(IllegalStateException.class, () -> v.checkComplete("me"));
        assertTrue(e.getMessage().contains("parameter 4"), e.getMessage());
        v.write(4, "s");
        v.checkComplete("me");
        assertEquals(v.readLong(0), 5L);
        assertEquals(v.readChar(3), 'z');
        assertEquals(v.readObject(4), "s");
        int weigh = t.find("double weigh(double[])");
        ParameterVector w = ParameterVectorGenerator.newVector(t, weigh);
        w.writeSubArray(0, 1, 2, new double[] { 1, 2, 3, 4 });
        assertEquals((double[]) w.readObject(0), new double[] { 2, 3 });
        expectThrows(IndexOutOfBoundsException.class, () -> w.writeSubArray(0, 3, 2, new double[4]));
        expectThrows(IllegalArgumentException.class, () -> w.writeSubArray(0, 0, 1, new int[1]));
        assertTrue(w.getClass().getName().endsWith("_GmiParameters" + weigh), w.getClass().getName());
        assertEquals(v.arguments()[0], 5L);
    }

    @Test
    public void generatedVectorsRoundTripThroughGetAndPut() throws Exception {
        MethodTable t = MethodTable.of(Calc.class);
        int check = t.find("long check(long, double, boolean, char, Object)");
        Object[] args = { 7L, 1.5, true, 'c', java.util.List.of(1) };
        GeneratedParameterVector v = ParameterVectorGenerator.of(t, check, args);
        v.checkComplete("test");
        assertEquals(v.arguments(), args);
        assertEquals(v.readDouble(1), 1.5);
        assertEquals(v.readBoolean(2), true);
        GeneratedParameterVector fresh = (GeneratedParameterVector) v.getVector();
        expectThrows(IllegalStateException.class, () -> fresh.readLong(0));
        expectThrows(IllegalArgumentException.class, () -> fresh.readInt(0));
    }
}
