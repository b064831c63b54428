package ibis.gmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.testng.annotations.Test;

/** What the API classes promise without a pool: scheme checks and the not-overridden overloads. */
public class ApiContractTest {

    @Test
    public void schemeConstructorsRejectBadArguments() {
        expectThrows(ConfigurationException.class, () -> new SingleInvocation(-1));
        expectThrows(ConfigurationException.class, () -> new GroupInvocation(null));
        expectThrows(ConfigurationException.class, () -> new GroupInvocation(new int[] { 2, -1 }));
        expectThrows(ConfigurationException.class, () -> new GroupInvocation(new int[] { 3, 1, 3 }));
        expectThrows(ConfigurationException.class, () -> new ReturnReply(-2));
        expectThrows(ConfigurationException.class, () -> new CombineReply((FlatCombiner) null));
        expectThrows(ConfigurationException.class, () -> new CombineReply((BinomialCombiner) null));
        expectThrows(ConfigurationException.class, () -> new PersonalizeReply(null, new ReturnReply(0)));
        expectThrows(ConfigurationException.class,
                () -> new PersonalizeReply(new ReplyPersonalizer(), new PersonalizeReply(new ReplyPersonalizer(),
                        new ReturnReply(0))));
        FlatInvocationCombiner none = new FlatInvocationCombiner() {
            @Override
            public void combine(ParameterVector[] in, ParameterVector out) {
            }
        };
        expectThrows(ConfigurationException.class, () -> new CombinedInvocation(null, 0, 1, none,
                new SingleInvocation(0)));
        expectThrows(ConfigurationException.class, () -> new CombinedInvocation("x", -1, 2,
                (BinomialInvocationCombiner) null, new SingleInvocation(0)));
    }

    @Test
    public void modesFollowTheConstants() throws Exception {
        assertEquals(new GroupInvocation(new int[] { 3, 1 }).targets(), new int[] { 1, 3 });
        CombinedInvocation c = new CombinedInvocation("x", 1, 2, new BinomialInvocationCombiner() {
            @Override
            public void combine(ParameterVector in1, ParameterVector in2, ParameterVector out) {
            }
        }, new GroupInvocation());
        assertEquals(c.mode(), InvocationScheme.I_COMBINED_BINOMIAL_GROUP);
        assertEquals(new PersonalizeReply(new ReplyPersonalizer(), new CombineReply(new FlatCombiner() {
        })).mode(), ReplyScheme.R_PERSONALIZED_COMBINE_FLAT);
        assertEquals(new DiscardReply().mode(), ReplyScheme.R_DISCARD);
    }

    @Test
    public void overloadsThatAreNotOverriddenSayWhichClassAndOverload() {
        FlatCombiner flat = new FlatCombiner() {
        };
        UnsupportedOperationException e = expectThrows(UnsupportedOperationException.class,
                () -> flat.combine(new double[1], new Exception[1]));
        assertTrue(e.getMessage().contains(flat.getClass().getName())
                && e.getMessage().contains("double combine(double[], Exception[])"), e.getMessage());
        BinomialCombiner tree = new BinomialCombiner() {
            private static final long serialVersionUID = 1L;
        };
        e = expectThrows(UnsupportedOperationException.class, () -> tree.combine(0, 1L, null, 1, 2L, null, 2));
        assertTrue(e.getMessage().contains("long combine(int, long, Exception, int, long, Exception, int)"),
                e.getMessage());
        Forwarder f = new Forwarder() {
        };
        e = expectThrows(UnsupportedOperationException.class, () -> f.forward(0, 1, new Exception()));
        assertTrue(e.getMessage().contains("void forward(int, int, Exception)"), e.getMessage());
        ReplyPersonalizer p = new ReplyPersonalizer() {
            private static final long serialVersionUID = 1L;

            @Override
            public void personalize(int in, int[] out) {
                java.util.Arrays.fill(out, -in);
            }
        };
        e = expectThrows(UnsupportedOperationException.class, () -> p.personalize('c', new char[2]));
        assertTrue(e.getMessage().contains("void personalize(char, char[])"), e.getMessage());
    }

    /** As the earlier GMI's: the base class itself gives every invoker the whole result. */
    @Test
    public void theBaseReplyPersonalizerGivesEveryInvokerTheWholeResult() {
        ReplyPersonalizer p = new ReplyPersonalizer();
        char[] chars = new char[3];
        p.personalize('c', chars);
        assertEquals(chars, new char[] {'c', 'c', 'c'});
        double[] doubles = new double[2];
        p.personalize(2.5, doubles);
        assertEquals(doubles, new double[] {2.5, 2.5});
        Object[] objects = new Object[2];
        Object o = new Object();
        p.personalize(o, objects);
        assertTrue(objects[0] == o && objects[1] == o, "the same object for each");
        Exception[] exceptions = new Exception[2];
        Exception x = new IllegalStateException("x");
        p.personalize(x, exceptions);
        assertTrue(exceptions[0] == x && exceptions[1] == x, "the same exception for each");
    }

    @Test
    public void aGroupMethodOutsideAStubCannotBeConfigured() {
        ConfigurationException e = expectThrows(ConfigurationException.class,
                () -> new GroupMethod().configure(new SingleInvocation(0), new ReturnReply(0)));
        assertTrue(e.getMessage().contains("not a method of a group stub"), e.getMessage());
        expectThrows(ConfigurationException.class, () -> new GroupMethod().configure(null, new DiscardReply()));
    }
}
