package ibis.rmi.testing;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;

import org.testng.ITestListener;
import org.testng.ITestResult;

/**
 * Prints every thread of the test JVM (stacks, locks held and waited for) when a test fails, so
 * that a failure seen once in CI, such as a handshake that this JVM never answered, shows what its
 * threads were doing. Registered for every test of this module through
 * {@code META-INF/services/org.testng.ITestNGListener}.
 */
public final class ThreadDumpOnFailure implements ITestListener {

    @Override
    public void onTestFailure(ITestResult result) {
        StringBuilder dump = new StringBuilder();
        dump.append("---- threads of the test JVM after the failure of ").append(result.getTestClass().getName())
                .append('.').append(result.getMethod().getMethodName()).append(" ----\n");
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            dump.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) {
                dump.append(" on ").append(t.getLockName());
            }
            if (t.getLockOwnerName() != null) {
                dump.append(" owned by \"").append(t.getLockOwnerName()).append('"');
            }
            if (t.isInNative()) {
                dump.append(" (in native code)");
            }
            dump.append('\n');
            for (StackTraceElement e : t.getStackTrace()) {
                dump.append("    at ").append(e).append('\n');
            }
            for (MonitorInfo m : t.getLockedMonitors()) {
                dump.append("    holds ").append(m).append(" (locked at ").append(m.getLockedStackFrame())
                        .append(")\n");
            }
            for (LockInfo l : t.getLockedSynchronizers()) {
                dump.append("    holds ").append(l).append('\n');
            }
        }
        dump.append("---- end of threads ----");
        System.err.println(dump);
    }
}
